// The PostgreSQL engine behind the EventStore interface. One pool of connections serves every
// snapshot of the catalog (reloading-store.ts opens a new snapshot when a load commits); the
// server only reads, and loads write through src/store/postgres/writer.ts, from anywhere.
import { readVesselIdentities } from './identity-table.ts';
import { iuuListingsOf, IUU_COLUMNS, latestVersionIds } from '../vessel-identities.ts';
import type { IdentityRow, IuuListing, RegistryRecord } from '../../domain/vessel-identity.ts';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { EventRecord } from '../../domain/record.ts';
import { recordOfRow, RECORD_SELECT } from './record-columns.ts';
import { EngineOutOfMemory, Overloaded, QueryTimeout } from '../../query/errors.ts';
import { kindsOf, type ResolvedDataset } from '../../query/datasets.ts';
import type { StatsOptionsNormalized } from '../../query/stats.ts';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { Catalog } from '../catalog.ts';
import type { PostgresCatalog } from './versions.ts';
import { countBesidePage, countThenSearch, type EngineLoad, type EventStats, type EventStore, type ListPage, type PageStream } from '../store.ts';
import { pageStream } from '../entry-bytes.ts';
import { wholeVersionsCount } from '../whole-versions.ts';
import { regionPlan } from '../region-plan.ts';
import { regionCountSql, regionPageSql } from './region-queries.ts';
import { spatialConditions } from '../spatial-plan.ts';
import { spatialCountSql, spatialPageSql } from './spatial-queries.ts';
import { servedByVesselTable } from '../vessel-plan.ts';
import { vesselCountSql, vesselPageSql } from './vessel-queries.ts';
import { compileSearch, compileWhere, type CompiledSql } from './compile.ts';
import { connectionConfig } from './connection.ts';
import { readTileCells, readTilePoints, type TileCell, type TilePoint } from '../tile-sql.ts';
import type { TileBounds } from '../../geo/tiles.ts';
import { computeStats } from './stats.ts';
import { SqlBuilder } from '../sql.ts';
import { storable } from './render-plan.ts';
import { copyPage, copyStatement } from './copy-page.ts';
import { OWN_PARTITIONS, type VersionScope } from './lineage.ts';
import { readingApart, versionsApart } from './shared-versions.ts';

export interface PostgresStoreOptions {
  url: string;
  /** Connections in the pool. */
  connections?: number;
  /** 0 disables the limit. */
  queryTimeoutMs?: number;
  /** Queries that may wait for a connection; more are refused at once (503). */
  maxWaiting?: number;
  /** Pages of this many entries or more are read by COPY (copy-page.ts); the tests lower it to compare the two ways. */
  copyPageRows?: number;
}

/** Rows of a page read per round trip: a chunk, as the DuckDB engine hands them over. */
const CHUNK_ROWS = 2048;
/**
 * Pages of at least this many entries are read by COPY: the big page and exports. Smaller ones keep
 * the cursor, which can stop early without dropping its connection.
 */
const COPY_PAGE_ROWS = 10_000;
/** PostgreSQL's code for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';
/** SQLSTATE out_of_memory: the server could not allocate for this query. */
const OUT_OF_MEMORY = '53200';

/** The pool and its limits, shared by every snapshot of one server. */
export class PostgresPool {
  private closing = false;
  readonly pool: pg.Pool;
  /** Connections handed out and not yet given back. */
  private readonly held = new Set<{ release(err?: Error | boolean): void }>();

  /** Connections in the pool. */
  private get size(): number {
    return this.options.connections ?? 8;
  }

  /** The smallest page read by COPY. */
  get copyPageRows(): number {
    return this.options.copyPageRows ?? COPY_PAGE_ROWS;
  }

