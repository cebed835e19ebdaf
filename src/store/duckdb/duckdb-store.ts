// The DuckDB engine behind the EventStore interface. The server opens the file read-only: the
// loader (src/store/duckdb/writer.ts) is the only writer.
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { OFFLINE_SETTINGS } from './offline.ts';
import { existsSync, statSync } from 'node:fs';
import type { EventRecord } from '../../domain/record.ts';
import type { ResolvedDataset } from '../../query/datasets.ts';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { matchesNothing } from '../../query/plan.ts';
import { countBesidePage, countThenSearch, type EngineLoad, type EventStats, type EventStore, type ListPage, type PageStream } from '../store.ts';
import type { StatsOptionsNormalized } from '../../query/stats.ts';
import { computeStats } from './stats.ts';
import { compileRows, compileSearch, type Source } from './compile.ts';
import { SqlBuilder } from '../sql.ts';
import { typedParam } from './render-plan.ts';
import { servedByVesselTable, vesselSource } from './vessel-table.ts';
import { selectColumns, toRecord } from './columns.ts';
import { ENTRY_BYTES_SQL, entryChunks } from './slices.ts';
import { pageStream, type EntryChunk } from '../entry-chunks.ts';
import { inStoredOrder, nothing, readStartRange, startFromEnd, storedOrderPage, type StartRange } from './stored-order.ts';
import { ConnectionPool } from './pool.ts';
import { readRows, streamRows } from './read-rows.ts';
import { olderLayoutProblem, readGeneration, readGroupIds, readRegionCatalog, readVersions } from './versions.ts';
import { Catalog, type CatalogContents } from '../catalog.ts';
import type { PointFile } from './point-file.ts';
import { openPointFiles } from './point-files.ts';
import { historyMatches, historyPage, pointFilesAnswer, type HistoryMatch } from './vessel-history.ts';
import { readSpatialCells, SPATIAL_PAGE_LIMIT, spatialCount, spatialPage, spatialPlan, type SpatialCount, type SpatialPlan } from './spatial-table.ts';
import type { EntrySources } from './page-entries.ts';
import { COUNTED_STARTS_LIMIT, readRegionVersions, regionCount, regionCountAndStart, regionPageStart, regionPlan, type RegionPlan } from './region-table.ts';

export interface DuckDbStoreOptions {
  path: string;
  /** Connections in the pool. */
  connections?: number;
  /** Engine threads; defaults to the machine's cores. */
  threads?: number;
  /** 0 disables the limit. */
  queryTimeoutMs?: number;
  /** Queries that may wait for a connection; more are refused at once (503). */
  maxWaiting?: number;
  /** DuckDB's memory_limit (default: 80 % of the machine's memory). */
  memoryLimit?: string;
}

/** Which file is at a path now: a load renames a new file over it, which changes this. */
export function fileIdentity(path: string): string {
  try {
    const s = statSync(path);
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return 'missing';
  }
}

/** Starts kept per counted polygon query at most (8 bytes each). */
const MAX_KEPT_STARTS = 1_000_000;

