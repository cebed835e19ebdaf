// The narrow store interface every engine implements (src/store/duckdb, src/store/postgres; the
// program reaches them through src/store/engines.ts). Each engine renders the neutral filter plan
// (src/query/plan.ts) in its own SQL.
import type { EventRecord } from '../domain/record.ts';
import type { DatasetCatalog, ResolvedDataset } from '../query/datasets.ts';
import type { EventQuery, ListQuery } from '../query/types.ts';
import type { StatsOptionsNormalized } from '../query/stats.ts';
import type { TileBounds } from '../geo/tiles.ts';
import type { TileCell, TilePoint } from './tile-sql.ts';

export type { TileCell, TilePoint };
import type { RegionEntry } from './catalog.ts';
import type { IdentityRow, IuuListing, RegistryRecord } from '../domain/vessel-identity.ts';

/** How busy the engine's connections are. */
export interface EngineLoad {
  size: number;
  inUse: number;
  waiting: number;
}

export interface EventStore extends DatasetCatalog {
  /** The engine's connections now (the /metrics gauges). */
  engineLoad(): EngineLoad;
  /**
   * The bytes an embedded engine holds in its buffer pool (cached blocks and working memory, bounded
   * by --memory-limit); undefined where the engine's memory is its server's (PostgreSQL).
   */
  engineMemoryBytes(): Promise<number | undefined>;
  /** The regions of a region dataset (carried by some event, or with a loaded geometry), by name then id. */
  regionList(dataset: string): RegionEntry[];
  /** The region's name, where one was loaded with its geometry. */
  regionName(dataset: string, id: string): string | null;
  /** Number of entries matching the query (the list's `total`). */
  count(query: EventQuery): Promise<number>;
  /**
   * The page's entries as stored JSON texts (whole entries in the `gfw` wire format: shaping is the
   * caller's), in chunks, so large pages stream with bounded memory. It resolves once the engine is
   * held and the first chunk is ready, so a busy or failing engine is an error before any response
   * byte is sent. `total`, the query's count when the caller has it, spares the engine counting
   * again where it needs the count to place the page.
   */
  search(query: ListQuery, total?: number): Promise<PageStream>;
  /**
   * A list request's total and, unless the page is past the end, its page (as `search` gives it):
   * both ready before any response byte. An engine may find the page while it counts; the DuckDB
   * store does for ascending pages in storage order (docs/performance.md, "A region's page found
   * while it is counted"). `countThenSearch` is the plain way.
   */
  listPage(query: ListQuery): Promise<ListPage>;
  /** One entry as stored JSON text (`gfw` wire format). */
  getEntry(dataset: ResolvedDataset, id: string): Promise<string | undefined>;
  /** One stored record (for `raw=true`, the published row it was loaded from). */
  getRecord(dataset: ResolvedDataset, id: string): Promise<EventRecord | undefined>;
  stats(query: EventQuery, options: StatsOptionsNormalized): Promise<EventStats>;
  /** The matching events in a map tile, counted on a `grid` x `grid` division of it (src/store/tile-sql.ts). */
  tileCells(query: EventQuery, tile: TileBounds, grid: number): Promise<TileCell[]>;
  /** The matching events in a map tile, each as itself. */
  tilePoints(query: EventQuery, tile: TileBounds): Promise<TilePoint[]>;
  /** Every self-reported vessel identity of the latest version of each dataset, packed and ordered by vessel id, then last seen from the latest, then first seen (src/store/vessel-identities.ts). */
  vesselIdentities(): Promise<IdentityRow[]>;
  /** The loaded IUU vessel list; undefined when none was loaded (`vessel-events iuu load`). */
  iuuListings(): Promise<IuuListing[] | undefined>;
  /** The loaded vessel registry's records (none when no registry was loaded). */
  vesselRegistry(): Promise<RegistryRecord[]>;
  /** Changes with every load of anything (events, groups, ports, regions): answers may differ across it. */
  generation(): string;
  /** True once the store can answer (database open, at least one dataset loaded). */
  ready(): boolean;
  /** What makes this store answer slower than it should (a missing point file), each with the command that mends it. */
  storageWarnings(): readonly string[];
  close(): Promise<void>;
}

/** A list request's answer: its total, and its page unless the page is past the end of the list. */
export interface ListPage {
  total: number;
  page?: PageStream;
}

/**
 * A list's total and page, found at once (on connections of their own). The page is given back
 * when the count fails or when it lies past the end of the list; a page that fails while the count
 * runs is reported, never left as an unhandled rejection. `found` carries what the engine found
 * with its page, for the engine to check against the total.
 */
export async function countBesidePage<Found extends { page: PageStream }>(query: ListQuery, counting: Promise<number>, finding: Promise<Found>): Promise<{ total: number; found?: Found }> {
  const [counted, found] = await Promise.allSettled([counting, finding]);
  if (counted.status === 'rejected') {
    if (found.status === 'fulfilled') await found.value.page.discard();
    throw counted.reason;
  }
  if (found.status === 'rejected') throw found.reason;
  if (query.offset >= counted.value) {
    await found.value.page.discard();
    return { total: counted.value };
  }
  return { total: counted.value, found: found.value };
}

/** The list's total, then its page (with the total, where the engine places the page by it). */
export async function countThenSearch(store: Pick<EventStore, 'count' | 'search'>, query: ListQuery): Promise<ListPage> {
  const total = await store.count(query);
  return query.offset < total ? { total, page: await store.search(query, total) } : { total };
}

/** What a page's entries are joined with when read as bytes: one byte. */
export type Separator = ',' | '\n';

/**
 * A page being read from the engine, which it holds until the last chunk is read: entries as JSON
 * texts. Chunks are small (one engine chunk, a few thousand entries at most) with a turn of the
 * event loop between them, so writing one never holds the other requests for long.
 */
export interface PageStream extends AsyncIterable<string[]> {
  /** Gives the engine back if the page is never read (the client left before the body started). */
  discard(): Promise<void>;
  /**
   * The same entries read instead as bytes: the page's entries joined by the separator, in UTF-8,
   * in buffers whose concatenation is the whole (a separator may end one buffer). A page written as
   * stored goes to the socket this way, with no JS string per entry (src/store/entry-bytes.ts). A
   * page is read one way or the other, once.
   */
  joined(separator: Separator): AsyncIterable<Buffer>;
}

/**
 * Hands out the store a request should use from start to finish. After a reload, requests already
 * running keep the store they started with; it is closed once the last of them releases it.
 */
export interface StoreProvider {
  acquire(): EventStore;
  release(store: EventStore): void;
  /** The newest store, for answers that span no query (readiness). */
  current(): EventStore;
  /** Looks for a load that landed now, rather than at the next periodic check (SIGHUP does this). */
  refresh(reason: string): Promise<void>;
  close(): Promise<void>;
}

/** What the statistics operation returns (docs/api.md, "Statistics"); members not asked for are absent. */
export interface EventStats {
  numEvents?: number;
  numFlags?: number;
  numVessels?: number;
  flags?: string[];
  timeseries?: { date: string; value: number }[];
  groups?: { name: string; label?: string | null; flag?: string | null; value: number }[];
}

/** Where a store that reopens on a new load reports what it did (each engine's provider). */
export interface ReloadLog {
  info(message: string): void;
  error(message: string): void;
}
