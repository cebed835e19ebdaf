// The DuckDB engine behind the EventStore interface. The server opens the file read-only: the
// loader (src/store/duckdb/writer.ts) is the only writer.
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { OFFLINE_SETTINGS } from './offline.ts';
import { existsSync, statSync } from 'node:fs';
import type { EventRecord } from '../../domain/record.ts';
import { kindsOf, type ResolvedDataset } from '../../query/datasets.ts';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import type { EngineLoad, EventStats, EventStore, ListPage, PageStream } from '../store.ts';
import type { StatsOptionsNormalized } from '../../query/stats.ts';
import { computeStats } from './stats.ts';
import { compileWhere } from './compile.ts';
import { readTileCells, readTilePoints, type TileCell, type TilePoint } from '../tile-sql.ts';
import type { TileBounds } from '../../geo/tiles.ts';
import { SqlBuilder } from '../sql.ts';
import { typedParam } from './render-plan.ts';
import { selectColumns, toRecord } from './columns.ts';
import { readStartRange, type StartRange } from './stored-order.ts';
import { ConnectionPool } from './pool.ts';
import { readRows } from './statements.ts';
import { olderLayoutProblem, readGeneration, readGroupIds, readRegionCatalog, readVersions } from './versions.ts';
import { Catalog, type CatalogContents } from '../catalog.ts';
import type { PointFile } from './point-file-format.ts';
import { openPointFiles } from './point-file-catalog.ts';
import { readSpatialCells } from './spatial-table.ts';
import { readRegionVersions } from './region-table.ts';
import { monthRows, readStatsMonthVersions, type MonthTables } from './stats-months.ts';
import { readMonthSummaries } from './month-summaries.ts';
import { readVesselIdentities } from './identity-table.ts';
import { iuuListingsOf, IUU_COLUMNS, latestVersionIds } from '../vessel-identities.ts';
import { tableExists } from './tables.ts';
import type { IdentityRow, IuuListing, RegistryRecord } from '../../domain/vessel-identity.ts';
import { SORTED_WITH_ENTRIES_MAX } from './sorted-page.ts';
import { chooseAccessPath, type AccessPath, type PathContext } from './access-path.ts';
import { addLayerRegionIds, attachLayers, correctionsFrom, eventsFrom, layersIdentity, type Layers } from './layers.ts';
import { holds, idHash, readLayerIds } from './layer-ids.ts';
import { LAYERED_LIMITS, layeredFrom, rebasable, rebased, versionIdsOf } from './layered-path.ts';
import type { LayeredLimits } from './layer.ts';

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
  /**
   * Lists of at most this many rows are sorted with their entries; longer ones on their sort
   * columns alone (sorted-page.ts; default SORTED_WITH_ENTRIES_MAX).
   */
  sortedWithEntriesMax?: number;
  /** How pages over an update layer are found (layered-path.ts; default LAYERED_LIMITS). */
  layered?: Partial<LayeredLimits>;
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

/** Which database file and which update layers (layers.ts) are at a path now: either changing means new data. */
export function catalogueIdentity(path: string): string {
  return `${fileIdentity(path)}|${layersIdentity(path)}`;
}

/**
 * Distinct vessels of a tile's cells on a 64-bit hash of the id, as statistics count them (stats.ts):
 * 532-556 ms against 744-783 for the ids' texts over fishing's 7.4M rows at 10M.
 */
const VESSEL_KEY = 'hash(vessel_id)';

