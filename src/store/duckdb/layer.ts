// What a layered version is (layers.ts reads and writes them): types alone, so that the paths'
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