export class DuckDbStore extends Catalog implements EventStore {
  /** Each version's earliest and latest start, read when a -start page first needs it (stored-order.ts). */
  private readonly startRanges = new Map<number, StartRange>();
  /**
   * A polygon query's plan (its cells, found once), and its count with the starts of the events that
   * passed, kept for the page of the same query object (the routes count, then search): the page
   * reads only the rows up to its last start instead of every row of the area again.
   */
  private readonly spatialPlans = new WeakMap<EventQuery, SpatialPlan | null>();
  private readonly spatialCounts = new WeakMap<EventQuery, SpatialCount>();
  /**
   * A history's matches, kept for the query object that counted them: the route counts, then asks
   * for the page of the same object, and the page then reads and filters no record again.
   */
  private readonly histories = new WeakMap<EventQuery, Promise<HistoryMatch[]>>();

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly pool: ConnectionPool,
    /** Each version's point file (point-file.ts); a version without one is read from the tables. */
    private readonly points: Map<number, PointFile>,
    /** The versions region_events holds (region-table.ts). */
    private readonly regionVersions: ReadonlySet<number>,
    contents: CatalogContents,
  ) {
    super(contents);
  }

  static async open(options: DuckDbStoreOptions): Promise<DuckDbStore> {
    if (!existsSync(options.path)) {
      throw new Error(`database ${options.path} does not exist; create it with "vessel-events demo" or "vessel-events load"`);
    }
    const instance = await DuckDBInstance.create(options.path, {
      access_mode: 'READ_ONLY',
      ...OFFLINE_SETTINGS,
      ...(options.threads ? { threads: String(options.threads) } : {}),
      ...(options.memoryLimit ? { memory_limit: options.memoryLimit } : {}),
    });
    // The catalog is read once, outside the per-request time limit.
    const catalogConnection = await instance.connect();
    const problem = await olderLayoutProblem(catalogConnection, options.path);
    if (problem) {
      catalogConnection.closeSync();
      instance.closeSync();
      throw new Error(`database ${problem}`);
    }
    const versions = await readVersions(catalogConnection);
    const groups = await readGroupIds(catalogConnection);
    const regions = await readRegionCatalog(catalogConnection);
    const generation = await readGeneration(catalogConnection, fileIdentity(options.path));
    const warnings: string[] = [];
    const points = await openPointFiles(catalogConnection, options.path, (versionId, problem) => {
      const version = versions.find((v) => v.versionId === versionId);
      const name = version ? `${version.datasetId}:${version.version}` : `version ${versionId}`;
      warnings.push(`${name}: ${problem}, so its lookups by id and vessel histories read the tables, many times slower; write its point files again with "vessel-events migrate --db ${options.path}"`);
    });
    const spatialCells = await readSpatialCells(catalogConnection);
    const regionVersions = await readRegionVersions(catalogConnection);
    const memoryLimit = options.memoryLimit ?? String((await catalogConnection.runAndReadAll(`SELECT current_setting('memory_limit')`)).getRowsJS()[0]![0]);
    catalogConnection.closeSync();
    const pool = await ConnectionPool.open(instance, { size: options.connections ?? 4, timeoutMs: options.queryTimeoutMs ?? 0, maxWaiting: options.maxWaiting ?? 128, memoryLimit });
    // The cells holding events of each version spatial_events holds, for its plans and for buffers out of reach.
    return new DuckDbStore(instance, pool, points, regionVersions, { versions, groups, regions, generation, cells: spatialCells, warnings });
  }

  private spatialPlanOf(query: EventQuery): SpatialPlan | undefined {
    if (!this.spatialPlans.has(query)) this.spatialPlans.set(query, spatialPlan(query, this.eventCells) ?? null);
    return this.spatialPlans.get(query) ?? undefined;
  }

  /** A version's range of starts, read once and kept. */
  private async startRangeOf(c: DuckDBConnection, versionId: number): Promise<StartRange> {
    const range = this.startRanges.get(versionId) ?? (await readStartRange(c, versionId));
    this.startRanges.set(versionId, range);
    return range;
  }

  engineLoad(): EngineLoad {
    return this.pool.stats();
  }

  async count(query: EventQuery): Promise<number> {
    if (matchesNothing(query)) return 0;
    if (pointFilesAnswer(query, this.points)) return (await this.historyOf(query)).length;
    const spatial = this.spatialPlanOf(query);
    if (spatial) {
      const counted = await this.pool.use('heavy', (c) => spatialCount(c, spatial));
      if (counted.total <= MAX_KEPT_STARTS) this.spatialCounts.set(query, counted);
      return counted.total;
    }
    const region = regionPlan(query, this.regionVersions);
    if (region) return this.pool.use('heavy', (c) => regionCount(c, region));
    const source = sourceOf(query);
    return this.pool.use(source ? 'light' : 'heavy', (c) => countOn(c, query, source));
  }

  async search(query: ListQuery, total?: number): Promise<PageStream> {
    if (pointFilesAnswer(query, this.points)) return pageOf(historyPage(await this.historyOf(query), query));
    const spatial = query.limit <= SPATIAL_PAGE_LIMIT ? this.spatialPlanOf(query) : undefined;
    if (spatial) {
      const counted = this.spatialCounts.get(query);
      const sourcesOn = (c: DuckDBConnection): EntrySources => ({
        pointFile: (versionId) => this.points.get(versionId),
        density: async (versionId) => {
          const range = await this.startRangeOf(c, versionId);
          const rows = query.datasets.find((d) => d.resolved.versionId === versionId)?.resolved.rowCount ?? 0;
          return rows / Math.max(1, range.lastUs - range.firstUs);
        },
      });
      return pageOf(await this.pool.use('heavy', (c) => spatialPage(c, spatial, query, sourcesOn(c), total ?? counted?.total, counted?.starts)));
    }
    // vessel_events holds no entries: without point files, a history's page reads events.
    const { page } = await this.heldPageOf(async (connection) => {
      const region = regionPlan(query, this.regionVersions);
      if (inStoredOrder(query) && region) return regionStoredPage(connection, region, query, total ?? (await regionCount(connection, region)));
      if (inStoredOrder(query)) {
        const listTotal = total ?? (await countOn(connection, query, undefined));
        const versionId = query.datasets[0]!.resolved.versionId;
        const from = await startFromEnd(connection, query, listTotal, () => this.startRangeOf(connection, versionId));
        return { page: await storedOrderPage(connection, query, listTotal, from) };
      }
      const search = compileSearch(query, ENTRY_BYTES_SQL);
      return { page: entryChunks(await streamRows(connection, search.sql, search.params)) };
    });
    return page;
  }

  /**
   * An ascending page of one dataset version in storage order is found, and its first chunk read,
   * on one connection while another counts: the page needs nothing from the total, and on two cores
   * the count's 4 ms no longer come before the page's 5-10 (docs/performance.md, "A region's page
   * found while it is counted"). A region's page is then checked against the count (the two read
   * different tables). Any other list counts, then searches.
   */
  async listPage(query: ListQuery): Promise<ListPage> {
    if (matchesNothing(query)) return { total: 0 };
    if (!inStoredOrder(query) || query.sort === '-start' || pointFilesAnswer(query, this.points) || this.spatialPlanOf(query)) {
      return countThenSearch(this, query);
    }
    const region = regionPlan(query, this.regionVersions);
    if (region && query.offset + query.limit <= COUNTED_STARTS_LIMIT) {
      // One pass over the region's rows gives the total and places the page, then the page is read.
      const { total, page } = await this.heldPageOf(async (c) => {
        const counted = await regionCountAndStart(c, region, query);
        return { total: counted.total, page: counted.from ? await storedOrderPage(c, query, counted.total, counted.from) : nothing() };
      });
      if (query.offset < total) return { total, page };
      await page.discard();
      return { total };
    }
    const found = this.heldPageOf(async (c): Promise<{ page: AsyncIterable<EntryChunk>; rows?: number }> =>
      // An ascending page is placed by its offset alone: storedOrderPage reads the total only for -start.
      region ? regionStoredPage(c, region, query, undefined) : { page: await storedOrderPage(c, query, Number.NaN) });
    const { total, found: held } = await countBesidePage(query, this.count(query), found);
    if (!held) return { total };
    if (held.rows !== undefined && held.rows !== Math.min(query.limit, total - query.offset)) {
      await held.page.discard();
      throw new Error(`region_events gave a page of ${held.rows} rows at offset ${query.offset} of the ${total} it counted`);
    }
    return { total, page: held.page };
  }

  /**
   * A page read on a connection of its own, which it holds until the page is read or discarded. The
   * costly part (the sort, or finding the page) and the first chunk run under the time limit.
   */
  private async heldPageOf<T extends { page: AsyncIterable<EntryChunk> }>(find: (c: DuckDBConnection) => Promise<T>): Promise<Omit<T, 'page'> & { page: PageStream }> {
    const connection = await this.pool.acquire('heavy');
    try {
      const { rest, chunks, first } = await this.pool.timed(connection, async () => {
        const { page, ...rest } = await find(connection);
        const chunks = page[Symbol.asyncIterator]();
        return { rest, chunks, first: await chunks.next() };
      });
      return { ...rest, page: heldPage(first, chunks, () => this.pool.release(connection)) };
    } catch (e) {
      this.pool.release(connection);
      throw e;
    }
  }

  private historyOf(query: EventQuery): Promise<HistoryMatch[]> {
    let matches = this.histories.get(query);
    if (!matches) {
      matches = historyMatches(query, this.points);
      this.histories.set(query, matches);
    }
    return matches;
  }

  stats(query: EventQuery, options: StatsOptionsNormalized): Promise<EventStats> {
    return this.pool.use('heavy', (c) => computeStats(c, query, options));
  }

  async getEntry(dataset: ResolvedDataset, id: string): Promise<string | undefined> {
    const points = this.points.get(dataset.resolved.versionId);
    if (points) return points.entry(id);
    const row = await this.byId(dataset, id, 'entry');
    return row?.[0] as string | undefined;
  }

  async getRecord(dataset: ResolvedDataset, id: string): Promise<EventRecord | undefined> {
    const select = selectColumns([dataset.resolved.kind]);
    const points = this.points.get(dataset.resolved.versionId);
    if (!points) {
      const row = await this.byId(dataset, id, select);
      return row ? toRecord(row) : undefined;
    }
    // The point file finds the event and its start; rows are sorted by (version, start), so the
    // start's zone maps find its row group.
    const entry = await points.entry(id);
    if (entry === undefined) return undefined;
    const startMs = Date.parse((JSON.parse(entry) as { start: string }).start);
    const b = new SqlBuilder<DuckDBValue>();
    const sql = `SELECT ${select} FROM events WHERE version_id = ${typedParam(b, 'version_id', dataset.resolved.versionId)}
      AND start_ts BETWEEN epoch_ms(${b.param(startMs - 1)}::BIGINT) AND epoch_ms(${b.param(startMs + 1)}::BIGINT) AND id = ${b.param(id)}`;
    const rows = await this.pool.use('light', (c) => readRows(c, sql, b.params));
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** A version without a point file (its file could not be opened): the id index where the file has one. */
  private byId(dataset: ResolvedDataset, id: string, select: string): Promise<unknown[] | undefined> {
    return this.pool.use('light', async (c) => {
      // An index answers `id = $1` alone; a second condition in the same WHERE makes DuckDB scan,
      // so the version is checked on the (few) rows with that id.
      const rows = await readRows(c, `SELECT version_id, ${select} FROM events WHERE id = $1`, [id]);
      return rows.find((r) => Number(r[0]) === dataset.resolved.versionId)?.slice(1);
    });
  }

  async close(): Promise<void> {
    // An instance whose connections are not all closed is left to the process's end.
    if (await this.pool.close()) this.instance.closeSync();
    await Promise.all([...this.points.values()].map((p) => p.close()));
  }
}

