// The engines behind one seam: the rest of the program names a database (a DuckDB file or a
// PostgreSQL URL) and gets a store provider, a writer, or the catalog's lists from here; nothing
// outside src/store knows which engine it talks to (eslint.config.mjs keeps it so).
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import type { EventKind } from '../domain/kinds.ts';
import { regionNameMatches } from '../domain/regions.ts';
import type { DatasetVersion } from '../query/datasets.ts';
import { DuckDbWriter } from './duckdb/writer.ts';
import { ReloadingStore } from './duckdb/reloading-store.ts';
import type { LayeredLimits } from './duckdb/layer.ts';
import { listLayeredVersions, listRegions as listDuckDbRegions, listVersions as listDuckDbVersions } from './duckdb/inspect.ts';
import type { ListedRegion } from './catalog.ts';
import type { ReloadLog } from './store.ts';
import { LoadLock, removeStaleWork, type LockHolder } from './duckdb/load-lock.ts';
import { PostgresStores } from './postgres/reloading-store.ts';
import { PostgresWriter, type CompactedLineage } from './postgres/writer.ts';
import { describeUrl } from './postgres/connection.ts';
import { holdsEvents, listRegions as listPostgresRegions, listVersions as listPostgresVersions } from './postgres/inspect.ts';
import { SCHEMA_VERSION as DUCKDB_LAYOUT } from './duckdb/schema.ts';
import { SCHEMA_VERSION as POSTGRES_LAYOUT } from './postgres/schema.ts';
import { layersFolder } from './duckdb/layers.ts';
import { pointFilesNamedAt, pointFolder, removeUnnamedPointFiles, type PointFileProgress } from './duckdb/point-file-catalog.ts';
import type { StoreProvider } from './store.ts';
import type { DatabaseWriter, EngineWriter, PublishedVersion, WriterOptions } from './writer.ts';


/** Where the data is: a DuckDB file (the default), or a PostgreSQL database. */
export type Database = { engine: 'duckdb'; path: string } | { engine: 'postgres'; url: string };

export type { LockHolder, ListedRegion, ReloadLog };
/** NDJSON rewritten as CSV or Parquet (`generate`): a job for the embedded engine, whatever serves. */
export { convertNdjson, type Conversion } from './duckdb/convert-files.ts';
/** A page of entries written as GeoParquet (`format=parquet`): also the embedded engine's job, whatever serves. */
export { exportParquet, type ParquetExport } from './duckdb/parquet-export.ts';

/** The database as messages name it (a PostgreSQL URL without its password). */
export function describeDatabase(db: Database): string {
  return db.engine === 'duckdb' ? db.path : describeUrl(db.url);
}

export interface ServingOptions {
  /** Connections in the pool. */
  connections?: number;
  /** 0 disables the limit. */
  queryTimeoutMs?: number;
  /** Queries that may wait for a connection; more are refused at once (503). */
  maxWaiting?: number;
  /** DuckDB's memory_limit (the DuckDB engine only: PostgreSQL's memory is its server's). */
  memoryLimit?: string;
  threads?: number;
  /** Lists of at most this many rows are sorted with their entries (the DuckDB engine only; sorted-page.ts). */
  sortedWithEntriesMax?: number;
  /** How pages over an update layer are found (the DuckDB engine only; layered-path.ts): tests force each way. */
  layered?: Partial<LayeredLimits>;
}

/** The stores a server reads, following loads as they land (`watch`). */
export function openStores(db: Database, options: ServingOptions = {}, log?: ReloadLog, watch = true): Promise<StoreProvider> {
  if (db.engine === 'duckdb') return ReloadingStore.open({ ...options, path: db.path }, log, watch);
  const { connections, queryTimeoutMs, maxWaiting } = options;
  return PostgresStores.open({ url: db.url, connections, queryTimeoutMs, maxWaiting }, log, watch);
}

function openWriter(db: Database, options: WriterOptions): Promise<EngineWriter> {
  return db.engine === 'duckdb' ? DuckDbWriter.open(db.path, options) : PostgresWriter.open(db.url, options);
}

/**
 * Applies one change (a load, reference data, a version drop) atomically, after any other change to
 * the same database has finished: everything `change` does becomes visible at once, or nothing.
 */
export async function editDatabase<T>(db: Database, change: (w: DatabaseWriter) => Promise<T>, options: WriterOptions = {}): Promise<T> {
  const writer = await openWriter(db, options);
  try {
    const result = await change(writer);
    await writer.commit();
    return result;
  } catch (e) {
    await writer.abandon();
    throw e;
  }
}

/**
 * Removes one loaded version; `latest` then falls back to the newest remaining one. A DuckDB
 * version that is an update layer is dropped beside the database file, which is then neither
 * copied nor written (a copy of 12 GB took 15 s a drop).
 */
export async function dropVersion(db: Database, datasetId: string, kind: EventKind, version: string, onWait?: WriterOptions['onWait']): Promise<number> {
  const layered = db.engine === 'duckdb' && (await listLayeredVersions(db.path)).some((v) => v.kind === kind && v.version === version);
  return editDatabase(db, (w) => w.dropVersion(datasetId, kind, version), { ...(onWait ? { onWait } : {}), ...(layered ? { layersOnly: true } : {}) });
}

/** Whether the database holds events already (a DuckDB file exists; PostgreSQL has a version). */
export async function databaseHoldsData(db: Database): Promise<boolean> {
  return db.engine === 'duckdb' ? existsSync(db.path) : holdsEvents(db.url);
}

export function listVersions(db: Database): Promise<DatasetVersion[]> {
  return db.engine === 'duckdb' ? listDuckDbVersions(db.path) : listPostgresVersions(db.url);
}

