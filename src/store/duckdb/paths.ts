// What an access path is (access-path.ts chooses one per query): the interface every path file
// implements, and what the paths read besides the query. Types alone, so that the paths and the
// chooser import this and never each other.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ListQuery } from '../../query/types.ts';
import type { ListPage, PageStream } from '../store.ts';
import type { ConnectionPool } from './pool.ts';
import type { PointFile } from './point-file-format.ts';
import type { StartRange } from './stored-order.ts';
import type { LayeredLimits, Layers } from './layer.ts';

export type PathName = 'nothing' | 'layered' | 'point files' | 'places' | 'regions' | 'vessels' | 'stored order' | 'events';

/** One way of answering a query: its total, its page, and both for a list request. */
export interface AccessPath {
  readonly name: PathName;
  count(): Promise<number>;
  /** The total on a connection the caller holds: a page that needs its total to place itself. */
  countOn(c: DuckDBConnection): Promise<number>;
  /** The page of the list query the path was chosen for (with its total when the caller has it). */
  search(query: ListQuery, total?: number): Promise<PageStream>;
  listPage(query: ListQuery): Promise<ListPage>;
}

/**
 * How a list's page is read by the paths that count but do not read pages of their own: in storage
 * order where that is the list's order (stored-order-path.ts), or sorted (events-path.ts).
 */
export interface PageReader {
  readonly name: 'stored order' | 'events';
  search(query: ListQuery, total: number | undefined, path: AccessPath): Promise<PageStream>;
  listPage(query: ListQuery, path: AccessPath): Promise<ListPage>;
}

/** What the paths read besides the query: the store's connections, point files and tables' contents. */
export interface PathContext {
  pool: ConnectionPool;
  /** Each version's point file; a version without one is read from the tables. */
  points: ReadonlyMap<number, PointFile>;
  /** The versions region_events holds. */
  regionVersions: ReadonlySet<number>;
  /** The cells holding events of each version spatial_events holds. */
  cells: ReadonlyMap<number, Int32Array>;
  /** A version's range of starts, read once and kept by the store. */
  startRangeOf(c: DuckDBConnection, versionId: number): Promise<StartRange>;
  /** The rows the database file holds of a version, from the catalog; undefined for a layered one. */
  storedRowCount(versionId: number): number | undefined;
  /** Lists of at most this many rows are sorted with their entries (sorted-page.ts). */
  sortedWithEntriesMax: number;
  /** The layered versions (layers.ts), read by the layered path alone. */
  layers: Layers;
  /** How pages over a layered version are found (layered-path.ts). */
  layered: LayeredLimits;
}