  constructor(private readonly options: PostgresStoreOptions) {
    const timeout = options.queryTimeoutMs ?? 0;
    this.pool = new pg.Pool({
      ...connectionConfig(options.url, timeout > 0 ? { statement_timeout: timeout } : {}),
      max: this.size,
      // Idle connections do not hold the process open (a server holds it by listening).
      allowExitOnIdle: true,
      ...(timeout > 0 ? { connectionTimeoutMillis: timeout } : {}),
    });
    // An idle connection the server drops (a restart) is an error event, not a crash.
    this.pool.on('error', () => undefined);
  }

  /** A connection, or a 503 at once when too many queries wait, or a 504 past the time limit. */
  async acquire(): Promise<pg.PoolClient> {
    if (this.closing) throw closingError();
    if (this.pool.waitingCount >= (this.options.maxWaiting ?? 128)) {
      throw new Overloaded([{ title: 'Service Unavailable', detail: `the server is busy: ${this.pool.waitingCount} ${this.pool.waitingCount === 1 ? 'query is' : 'queries are'} waiting for the engine; retry in a moment` }]);
    }
    let c: pg.PoolClient;
    try {
      c = await this.pool.connect();
    } catch (e) {
      throw this.translate(e);
    }
    // The pool listens for errors on idle connections only. One the server drops while a request
    // holds it, between two statements (a restart, pg_terminate_backend), emits an error event
    // nobody listens to, which ends the process; held, its next statement fails instead, and the
    // pool discards it on release.
    const dropped = () => undefined;
    c.on('error', dropped);
    const release = c.release.bind(c);
    const held = { release: (err?: Error | boolean) => {
      // Once: a connection closing ended is not given back again by its holder.
      if (!this.held.delete(held)) return;
      c.removeListener('error', dropped);
      release(err);
    } };
    this.held.add(held);
    c.release = held.release;
    return c;
  }

  /**
   * Whether `n` connections can be had at once without waiting: idle or not yet opened, and nobody
   * queued before them. The pool hands out connections in the order asked, so connections asked for
   * in the same turn of the event loop after a true answer are these.
   */
  spare(n: number): boolean {
    const { pool } = this;
    return !this.closing && pool.waitingCount === 0 && pool.idleCount + (this.size - pool.totalCount) >= n;
  }