export class DuckDbStore extends Catalog implements EventStore {
  /** Each version's earliest and latest start, read when a -start page first needs it (stored-order.ts). */
  private readonly startRanges = new Map<number, StartRange>();
  /**
   * Each query's access path (access-path.ts), chosen once: a route counts, then asks for the page
   * of the same query object, and the path keeps what its count found for the page.
   */
  private readonly paths = new WeakMap<EventQuery, AccessPath>();
  private readonly pathContext: PathContext;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly pool: ConnectionPool,
    /** Each version's point file (point-file-format.ts); a version without one is read from the tables. */
    private readonly points: Map<number, PointFile>,
    regionVersions: ReadonlySet<number>,
    /** The versions stats_months and its summaries hold (stats-months.ts, month-summaries.ts). */
    private readonly monthTables: MonthTables,
    contents: CatalogContents,
    sortedWithEntriesMax: number,
    /** The layered versions (layers.ts), their files attached to the instance. */
    private readonly layers: Layers,
    layered: LayeredLimits,
    /** The ids each layer file touches, as hashes (layer-ids.ts). */
    private readonly layerIds: ReadonlyMap<string, Uint32Array>,
  ) {
    super(contents);
    this.pathContext = {
      pool,
      points,
      regionVersions,
      cells: this.eventCells,
      startRangeOf: (c, versionId) => this.startRangeOf(c, versionId),
      storedRowCount: (versionId) => (layers.has(versionId) ? undefined : contents.versions.find((v) => v.versionId === versionId)?.rowCount),
      sortedWithEntriesMax,
      layers,
      layered,
    };
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
    const warnings: string[] = [];
    const stored = await readVersions(catalogConnection);
    // Attached to the instance, so every connection of the pool reads them.
    const layers = await attachLayers(catalogConnection, options.path, new Set(stored.map((v) => v.versionId)), (versionId, why) => {
      warnings.push(`the update layer of version ${versionId} is not served: ${why}`);
    });
    const versions = [...stored, ...[...layers.values()].map((l) => l.version)].sort((a, b) => a.versionId - b.versionId);
    const groups = await readGroupIds(catalogConnection);
    const regions = await readRegionCatalog(catalogConnection);
    await addLayerRegionIds(catalogConnection, layers, regions.ids);
    // Answers' ETags change with a new layer as with a new database file.
    const generation = `${await readGeneration(catalogConnection, fileIdentity(options.path))}${layers.size > 0 ? `+${layersIdentity(options.path)}` : ''}`;
    const points = await openPointFiles(catalogConnection, options.path, (versionId, problem) => {
      const version = versions.find((v) => v.versionId === versionId);
      const name = version ? `${version.datasetId}:${version.version}` : `version ${versionId}`;
      warnings.push(`${name}: ${problem}, so its lookups by id and vessel histories read the tables, many times slower; write its point files again with "vessel-events migrate --db ${options.path}"`);
    });
    const spatialCells = await readSpatialCells(catalogConnection);
    const regionVersions = await readRegionVersions(catalogConnection);
    const monthTables = { versions: await readStatsMonthVersions(catalogConnection), summaries: await readMonthSummaries(catalogConnection) };
    const layerIds = await readLayerIds(catalogConnection, layers);
    const memoryLimit = options.memoryLimit ?? String((await catalogConnection.runAndReadAll(`SELECT current_setting('memory_limit')`)).getRowsJS()[0]![0]);
    catalogConnection.closeSync();
    const pool = await ConnectionPool.open(instance, { size: options.connections ?? 4, timeoutMs: options.queryTimeoutMs ?? 0, maxWaiting: options.maxWaiting ?? 128, memoryLimit });
    // The cells holding events of each version spatial_events holds, for its plans and for buffers out of reach.
    return new DuckDbStore(instance, pool, points, regionVersions, monthTables, { versions, groups, regions, generation, cells: spatialCells, warnings }, options.sortedWithEntriesMax ?? SORTED_WITH_ENTRIES_MAX, layers, { ...LAYERED_LIMITS, ...options.layered }, layerIds);
  }

  /** A version's range of starts, read once and kept. */
  private async startRangeOf(c: DuckDBConnection, versionId: number): Promise<StartRange> {
    const range = this.startRanges.get(versionId) ?? (await readStartRange(c, versionId));
    this.startRanges.set(versionId, range);
    return range;
  }

  async engineMemoryBytes(): Promise<number> {
    return this.pool.use('light', async (c) => (await readRows(c, `SELECT sum(memory_usage_bytes)::DOUBLE FROM duckdb_memory()`, []))[0]![0] as number);
  }

  engineLoad(): EngineLoad {
    return this.pool.stats();
  }

  /** The access path that answers the query: chosen on its first use, then kept with the query. */
  accessPath(query: EventQuery): AccessPath {
    let path = this.paths.get(query);
    if (!path) {
      path = chooseAccessPath(query, this.pathContext);
      this.paths.set(query, path);
    }
    return path;
  }

  count(query: EventQuery): Promise<number> {
    return this.accessPath(query).count();
  }

  search(query: ListQuery, total?: number): Promise<PageStream> {
    return this.accessPath(query).search(query, total);
  }

  listPage(query: ListQuery): Promise<ListPage> {
    return this.accessPath(query).listPage(query);
  }

  stats(query: EventQuery, options: StatsOptionsNormalized): Promise<EventStats> {
    const layered = layeredFrom(query, this.pathContext);
    if (!layered) return this.pool.use('heavy', (c) => computeStats(c, query, options, monthRows(query, options, this.monthTables)));
    // A layered version's monthly counts: its stored version's, plus its layers' signed rows;
    // else counted on its rows as if stored.
    const months = rebasable(query) ? monthRows(rebased(query, this.layers), options, this.monthTables, correctionsFrom(this.layers, versionIdsOf(query))) : undefined;
    return this.pool.use('heavy', (c) => computeStats(c, query, options, months, layered));
  }

  tileCells(query: EventQuery, tile: TileBounds, grid: number): Promise<TileCell[]> {
    if (query.filters.matchesNothing) return Promise.resolve([]);
    return this.pool.use('heavy', (c) => readTileCells((sql, params) => readRows(c, sql, params as DuckDBValue[]), this.tileWhere(query), tile, grid, VESSEL_KEY, kindsOf(query.datasets)));
  }

  tilePoints(query: EventQuery, tile: TileBounds): Promise<TilePoint[]> {
    if (query.filters.matchesNothing) return Promise.resolve([]);
    return this.pool.use('heavy', (c) => readTilePoints((sql, params) => readRows(c, sql, params as DuckDBValue[]), this.tileWhere(query), tile, 'epoch_ms(start_ts)::DOUBLE'));
  }

  /** A tile's WHERE, and its FROM where the query reads a layered version. */
  private tileWhere(query: EventQuery) {
    const from = layeredFrom(query, this.pathContext);
    return { ...compileWhere(query), ...(from ? { from } : {}) };
  }

  vesselIdentities(): Promise<IdentityRow[]> {
    const latest = latestVersionIds(this.versions());
    return this.pool.use('heavy', (c) => readVesselIdentities(c, latest, eventsFrom(this.layers, latest)));
  }

  iuuListings(): Promise<IuuListing[] | undefined> {
    return this.pool.use('light', async (c) => {
      if (!(await tableExists(c, 'iuu_listings'))) return undefined;
      if ((await readRows(c, `SELECT 1 FROM meta WHERE key = 'iuu_list'`, [])).length === 0) return undefined;
      return iuuListingsOf(await readRows(c, `SELECT ${IUU_COLUMNS} FROM iuu_listings ORDER BY listed_from, vessel_id, ssvid`, []));
    });
  }

  vesselRegistry(): Promise<RegistryRecord[]> {
    return this.pool.use('light', async (c) => {
      if (!(await tableExists(c, 'vessel_registry'))) return [];
      return (await readRows(c, `SELECT record FROM vessel_registry`, [])).map((r) => JSON.parse(r[0] as string) as RegistryRecord);
    });
  }

  async getEntry(dataset: ResolvedDataset, id: string): Promise<string | undefined> {
    if (this.layers.has(dataset.resolved.versionId)) {
      const found = await this.layeredById(dataset, id, 'entry');
      return found === 'stored' ? this.getEntry(this.onStored(dataset), id) : (found?.[0] as string | undefined);
    }
    const points = this.points.get(dataset.resolved.versionId);
    if (points) return points.entry(id);
    const row = await this.byId(dataset, id, 'entry');
    return row?.[0] as string | undefined;
  }

  async getRecord(dataset: ResolvedDataset, id: string): Promise<EventRecord | undefined> {
    const select = selectColumns([dataset.resolved.kind]);
    if (this.layers.has(dataset.resolved.versionId)) {
      const found = await this.layeredById(dataset, id, select);
      if (found === 'stored') return this.getRecord(this.onStored(dataset), id);
      return found ? toRecord(found) : undefined;
    }
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

  /**
   * A layered version's row by id, from its layers' rows alone (layers.ts correctionsFrom): the
   * selected columns of a layer's row no later layer hides; undefined when a layer hides the
   * stored version's row and none gives another; 'stored' when the layers leave it as stored.
   */
  private async layeredById(dataset: ResolvedDataset, id: string, select: string): Promise<unknown[] | 'stored' | undefined> {
    const versionId = dataset.resolved.versionId;
    const layer = this.layers.get(versionId)!;
    const hash = idHash(id);
    const touched = layer.chain.some((v) => {
      const ids = this.layerIds.get(this.layers.get(v)?.alias ?? '');
      return ids !== undefined && holds(ids, hash);
    });
    if (!touched) return 'stored';
    const rows = await this.pool.use('light', (c) => readRows(c, `SELECT origin::INTEGER, sign::INTEGER, ${select} FROM ${correctionsFrom(this.layers, [versionId])} WHERE id = $1`, [id]));
    const hidden = new Set(rows.filter((r) => (r[1] as number) < 0).map((r) => r[0] as number));
    const given = rows.find((r) => (r[1] as number) > 0 && !hidden.has(r[0] as number));
    if (given) return given.slice(2);
    return hidden.has(layer.chain[0]!) ? undefined : 'stored';
  }

  /** A dataset read at the stored version its layered version starts from. */
  private onStored(dataset: ResolvedDataset): ResolvedDataset {
    return { ...dataset, resolved: { ...dataset.resolved, versionId: this.layers.get(dataset.resolved.versionId)!.chain[0]! } };
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