/** Regions of a dataset (or of all, ''), those whose name holds `name` (regionNameMatches) when it is given. */
export async function listRegions(db: Database, filter: { dataset: string; name: string }): Promise<ListedRegion[]> {
  const regions = await (db.engine === 'duckdb' ? listDuckDbRegions(db.path, filter) : listPostgresRegions(db.url, filter));
  return filter.name ? regions.filter((r) => r.name !== null && regionNameMatches(r.name, filter.name)) : regions;
}

/**
 * Rewrites a DuckDB database of an older storage layout in this version's, keeping everything it holds,
 * or gives one of this layout the point files and the spatial and region tables' rows it lacks (written before
 * they existed); the old file is replaced only once the new one is complete.
 */
export async function migrateDatabase(dbPath: string, onWait?: (holder: LockHolder) => void, onRows?: PointFileProgress): Promise<{ from: number; to: number; rows: number; pointFiles: number; spatialVersions: number; regionVersions: number; identityVersions: number; statsMonthVersions: number }> {
  const { writer, from, rows, pointFiles, spatialVersions, regionVersions, identityVersions, statsMonthVersions } = await DuckDbWriter.migrating(dbPath, onWait, onRows);
  try {
    await writer.commit();
  } catch (e) {
    await writer.abandon();
    throw e;
  }
  return { from, to: DUCKDB_LAYOUT, rows, pointFiles, spatialVersions, regionVersions, identityVersions, statsMonthVersions };
}

/** Moves a PostgreSQL database of layout 1 to this version's layout (postgres/migrate.ts), in one transaction. */
export async function migratePostgresDatabase(url: string, onWait?: (holder: LockHolder) => void): Promise<{ from: number; to: number; versions: number; rows: number; split: number; rollupVersions: number; regionVersions: number; spatialVersions: number; vesselVersions: number; regionMonthVersions: number }> {
  const { writer, from, versions, rows, split, rollupVersions, regionVersions, spatialVersions, vesselVersions, regionMonthVersions } = await PostgresWriter.migrating(url, onWait);
  try {
    await writer.commit();
  } catch (e) {
    await writer.abandon();
    throw e;
  }
  return { from, to: POSTGRES_LAYOUT, versions, rows, split, rollupVersions, regionVersions, spatialVersions, vesselVersions, regionMonthVersions };
}

/**
 * Writes the latest version of each dataset that is an update layer whole into the DuckDB database
 * file (src/store/duckdb/layers.ts), so every access path serves it; the database file is replaced
 * only once the new one is complete, then the layer files it holds are removed.
 */
export async function compactDatabase(dbPath: string, options: { onWait?: (holder: LockHolder) => void; onRows?: PointFileProgress; memoryLimit?: string; sortRangeRows?: number } = {}): Promise<PublishedVersion[]> {
  const { onRows: _, ...writerOptions } = options;
  const writer = await DuckDbWriter.open(dbPath, writerOptions);
  try {
    const compacted = await writer.compactLayers(options.onRows);
    await writer.commit();
    return compacted;
  } catch (e) {
    await writer.abandon();
    throw e;
  }
}

/**
 * Folds the rows by region, by place and by vessel that updates left beside those tables on
 * PostgreSQL into the tables (PostgresWriter.compactChanges), in one transaction.
 */
export async function compactPostgresDatabase(url: string, onWait?: (holder: LockHolder) => void): Promise<CompactedLineage[]> {
  const writer = await PostgresWriter.open(url, onWait ? { onWait } : {});
  try {
    const compacted = await writer.compactChanges();
    await writer.commit();
    return compacted;
  } catch (e) {
    await writer.abandon();
    throw e;
  }
}

/**
 * Removes what killed loads left beside the database (every load also does this first): working
 * copies and their scratch files, and point files the database does not name.
 */
export async function cleanStaleWork(dbPath: string, onWait?: (holder: LockHolder) => void): Promise<{ path: string; bytes: number }[]> {
  const lock = await LoadLock.acquire(dbPath, onWait);
  try {
    const removed = removeStaleWork(dbPath);
    if (existsSync(dbPath)) removed.push(...removeUnnamedPointFiles(dbPath, await pointFilesNamedAt(dbPath)));
    return removed;
  } finally {
    lock.release();
  }
}

/**
 * A DuckDB database is its file, the folder of point files beside it (`<file>.points`) and that of
 * update layers (`<file>.layers`): these copy, move and remove all three (a copy of the file alone
 * is served, but looks events up by id slowly, and without the updates not yet compacted).
 */
export function copyDuckDbFiles(from: string, to: string): void {
  cpSync(from, to);
  if (existsSync(pointFolder(from))) cpSync(pointFolder(from), pointFolder(to), { recursive: true });
  if (existsSync(layersFolder(from))) cpSync(layersFolder(from), layersFolder(to), { recursive: true });
}

/**
 * The point files first, so that whoever finds the file finds them too. Renaming a folder onto one
 * that holds files fails (ENOTEMPTY), before the file is moved: two moves to one place never leave
 * one's file beside the other's point files.
 */
export function moveDuckDbFiles(from: string, to: string): void {
  if (existsSync(pointFolder(from))) renameSync(pointFolder(from), pointFolder(to));
  if (existsSync(layersFolder(from))) renameSync(layersFolder(from), layersFolder(to));
  renameSync(from, to);
}

export function removeDuckDbFiles(path: string): void {
  rmSync(path, { force: true });
  rmSync(pointFolder(path), { force: true, recursive: true });
  rmSync(layersFolder(path), { force: true, recursive: true });
}