  stats(): EngineLoad {
    return { size: this.size, inUse: this.pool.totalCount - this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  async use<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.acquire();
    try {
      return await work(c).catch((e: unknown) => Promise.reject(this.translate(e)));
    } finally {
      c.release();
    }
  }

  /** Rows as arrays. */
  async rows(c: pg.ClientBase, sql: string, params: readonly unknown[]): Promise<unknown[][]> {
    return (await c.query({ text: sql, values: [...params], rowMode: 'array' })).rows as unknown[][];
  }

  /** The engine's time limit as the API's 504, its memory running out as a 503; anything else unchanged. */
  translate(e: unknown): unknown {
    if ((e as { code?: string }).code === OUT_OF_MEMORY) {
      return new EngineOutOfMemory([{ title: 'Service Unavailable', detail: 'the PostgreSQL server ran out of memory for this query while others ran; retry in a moment, or give the server more (work_mem, its host\'s memory)' }], 2);
    }
    // pg's words for a wait for a pooled connection, or a new one, past connectionTimeoutMillis.
    if ((e as { code?: string }).code === QUERY_CANCELED || /timeout exceeded when trying to connect|due to connection timeout/.test((e as Error).message)) {
      return new QueryTimeout([{ title: 'Query timeout', detail: `the query ran past the configured limit of ${this.options.queryTimeoutMs} ms; narrow the filters or raise --query-timeout` }]);
    }
    return e;
  }

  /**
   * Ends the pool once its connections are given back. One still held after `graceMs` (a page
   * nobody reads to its end) is closed then, so that closing never waits forever; its holder's
   * next statement fails.
   */
  async close(graceMs = 5_000): Promise<void> {
    this.closing = true;
    const deadline = Date.now() + graceMs;
    while (this.held.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const held of [...this.held]) held.release(new Error('the server is closing'));
    await this.pool.end();
  }
}

const closingError = () => new Overloaded([{ title: 'Service Unavailable', detail: 'the server is closing; retry in a moment' }]);

export class PostgresStore extends Catalog implements EventStore {
  private closed = false;
  /** The versions with statistics rollups (stats-rollups.ts). */
  private readonly statsRollupVersions: ReadonlySet<number>;
  /** The versions region_events holds (region-table.ts). */
  private readonly regionTableVersions: ReadonlySet<number>;
  /** The lineages whose updates added and hid rows by region (change-tables.ts). */
  private readonly regionUpdatedLineages: ReadonlySet<number>;
  /** The versions whose rows of region_events are counted by month (region-months.ts). */
  private readonly regionMonthVersions: ReadonlySet<number>;
  /** The versions spatial_events holds (spatial-table.ts). */
  private readonly spatialTableVersions: ReadonlySet<number>;
  /** The lineages whose updates added and hid rows by place (change-tables.ts). */
  private readonly spatialUpdatedLineages: ReadonlySet<number>;
  /** The versions vessel_events holds (vessel-table.ts). */
  private readonly vesselTableVersions: ReadonlySet<number>;
  /** The lineages whose updates added and hid rows by vessel (change-tables.ts). */
  private readonly vesselUpdatedLineages: ReadonlySet<number>;
  /** Where each version's rows are (lineage.ts). */
  private readonly scope: VersionScope;
  /** The scope on the tables kept beside the events, whose rows an update hides stay in their lineage's partition. */
  private readonly servingScope: VersionScope;
  constructor(private readonly pool: PostgresPool, contents: PostgresCatalog) {
    super(contents);
    this.scope = contents.scope;
    this.servingScope = contents.scope.onServingTables();
    this.statsRollupVersions = contents.statsRollupVersions;
    this.regionTableVersions = contents.regionTableVersions;
    this.regionUpdatedLineages = contents.regionUpdatedLineages;
    this.regionMonthVersions = contents.regionMonthVersions;
    this.spatialTableVersions = contents.spatialTableVersions;
    this.spatialUpdatedLineages = contents.spatialUpdatedLineages;
    this.vesselTableVersions = contents.vesselTableVersions;
    this.vesselUpdatedLineages = contents.vesselUpdatedLineages;
  }

  /**
   * The table a query's total and pages are read from: vessel_events for a vessel's history,
   * region_events for one region of a layer it holds, spatial_events for polygons, else the events
   * (a region page in end order too).
   */
  private tableOf(query: EventQuery): { count(): CompiledSql; page(list: ListQuery): CompiledSql } {
    const { apart } = this.reading(query);
    if (apart) {
      // Read from the versions' rows apart alone, pages without the join back to the events.
      const read = (c: CompiledSql) => ({ sql: readingApart(apart, c.sql), params: c.params });
      return {
        count: () => {
          const where = compileWhere(query, OWN_PARTITIONS);
          return read({ sql: `SELECT count(*)::float8 FROM events WHERE ${where.sql}`, params: where.params });
        },
        page: (list) => read(compileSearch(list, OWN_PARTITIONS, Infinity)),
      };
    }
    const onEvents = {
      count: () => {
        const where = compileWhere(query, this.scope);
        return { sql: `SELECT count(*)::float8 FROM events WHERE ${where.sql}`, params: where.params };
      },
      page: (list: ListQuery) => compileSearch(list, this.scope),
    };
    if (servedByVesselTable(query) && query.datasets.every((d) => this.vesselTableVersions.has(d.resolved.versionId))) {
      return { count: () => vesselCountSql(query, this.servingScope, this.vesselUpdatedLineages), page: (list) => vesselPageSql(list, this.servingScope, this.vesselUpdatedLineages) ?? onEvents.page(list) };
    }
    const region = regionPlan(query, this.regionTableVersions);
    if (region) return { count: () => regionCountSql(region, this.servingScope, this.regionUpdatedLineages, this.regionMonthVersions), page: (list) => regionPageSql(region, list, this.servingScope, this.regionUpdatedLineages) ?? onEvents.page(list) };
    const spatial = spatialConditions(query, this.spatialTableVersions);
    if (spatial) return { count: () => spatialCountSql(spatial, this.servingScope, this.spatialUpdatedLineages), page: (list) => spatialPageSql(spatial, list, this.servingScope, this.spatialUpdatedLineages) };
    return onEvents;
  }

