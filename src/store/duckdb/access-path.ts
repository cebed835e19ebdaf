// Which access path answers a query, chosen once per query object from the plan it carries
// (query.filters): the route's count, its page and its list page then all come from that path.
// Each path is one file behind AccessPath; docs/performance.md ("Access paths") gives what each
// costs. The order below is the order of preference: the first path that can answer, answers.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import type { ListPage, PageStream } from '../store.ts';
import type { ConnectionPool } from './pool.ts';
import type { PointFile } from './point-file-format.ts';
import type { StartRange } from './stored-order.ts';
import { pageOf } from './held-page.ts';
import { inStoredOrder } from './stored-order.ts';
import { pointFilesAnswer } from './vessel-history.ts';
import { spatialPlan } from './spatial-table.ts';
import { regionPlan } from './region-table.ts';
import { servedByVesselTable } from './vessel-table.ts';
import { PointFilesPath } from './point-files-path.ts';
import { PlacesPath } from './places-path.ts';
import { RegionsPath } from './regions-path.ts';
import { VesselsPath } from './vessels-path.ts';
import { EventsPath, SortedPages } from './events-path.ts';
import { StoredOrderPages } from './stored-order-path.ts';

export type PathName = 'nothing' | 'point files' | 'places' | 'regions' | 'vessels' | 'stored order' | 'events';

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
}

export function chooseAccessPath(query: EventQuery, ctx: PathContext): AccessPath {
  if (query.filters.matchesNothing) return NOTHING;
  if (pointFilesAnswer(query, ctx.points)) return new PointFilesPath(query, ctx.points);
  const pages: PageReader = inStoredOrder(query) ? new StoredOrderPages(ctx) : new SortedPages(ctx);
  const places = spatialPlan(query, ctx.cells);
  if (places) return new PlacesPath(ctx, places, pages);
  const region = regionPlan(query, ctx.regionVersions);
  if (region) return new RegionsPath(ctx, region, pages);
  if (servedByVesselTable(query)) return new VesselsPath(ctx, query, pages);
  return new EventsPath(ctx, query, pages);
}

/** A query no event can meet (plan.ts, matchesNothing): answered without a statement. */
const NOTHING: AccessPath = {
  name: 'nothing',
  count: async () => 0,
  countOn: async () => 0,
  search: async () => pageOf([]),
  listPage: async () => ({ total: 0 }),
};