async function countOn(c: DuckDBConnection, query: EventQuery, source: Source | undefined): Promise<number> {
  const rows = compileRows(query, source);
  return (await readRows(c, `SELECT count(*)::DOUBLE ${rows.sql}`, rows.params))[0]![0] as number;
}

/** A vessel's history is counted in the table sorted by vessel; everything else in events. */
function sourceOf(query: EventQuery): Source | undefined {
  return servedByVesselTable(query) ? vesselSource(query) : undefined;
}

/** A page already read whole (it holds no engine). */
function pageOf(entries: string[]): PageStream {
  return pageStream({
    async *[Symbol.asyncIterator]() {
      if (entries.length > 0) yield entries;
    },
  }, async () => {});
}

/**
 * A page of one region in storage order: region_events finds where it begins, events reads it from
 * there. Without the total (an ascending page found while it is counted), `rows` is the page's
 * size, for the caller to check against the count.
 */
async function regionStoredPage(c: DuckDBConnection, region: RegionPlan, query: ListQuery, total: number | undefined): Promise<{ page: AsyncIterable<EntryChunk>; rows: number }> {
  const from = await regionPageStart(c, region, query, total);
  return from ? { page: await storedOrderPage(c, query, total ?? Number.NaN, from), rows: from.rows } : { page: nothing(), rows: 0 };
}

/**
 * The page's chunks, the first already read; `release` runs once, when the last chunk is read, the
 * reader stops early, or the page is discarded unread.
 */
function heldPage(first: IteratorResult<EntryChunk>, rest: AsyncIterator<EntryChunk>, release: () => void): PageStream {
  let started = false;
  let released = false;
  const releaseOnce = () => {
    if (!released) {
      released = true;
      release();
    }
  };
  return pageStream({
    async *[Symbol.asyncIterator]() {
      started = true;
      let finished = first.done;
      try {
        if (first.done) return;
        yield first.value;
        for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
        finished = true;
      } finally {
        // A reader that stops early (a client gone mid-page) ends the engine's result before the
        // connection serves another query: a result left pending on it stalls the next one.
        if (!finished) await rest.return?.(undefined);
        releaseOnce();
      }
    },
  }, async () => {
    if (started) return;
    started = true;
    if (!first.done) await rest.return?.(undefined);
    releaseOnce();
  });
}