  /**
   * How a query reads its versions: as the catalog places them, or, when two of them share rows,
   * each version's rows apart under its own id (shared-versions.ts), every statement after `apart`.
   */
  private reading(query: EventQuery): { scope: VersionScope; apart?: string } {
    const versionIds = query.datasets.map((d) => d.resolved.versionId);
    if (!this.scope.sharesRows(versionIds)) return { scope: this.scope };
    return { scope: OWN_PARTITIONS, apart: versionsApart(this.scope, versionIds) };
  }

  /** Rows of a statement on `c`, read as `reading` says. */
  private rowsReading(c: pg.ClientBase, apart: string | undefined): (sql: string, params: readonly unknown[]) => Promise<unknown[][]> {
    return (sql, params) => this.db.rows(c, apart ? readingApart(apart, sql) : sql, params);
  }

  /** The pool, while this snapshot is open: a closed one refuses work as a closing server does. */
  private get db(): PostgresPool {
    if (this.closed) throw closingError();
    return this.pool;
  }

  async engineMemoryBytes(): Promise<undefined> {
    return undefined;
  }

  engineLoad(): EngineLoad {
    return this.pool.stats();
  }

  async count(query: EventQuery): Promise<number> {
    if (query.filters.matchesNothing) return 0;
    // A version is a partition holding exactly its catalog row's count.
    const whole = wholeVersionsCount(query, (versionId) => this.versions().find((v) => v.versionId === versionId)?.rowCount);
    if (whole !== undefined) return whole;
    const counted = this.tableOf(query).count();
    return this.db.use(async (c) => Number((await this.db.rows(c, counted.sql, counted.params))[0]![0]));
  }

  /**
   * The total and the page at once, on two connections, where the pool has two to spare: the page
   * no longer waits for the count (docs/performance.md, "The PostgreSQL engine:
   * pages"). Only spare connections are taken so: a request that held its page's connection
   * while waiting for a second could wait forever on others doing the same. Otherwise the total,
   * then the page, on one connection at a time.
   */
  async listPage(query: ListQuery): Promise<ListPage> {
    if (query.filters.matchesNothing) return { total: 0 };
    if (!this.db.spare(2)) return countThenSearch(this, query);
    const { total, found } = await countBesidePage(query, this.count(query), this.search(query).then((page) => ({ page })));
    return found ? { total, page: found.page } : { total };
  }

  async search(query: ListQuery): Promise<PageStream> {
    const page = this.tableOf(query).page(query);
    const db = this.db;
    const statement = query.limit >= db.copyPageRows ? copyStatement(page) : undefined;
    const c = await db.acquire();
    if (statement) return copyPage(c, statement, (e) => db.translate(e), (err) => c.release(err));
    let cursor: Cursor<unknown[]>;
    let first: string[];
    try {
      cursor = c.query(new Cursor<unknown[]>(page.sql, page.params, { rowMode: 'array' }));
      first = (await cursor.read(CHUNK_ROWS)).map((r) => r[0] as string);
    } catch (e) {
      c.release();
      throw db.translate(e);
    }
    return cursorPage(first, cursor, db, () => c.release());
  }

  stats(query: EventQuery, options: StatsOptionsNormalized): Promise<EventStats> {
    const { scope, apart } = this.reading(query);
    return this.db.use((c) => computeStats(this.rowsReading(c, apart), query, options, scope, apart ? new Set() : this.statsRollupVersions));
  }

