// What a layered version is (layers.ts reads and writes them), and how pages over one are found: types alone, so that the paths'
// context (paths.ts) names them without importing what layers.ts imports.
import type { DatasetVersion } from '../../query/datasets.ts';

/** One layered version, as readers attach it. */
export interface Layer {
  versionId: number;
  /** The name its file is attached under. */
  alias: string;
  /** The version it applies to. */
  baseVersionId: number;
  /** The stored version its chain starts from, then each layer up to this one. */
  chain: number[];
  version: DatasetVersion;
}

export type Layers = ReadonlyMap<number, Layer>;

/** How pages over a layered version are found. */
export interface LayeredLimits {
  /**
   * Pages whose offset and limit add up to at most this many are merged in JS, from at most this
   * many stored entries (layered-path.ts, LayeredPath.merged); others are found in SQL.
   */
  mergedMax: number;
  /** Entries of a long page found at once (LayeredPath.inParts). */
  pagePart: number;
  /**
   * Stored entries a merge reads beyond its page's, for those the layers hide, besides an eighth of
   * the page's: a page that finds fewer visible reads twice as many, and so on up to mergedMax.
   */
  mergedSlack: number;
  /**
   * Hidden stored rows that meet a query read with the layers' first rows: a narrow list's are few,
   * and then no statement asks which of the stored entries read are hidden.
   */
  hiddenRead: number;
}