  tileCells(query: EventQuery, tile: TileBounds, grid: number): Promise<TileCell[]> {
    if (query.filters.matchesNothing) return Promise.resolve([]);
    const { scope, apart } = this.reading(query);
    return this.db.use((c) => readTileCells(this.rowsReading(c, apart), compileWhere(query, scope), tile, grid, 'vessel_id', kindsOf(query.datasets)));
  }

  tilePoints(query: EventQuery, tile: TileBounds): Promise<TilePoint[]> {
    if (query.filters.matchesNothing) return Promise.resolve([]);
    const { scope, apart } = this.reading(query);
    return this.db.use((c) => readTilePoints(this.rowsReading(c, apart), compileWhere(query, scope), tile, '(extract(epoch FROM start_ts) * 1000)::float8'));
  }

  vesselIdentities(): Promise<IdentityRow[]> {
    return this.db.use((c) => readVesselIdentities(c, latestVersionIds(this.versions())));
  }

  iuuListings(): Promise<IuuListing[] | undefined> {
    return this.db.use(async (c) => {
      // A database written before the list has neither the table nor meta's iuu_list.
      if ((await this.db.rows(c, `SELECT 1 FROM information_schema.tables WHERE table_name = 'iuu_listings' AND table_schema = current_schema()`, [])).length === 0) return undefined;
      if ((await this.db.rows(c, `SELECT 1 FROM meta WHERE key = 'iuu_list'`, [])).length === 0) return undefined;
      return iuuListingsOf(await this.db.rows(c, `SELECT ${IUU_COLUMNS} FROM iuu_listings ORDER BY listed_from, vessel_id, ssvid`, []));
    });
  }

  vesselRegistry(): Promise<RegistryRecord[]> {
    return this.db.use(async (c) => {
      if ((await this.db.rows(c, `SELECT 1 FROM information_schema.tables WHERE table_name = 'vessel_registry' AND table_schema = current_schema()`, [])).length === 0) return [];
      return (await this.db.rows(c, 'SELECT record FROM vessel_registry', [])).map((r) => JSON.parse(r[0] as string) as RegistryRecord);
    });
  }

  async getRecord(dataset: ResolvedDataset, id: string): Promise<EventRecord | undefined> {
    const row = await this.byId(dataset, id, RECORD_SELECT);
    return row === undefined ? undefined : recordOfRow(row);
  }

  async getEntry(dataset: ResolvedDataset, id: string): Promise<string | undefined> {
    return (await this.byId(dataset, id, 'entry'))?.[0] as string | undefined;
  }

  private byId(dataset: ResolvedDataset, id: string, select: string): Promise<unknown[] | undefined> {
    if (!storable(id)) return Promise.resolve(undefined);
    const b = new SqlBuilder();
    const where = `id = ${b.param(id)} AND ${this.scope.rowsOf(b, dataset.resolved.versionId)}`;
    return this.db.use(async (c) => (await this.db.rows(c, `SELECT ${select} FROM events WHERE ${where}`, b.params))[0]);
  }

  /** Refuses further work; the pool belongs to the provider (reloading-store.ts), which ends it. */
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** The page's chunks, the first already read; the connection goes back once, however reading ends. */
function cursorPage(first: string[], cursor: Cursor<unknown[]>, db: PostgresPool, release: () => void): PageStream {
  let released = false;
  let started = false;
  const finish = async () => {
    if (released) return;
    released = true;
    await cursor.close().catch(() => undefined);
    release();
  };
  return pageStream({
    async *[Symbol.asyncIterator]() {
      started = true;
      try {
        let chunk = first;
        while (chunk.length > 0) {
          yield chunk;
          if (chunk.length < CHUNK_ROWS) break;
          chunk = (await cursor.read(CHUNK_ROWS).catch((e: unknown) => Promise.reject(db.translate(e)))).map((r) => r[0] as string);
        }
      } finally {
        await finish();
      }
    },
  }, async () => {
    if (started) return;
    started = true;
    await finish();
  });
}
