// The only writer of the database. A load works on a copy of the database file and renames it over
// the original only once everything is validated, inserted and checkpointed: a load that fails or
// is killed leaves the served file untouched, and a running server keeps reading its open file
// until it reloads (src/store/duckdb/reloading-store.ts).
//
// Rows are ingested in batches so memory stays bounded: JS stages a batch of documents into one
// of two in-memory tables while a second connection validates and types the previous batch into
// typed_rows, kept in a scratch database file beside the working copy (a dropped table would
// leave its blocks in the published file). Publishing inserts the valid rows sorted for the zone maps.
import { DuckDBDataChunk, DuckDBInstance, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DATASET_ID_BY_KIND, type EventKind } from '../../domain/kinds.ts';
import { OFFLINE_SETTINGS } from './offline.ts';
import { rangeConditions, SORT_RANGE_ROWS, sortRanges } from './sort-ranges.ts';
import { compileIngest, RAW_COLUMNS, tableSourceSql } from './ingest.ts';
import { CREATE_SCHEMA, createEventsTable, ENTRY_COMPRESSION_KEY, EVENT_COLUMNS, SCHEMA_VERSION, STORAGE_VERSION } from './schema.ts';
import { VESSEL_KEY_SQL } from './vessel-table.ts';
import { dropSpatialRows, writeMissingSpatialRows } from './spatial-table.ts';
import { dropRegionRows, writeMissingRegionRows } from './region-table.ts';
import { dropStatsMonthRows, writeMissingStatsMonthRows } from './stats-months.ts';
import { dropMonthSummaryRows, writeMissingMonthSummaries } from './month-summaries.ts';
import { dropIdentityRows, writeMissingIdentityRows } from './identity-table.ts';
import { entryJsonSql, jsEscapes } from './entry-sql.ts';
import { olderLayoutProblem, readEntryCompression, readSchemaVersion, readVersions } from './versions.ts';
import { describeUpdate, givenRowsSql, hiddenRowsSql, planUpdate, stageRemovals, type RowsOf } from './update.ts';
import { attachedTables, attachLayers, chainRowsSql, CREATE_LAYER_TABLES, layerAlias, layeredRowsSql, layersRowsSql, storedHiddenSql, layerFile, layerFiles, layersFolder, type ChainTables, type Layer } from './layers.ts';
import { latestVersionOf } from '../../query/datasets.ts';
import { LoadLock, removeStaleWork, type LockHolder } from './load-lock.ts';
import { readOnly } from './inspect.ts';
import { tableExists } from './tables.ts';
import { dropIdIndex, forgetPointFile, namedPointFiles, removeUnnamedPointFiles, writeMissingPointFiles, type PointFileProgress } from './point-file-catalog.ts';
import { REGION_MEMBERS } from '../../domain/regions.ts';
import type { IuuListing, RegistryRecord } from '../../domain/vessel-identity.ts';
import type { DatasetVersion } from '../../query/datasets.ts';
import { DEFAULT_ENTRY_COMPRESSION, DEFAULT_LOAD_MEMORY_LIMIT, InvalidRows, loadEngineMemoryLimit, LoadRefused, newVersionIds, type EngineWriter, type WriterOptions, type Port, type PublishedVersion, type PublishOptions, type PublishResult, type RegionGeometry, type TableFileFormat, type UpdateRequest, type EntryCompression } from '../writer.ts';
import { sqlText } from '../sql.ts';

const CHUNK_ROWS = 2048;
const BATCH_ROWS = 100_000;

export class DuckDbWriter implements EngineWriter {
  private pendingIngest: Promise<unknown> = Promise.resolve();
  private stagingTable = 0;
  /** 'open' once the staging tables exist; 'removed' once publish has read them for the last time. */
  private staging: 'none' | 'open' | 'removed' = 'none';
  private rawTypes: DuckDBType[] = [];
  private closed = false;
  /** Point files this load wrote: removed if it is abandoned. */
  private readonly pointFilesWritten: string[] = [];
  /** The layered versions beside the database (layers.ts), attached read-only. */
  private layers = new Map<number, Layer>();
  /** An update's layer: the versions it publishes, once published. */
  private layerVersionIds: number[] = [];
  /** A version of the database file dropped: commit writes the file afresh (writtenAfresh). */
  private droppedStored = false;
  /** A layered version dropped: commit removes its file. */
  private droppedLayer: Layer | undefined;
  /** A layer file written again without a dropped version: commit puts it in place of the file. */
  private rewrittenLayer: { from: string; to: string } | undefined;
  /** Rows a sort takes at most (sort-ranges.ts). */
  private sortRangeRows = SORT_RANGE_ROWS;

  private constructor(
    private readonly target: string,
    private readonly workPath: string,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    private readonly ingestConnection: DuckDBConnection,
    private readonly kind: EventKind | undefined,
    private readonly lock: LoadLock,
    private readonly servingTables: boolean,
    /**
     * An update written as a layer (layers.ts): the working file is the new layer, and the database
     * file, attached read-only as `served`, is neither copied nor written.
     */
    private readonly layerMode: boolean,
  ) {}

  /**
   * `servingTables: false` writes the events alone, without what only serving reads (vessel_events,
   * the id index): for a file that is only a stage on the way to another engine
   * (src/store/postgres/writer.ts).
   */
  static async open(target: string, options: WriterOptions = {}, servingTables = true): Promise<DuckDbWriter> {
    mkdirSync(dirname(target), { recursive: true });
    const lock = await LoadLock.acquire(target, options.onWait);
    try {
      // Holding the lock, any working copy beside the database is a killed load's.
      removeStaleWork(target);
      if ((options.update || options.layersOnly) && servingTables && existsSync(target)) {
        mkdirSync(layersFolder(target), { recursive: true });
        return await DuckDbWriter.start(target, join(layersFolder(target), `loading-${process.pid}.duckdb`), lock, options, servingTables, true);
      }
      const workPath = `${target}.loading-${process.pid}`;
      if (existsSync(target)) copyFileSync(target, workPath);
      return await DuckDbWriter.start(target, workPath, lock, options, servingTables);
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  private static async start(target: string, workPath: string, lock: LoadLock, options: WriterOptions, servingTables = true, layerMode = false): Promise<DuckDbWriter> {
    // A bounded share of the machine, not DuckDB's default 80 %: a load runs beside the server it
    // feeds. Past the limit DuckDB spills its sorts to <working copy>.tmp (docs/performance.md,
    // "How the loader stays within memory").
    const instance = await DuckDBInstance.create(workPath, {
      ...OFFLINE_SETTINGS,
      storage_compatibility_version: STORAGE_VERSION,
      memory_limit: loadEngineMemoryLimit(options.memoryLimit ?? DEFAULT_LOAD_MEMORY_LIMIT),
    });
    const connection = await instance.connect();
    let entryCompression: EntryCompression;
    try {
      if (layerMode) await connection.run(`ATTACH ${sqlText(target)} AS served (READ_ONLY)`);
      await refuseOlderLayout(connection, target, layerMode ? 'served' : undefined);
      entryCompression = await chooseEntryCompression(connection, target, options.entryCompression, layerMode ? 'served' : undefined);
    } catch (e) {
      connection.closeSync();
      instance.closeSync();
      for (const suffix of ['', '.wal']) rmSync(`${workPath}${suffix}`, { force: true });
      throw e;
    }
    const ingestConnection = await instance.connect();
    // Timestamps without a zone are UTC whatever the machine's zone is.
    for (const c of [connection, ingestConnection]) await c.run(`SET TimeZone = 'UTC'`);
    for (const ddl of CREATE_SCHEMA) await connection.run(ddl);
    if (!(await tableExists(connection, 'events'))) {
      await connection.run(createEventsTable(entryCompression));
      await connection.run(`INSERT OR REPLACE INTO meta VALUES ('${ENTRY_COMPRESSION_KEY}', ?)`, [entryCompression]);
    }
    if (layerMode) for (const ddl of CREATE_LAYER_TABLES) await connection.run(ddl);
    await connection.run(`INSERT INTO meta VALUES ('schema_version', ?) ON CONFLICT DO NOTHING`, [String(SCHEMA_VERSION)]);
    const writer = new DuckDbWriter(target, workPath, instance, connection, ingestConnection, options.kind, lock, servingTables, layerMode);
    if (options.sortRangeRows) writer.sortRangeRows = options.sortRangeRows;
    if (servingTables) {
      const stored = new Set((await readVersions(connection, layerMode ? 'served' : undefined)).map((v) => v.versionId));
      writer.layers = await attachLayers(connection, target, stored);
    }
    return writer;
  }

  /** Every version: the database file's and the layered ones (new ids come after all of them). */
  private async allVersions(): Promise<DatasetVersion[]> {
    const stored = await readVersions(this.connection, this.layerMode ? 'served' : undefined);
    return [...stored, ...[...this.layers.values()].map((l) => l.version)].sort((a, b) => a.versionId - b.versionId);
  }

  /** Where each version of a chain keeps its rows, from this writer's connection. */
  private chainTables(own: ChainTables['layer'] = () => ({ events: 'events', hidden: 'hidden' })): ChainTables {
    const attached = attachedTables(this.layers, this.layerMode ? 'served.events' : 'events');
    return { stored: attached.stored, layer: (v) => (this.layers.has(v) ? attached.layer(v) : own(v)) };
  }

  /** The rows a version holds, stored or layered, as this writer reads them. */
  private rowsOf(extra: Map<number, number[]> = new Map()): RowsOf {
    const tables = this.chainTables();
    return (versionId) => chainRowsSql(extra.get(versionId) ?? this.layers.get(versionId)?.chain ?? [versionId], tables);
  }

  /** Creates the staging tables on first use (loads of reference data need none). */
  private async prepareStaging(): Promise<void> {
    if (this.staging === 'removed') throw new Error('this load has published its rows already');
    if (this.staging === 'open') return;
    this.staging = 'open';
    const c = this.connection;
    await c.run(`ATTACH ':memory:' AS stage`);
    rmSync(`${this.workPath}.scratch`, { force: true });
    await c.run(`ATTACH ${sqlText(`${this.workPath}.scratch`)} AS scratch`);
    for (const t of [0, 1]) await c.run(`CREATE TABLE stage.raw_${t} (${RAW_COLUMNS})`);
    // The scratch rows are compressed as any table's: uncompressed they took 816 bytes a row
    // against 125, 7.5 GiB of disk at 10M, for 3 % of a 1M load's time (docs/performance.md, "How
    // the loader stays within disk").
    await c.run(`CREATE TABLE scratch.typed_rows AS ${compileIngest(this.kind, 'stage.raw_0')} LIMIT 0`);
    const probe = await c.createAppender('raw_0', 'main', 'stage');
    this.rawTypes = [0, 1, 2, 3].map((i) => probe.columnType(i));
    probe.closeSync();
  }

  /** Stages documents (one JSON text per row), ingesting every full batch while the next one fills. */
  async stageDocuments(fileNo: number, file: string, rows: AsyncIterable<{ line: number; doc: string }> | Iterable<{ line: number; doc: string }>, onRow?: (n: number) => void): Promise<number> {
    await this.prepareStaging();
    let table = this.stagingTable;
    let appender = await this.connection.createAppender(`raw_${table}`, 'main', 'stage');
    let chunk: { line: number; doc: string }[] = [];
    let inBatch = 0;
    let count = 0;
    const flushChunk = () => {
      if (chunk.length === 0) return;
      const data = DuckDBDataChunk.create(this.rawTypes, chunk.length);
      data.setColumns([chunk.map(() => fileNo), chunk.map(() => file), chunk.map((r) => BigInt(r.line)), chunk.map((r) => r.doc)]);
      appender.appendDataChunk(data);
      count += chunk.length;
      inBatch += chunk.length;
      chunk = [];
      onRow?.(count);
    };
    const handOver = async () => {
      appender.closeSync();
      await this.ingestStaged(table);
      table = 1 - table;
      appender = await this.connection.createAppender(`raw_${table}`, 'main', 'stage');
      inBatch = 0;
    };
    for await (const row of rows) {
      chunk.push(row);
      if (chunk.length === CHUNK_ROWS) flushChunk();
      if (inBatch >= BATCH_ROWS) await handOver();
    }
    flushChunk();
    appender.closeSync();
    if (inBatch > 0) await this.ingestStaged(table);
    this.stagingTable = 1 - table;
    return count;
  }

  /** Starts ingesting a filled staging table on the second connection; waits for the previous one first. */
  private async ingestStaged(table: number): Promise<void> {
    await this.pendingIngest;
    const c = this.ingestConnection;
    this.pendingIngest = c
      .run(`INSERT INTO scratch.typed_rows ${compileIngest(this.kind, `stage.raw_${table}`)}`)
      .then(() => c.run(`DELETE FROM stage.raw_${table}`));
    // Keep the promise observed so a failure surfaces when it is awaited, not as an unhandled rejection.
    this.pendingIngest.catch(() => undefined);
  }

  /** Ingests a CSV or Parquet file, which DuckDB reads itself. */
  ingestFile(fileNo: number, file: string, format: TableFileFormat): Promise<number> {
    // CSV line numbers count the header line; a value with an embedded newline shifts later ones.
    if (format === 'csv') return this.ingestTable(fileNo, file, `read_csv(${sqlText(file)}, header = true, all_varchar = true)`, 'row_number() OVER () + 1');
    return this.ingestTable(fileNo, file, `read_parquet(${sqlText(file)}, file_row_number = true)`, 'file_row_number + 1');
  }

  /** Ingests rows of a table function, read from its columns; `lineOf` gives each row's line. */
  private async ingestTable(fileNo: number, file: string, tableFunction: string, lineOf: string): Promise<number> {
    await this.prepareStaging();
    await this.pendingIngest;
    const described = (await this.connection.runAndReadAll(`DESCRIBE SELECT * FROM ${tableFunction}`)).getRowObjectsJS();
    const columns = described.map((c) => ({ name: String(c['column_name']), type: String(c['column_type']) }));
    const source = tableSourceSql({ fileNo, file, tableFunction, lineOf, columns });
    const result = await this.connection.run(`INSERT INTO scratch.typed_rows ${compileIngest(this.kind, { table: source })}`);
    return result.rowsChanged;
  }

  /** Validates what is staged and publishes it as a new version of each kind, in one transaction. */
  async publish(options: PublishOptions): Promise<PublishResult> {
    await this.prepareStaging();
    await this.pendingIngest;
    options.onPhase?.('validating');
    const c = this.connection;
    const problems = (await c.runAndReadAll(
      `SELECT file, line::DOUBLE, problem, count(*) OVER ()::DOUBLE FROM scratch.typed_rows WHERE problem IS NOT NULL ORDER BY file_no, line LIMIT 20`,
    )).getRowsJS();
    const skipped = problems.map((r) => ({ file: r[0] as string, line: r[1] as number, problem: r[2] as string }));
    const skippedCount = problems.length ? (problems[0]![3] as number) : 0;
    if (skippedCount > 0 && !options.skipInvalid) throw new InvalidRows(skipped[0]!, skippedCount);

    const duplicate = (await c.runAndReadAll(
      `SELECT id, min(file), min(line)::DOUBLE FROM scratch.typed_rows WHERE problem IS NULL GROUP BY kind, id HAVING count(*) > 1 ORDER BY 3 LIMIT 1`,
    )).getRowsJS()[0];
    if (duplicate) throw new LoadRefused(`event id "${duplicate[0]}" appears more than once in this load (first at ${duplicate[1]}:${duplicate[2]})`);

    // Per kind: rows, when the data was last updated, and how far before a time window an event
    // reaching into it can start (dataset_versions.longest_ms, earliest_open_start).
    const kinds = (await c.runAndReadAll(
      `SELECT kind, count(*)::DOUBLE, strftime(max(coalesce(end_ts, start_ts)), '%Y-%m-%d %H:%M:%S.%g'),
              max(date_diff('millisecond', start_ts, end_ts))::DOUBLE, strftime(min(start_ts) FILTER (WHERE end_ts IS NULL), '%Y-%m-%d %H:%M:%S.%g')
         FROM scratch.typed_rows WHERE problem IS NULL GROUP BY kind ORDER BY kind`,
    )).getRowsJS() as [EventKind, number, string, number | null, string | null][];
    const rowKinds = kinds.map(([kind]) => kind);
    if (options.onValidated) {
      const ids = (await c.runAndReadAll('SELECT kind, id FROM scratch.typed_rows WHERE problem IS NULL')).getRowsJS() as [string, string][];
      options.onValidated({ kinds: rowKinds, ids });
    }
    const published = options.update ? await this.publishUpdate(options, options.update, rowKinds) : await this.publishVersions(options, kinds);
    await this.removeStaging();
    if (this.servingTables && !this.layerMode) {
      options.onPhase?.('indexing');
      await this.writeMissingServingData();
    }
    return { published, skipped, skippedCount };
  }

  /**
   * Detaches the staging tables and removes the scratch file once the rows are published: at 10M
   * events it held 7.5 GiB, which the point files' and serving tables' sorts would otherwise spill
   * beside (docs/performance.md, "How the loader stays within disk").
   */
  private async removeStaging(): Promise<void> {
    if (this.staging !== 'open') return;
    this.staging = 'removed';
    await this.connection.run('DETACH stage');
    // Dropped first, so that DETACH has nothing to checkpoint: its checkpoint wrote the rows out
    // to a file removed the next moment (2.8 s of a 1M load; docs/performance.md, "Loading").
    await this.connection.run('DROP TABLE scratch.typed_rows');
    await this.connection.run('DETACH scratch');
    for (const suffix of ['.scratch', '.scratch.wal']) rmSync(`${this.workPath}${suffix}`, { force: true });
  }

  /** Publishes the staged rows as a new version of each kind they hold. */
  private async publishVersions(options: PublishOptions, kinds: [EventKind, number, string, number | null, string | null][]): Promise<PublishedVersion[]> {
    const c = this.connection;
    if (kinds.length === 0) {
      if (options.allowEmpty) return [];
      throw new LoadRefused('no valid rows to load');
    }
    const versionIds = newVersionIds(await this.allVersions(), kinds.map(([kind]) => kind), options.version);

    const published: PublishedVersion[] = [];
    options.onPhase?.('sorting');
    await this.inTransaction(async () => {
      for (const [kind, rows, lastUpdated, longestMs, earliestOpenStart] of kinds) {
        await this.insertVersion(versionIds.get(kind)!, kind, options, { rows, lastUpdated, longestMs, earliestOpenStart });
        published.push({ kind, datasetId: DATASET_ID_BY_KIND[kind], version: options.version, rows });
      }
      // A version at a time, in the order of their ids (the stored order's first key): each sort
      // spills one version's rows, not all of them. A file per kind, as published, stages each
      // kind's rows together, so the zone maps on kind skip the others' row groups.
      for (const [kind, id] of [...versionIds].sort((a, b) => a[1] - b[1])) {
        const rows = kinds.find(([k]) => k === kind)![1];
        await insertVersionInRanges(c, `SELECT ${id} AS version_id, ${EVENT_COLUMNS.map(([n]) => `"${n}"`).join(', ')} FROM scratch.typed_rows WHERE problem IS NULL AND kind = '${kind}'`, rows, id, this.servingTables, this.sortRangeRows);
      }
      await this.insertRegionIds();
    });
    return published;
  }

  /**
   * Publishes a new version of each dataset the update touches, as a layer over its latest version
   * (layers.ts): the update's rows, and the ids of the latest version's rows it replaces or removes.
   */
  private async publishUpdate(options: PublishOptions, update: UpdateRequest, rowKinds: EventKind[]): Promise<PublishedVersion[]> {
    if (!this.layerMode) throw new LoadRefused('there is no database to update; load it first without --update');
    const c = this.connection;
    await stageRemovals(c, update);
    const baseRows = this.rowsOf();
    const targets = await planUpdate(c, await this.allVersions(), rowKinds, update, options.version, baseRows);
    // The new versions' chains: each base's, then the new layer, whose tables are this file's own.
    const chains = new Map(targets.map((t) => [t.versionId, [...(this.layers.get(t.base.versionId)?.chain ?? [t.base.versionId]), t.versionId]]));
    options.onPhase?.('sorting');
    const published: PublishedVersion[] = [];
    await this.inTransaction(async () => {
      await insertTypedEvents(c, givenRowsSql(targets), targets.map((t) => t.versionId), false);
      for (const t of targets) {
        await c.run(`INSERT INTO layer VALUES (${t.versionId}, ${t.base.versionId})`);
        // Sorted as events are, so that a time window's zone maps skip the rest of them too.
        await c.run(`INSERT INTO hidden SELECT * FROM (${hiddenRowsSql(t, baseRows)}) ORDER BY version_id, start_ts, id`);
      }
      for (const d of await describeUpdate(c, targets, this.rowsOf(chains))) {
        const { kind, versionId } = d.target;
        await this.insertVersion(versionId, kind, options, d);
        published.push({ kind, datasetId: DATASET_ID_BY_KIND[kind], version: options.version, rows: d.rows, change: { from: d.target.base.version, replaced: d.replaced, added: d.added, removed: d.removed, layers: chains.get(versionId)!.length - 1 } });
      }
      await this.insertRegionIds();
    });
    this.layerVersionIds = targets.map((t) => t.versionId);
    return published;
  }

  /** A new version's catalog row: what it holds, and how far before a window its events can start. */
  private async insertVersion(versionId: number, kind: EventKind, options: PublishOptions, held: { rows: number; lastUpdated: string | null; longestMs: number | null; earliestOpenStart: string | null }): Promise<void> {
    await this.connection.run(`INSERT INTO dataset_versions VALUES (?, ?, ?, ?, now()::TIMESTAMP, ?, ?::TIMESTAMP, ?, ?, ?::TIMESTAMP)`, [
      versionId, DATASET_ID_BY_KIND[kind], kind, options.version, held.rows, held.lastUpdated, options.source, held.longestMs, held.earliestOpenStart,
    ]);
  }

  /** Every region id the staged rows carry, for the catalog (an unknown region is a 404). */
  private async insertRegionIds(): Promise<void> {
    await this.connection.run(
      `INSERT OR IGNORE INTO region_ids ${REGION_MEMBERS.map((m) => `SELECT DISTINCT '${m.member}', unnest(${m.column}) FROM scratch.typed_rows WHERE problem IS NULL`).join(' UNION ')}`,
    );
  }

  /**
   * Opens a writer on a new file that takes everything a database of an older layout holds (events,
   * versions, groups, ports, regions): `vessel-events migrate`. The old file is read, never
   * changed; commit() puts the new one in its place.
   */
  static async migrating(target: string, onWait?: (holder: LockHolder) => void, onRows?: PointFileProgress): Promise<{ writer: DuckDbWriter; from: number; rows: number; pointFiles: number; spatialVersions: number; regionVersions: number; identityVersions: number; statsMonthVersions: number }> {
    if (!existsSync(target)) throw new LoadRefused(`no database at ${target}`);
    const lock = await LoadLock.acquire(target, onWait);
    let writer: DuckDbWriter | undefined;
    try {
      removeStaleWork(target);
      const workPath = `${target}.loading-${process.pid}`;
      const layout = await readOnly(target, (c) => readSchemaVersion(c));
      if (layout !== undefined && layout >= SCHEMA_VERSION) {
        // This layout already: what a file from before point files lacks is its point files.
        copyFileSync(target, workPath);
        writer = await DuckDbWriter.start(target, workPath, lock, {});
        // What a file from before point files, the spatial table or the region table lacks is those.
        const { spatialVersions, regionVersions, identityVersions, statsMonthVersions, pointFiles: written } = await writer.writeMissingServingData(onRows);
        if (written.length === 0 && spatialVersions === 0 && regionVersions === 0 && identityVersions === 0 && statsMonthVersions === 0) {
          throw new LoadRefused(`${target} already has this version's storage layout (${layout}), its point files, its spatial, region, vessel identity and monthly statistics tables; nothing to migrate`);
        }
        const rows = Number((await writer.connection.runAndReadAll(`SELECT count(*) FROM events`)).getRowsJS()[0]![0]);
        return { writer, from: layout, rows, pointFiles: written.length, spatialVersions, regionVersions, identityVersions, statsMonthVersions };
      }
      writer = await DuckDbWriter.start(target, workPath, lock, {});
      const copied = await writer.copyOlderLayout(target, onRows);
      return { writer, ...copied, pointFiles: writer.pointFilesWritten.length, spatialVersions: copied.versions, regionVersions: copied.versions, identityVersions: copied.versions, statsMonthVersions: copied.versions };
    } catch (e) {
      if (writer) await writer.abandon();
      else lock.release();
      throw e;
    }
  }

  private async copyOlderLayout(target: string, onRows?: PointFileProgress): Promise<{ from: number; rows: number; versions: number }> {
    const c = this.connection;
    await c.run(`ATTACH ${sqlText(target)} AS old (READ_ONLY)`);
    const tables = new Set((await c.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE database_name = 'old'`)).getRowsJS().map((r) => r[0] as string));
    const layout = (await readSchemaVersion(c, 'old')) ?? 1;
    if (layout >= SCHEMA_VERSION) throw new LoadRefused(`${target} already has this version's storage layout (${layout}); nothing to migrate`);
    if (!tables.has('events') || !tables.has('dataset_versions')) throw new LoadRefused(`${target} holds no events to migrate`);
    // The columns every older layout shares with this one (layout 2 lacks only the entry and what was added with it).
    await c.run(`INSERT INTO dataset_versions (version_id, dataset_id, kind, version, loaded_at, row_count, last_updated, source, longest_ms, earliest_open_start)
      SELECT v.version_id, v.dataset_id, v.kind, v.version, v.loaded_at, v.row_count, v.last_updated, v.source, r.longest_ms, r.earliest_open_start
        FROM old.dataset_versions v LEFT JOIN (
          SELECT version_id, max(date_diff('millisecond', start_ts, end_ts)) AS longest_ms, min(start_ts) FILTER (WHERE end_ts IS NULL) AS earliest_open_start
            FROM old.events GROUP BY version_id) r USING (version_id)`);
    for (const table of ['vessel_groups', 'ports', 'region_ids', 'region_geometries']) {
      if (tables.has(table)) await c.run(`INSERT INTO ${table} SELECT * FROM old.${table}`);
    }
    const versionIds = (await c.runAndReadAll(`SELECT version_id::INTEGER FROM dataset_versions`)).getRowsJS().map((r) => r[0] as number);
    await insertTypedEvents(c, `SELECT version_id, ${EVENT_COLUMNS.map(([n]) => `"${n}"`).join(', ')} FROM old.events`, versionIds);
    const rows = Number((await c.runAndReadAll(`SELECT count(*) FROM events`)).getRowsJS()[0]![0]);
    await c.run('DETACH old');
    await this.writeMissingServingData(onRows);
    return { from: layout, rows, versions: versionIds.length };
  }

  /**
   * Writes what only serving reads, for every version that lacks it: the tables sorted by place and
   * by region on the second connection while the point files are written on the first. The point
   * files keep the main thread and compression busy, the sorted inserts DuckDB's threads, so
   * together they take less than one after the other (docs/performance.md). The working copy is
   * published whole or not at all, so these writes need not share the events' transaction.
   */
  private async writeMissingServingData(onRows?: PointFileProgress): Promise<{ spatialVersions: number; regionVersions: number; identityVersions: number; statsMonthVersions: number; pointFiles: string[] }> {
    const tables = async () => ({
      spatial: await writeMissingSpatialRows(this.ingestConnection),
      region: await writeMissingRegionRows(this.ingestConnection),
      identity: await writeMissingIdentityRows(this.ingestConnection),
      // The summaries are written from stats_months, after it.
      statsMonths: Math.max(await writeMissingStatsMonthRows(this.ingestConnection), await writeMissingMonthSummaries(this.ingestConnection)),
    });
    const [written, counts] = await Promise.allSettled([writeMissingPointFiles(this.connection, this.target, onRows, this.sortRangeRows), tables()]);
    if (written.status === 'fulfilled') this.pointFilesWritten.push(...written.value);
    if (written.status === 'rejected') throw written.reason;
    if (counts.status === 'rejected') throw counts.reason;
    await dropIdIndex(this.connection);
    return { spatialVersions: counts.value.spatial, regionVersions: counts.value.region, identityVersions: counts.value.identity, statsMonthVersions: counts.value.statsMonths, pointFiles: written.value };
  }

  /** Replaces the listed groups' members (groups not in the load are kept). */
  async replaceGroups(members: { groupId: string; vesselId: string }[]): Promise<void> {
    const groups = [...new Set(members.map((m) => m.groupId))];
    await this.inTransaction(async (c) => {
      for (const g of groups) await c.run(`DELETE FROM vessel_groups WHERE group_id = ?`, [g]);
      await this.insertRows('vessel_groups', members.map((m) => [m.groupId, m.vesselId]));
    });
  }

  async upsertPorts(ports: Port[]): Promise<void> {
    await this.inTransaction(async (c) => {
      // A few hundred ids per statement: a statement per port took 4.5 s for the demo's ports.
      for (let i = 0; i < ports.length; i += 500) {
        const ids = ports.slice(i, i + 500).map((p) => p.id);
        await c.run(`DELETE FROM ports WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
      }
      await this.insertRows('ports', ports.map((p) => [p.id, p.name, p.flag, p.lat, p.lon]));
    });
  }

  /** Replaces every geometry of one region dataset. */
  async replaceRegions(dataset: string, regions: RegionGeometry[]): Promise<void> {
    await this.inTransaction(async (c) => {
      await c.run(`DELETE FROM region_geometries WHERE dataset = ?`, [dataset]);
      await this.insertRows('region_geometries', regions.map((r) => [dataset, r.id, r.name, r.geometry, ...r.bbox, r.iso3 ?? null]));
    });
  }

  /** Replaces the IUU vessel list, and says in meta that one is loaded. */
  async replaceIuuList(listings: IuuListing[]): Promise<void> {
    await this.inTransaction(async (c) => {
      await c.run(`DELETE FROM iuu_listings`);
      await this.insertRows('iuu_listings', listings.map((l) => [l.vesselId, l.ssvid, l.shipname, l.flag, l.listedFrom, l.listedTo, l.source]));
      await c.run(`INSERT OR REPLACE INTO meta VALUES ('iuu_list', ?)`, [new Date().toISOString()]);
    });
  }

  async replaceRegistry(records: RegistryRecord[]): Promise<void> {
    await this.inTransaction(async (c) => {
      await c.run(`DELETE FROM vessel_registry`);
      await this.insertRows('vessel_registry', records.map((r) => [r.vesselId, JSON.stringify(r)]));
    });
  }

  /**
   * Writes the latest version of each dataset that is layered (layers.ts) whole into the database
   * file, with everything serving reads for it; commit() then removes the layer files that hold
   * nothing the database file does not. Older layered versions stay layers, served by their tags.
   */
  async compactLayers(onRows?: PointFileProgress): Promise<PublishedVersion[]> {
    const c = this.connection;
    const all = await this.allVersions();
    const latest = [...new Set(all.map((v) => v.kind))].map((kind) => latestVersionOf(all, kind)!).filter((v) => this.layers.has(v.versionId));
    if (latest.length === 0) throw new LoadRefused('no dataset\'s latest version is an update layer; nothing to compact');
    const tables = this.chainTables();
    await this.inTransaction(async () => {
      for (const v of latest) {
        const layer = this.layers.get(v.versionId)!;
        // Sorted typed, the entries rendered after, as a load's; the layers' rows (without their
        // entries) and the stored ids they hide merged into tables first. On 10M events, sorting
        // the stored entries with the rows, and one sort over the stored rows and 30 layers', ran
        // out of the default 2GB (docs/performance.md, "Updates").
        await c.run(`CREATE OR REPLACE TEMP TABLE compacted_layers AS SELECT * REPLACE (NULL::VARCHAR AS entry) FROM (${layersRowsSql(layer.chain, tables)})`);
        await c.run(`CREATE OR REPLACE TEMP TABLE compacted_hidden AS ${storedHiddenSql(layer.chain, tables)}`);
        const merged = { ...tables, merged: { layers: 'temp.compacted_layers', storedHidden: 'temp.compacted_hidden' } };
        await insertVersionInRanges(c, `SELECT version_id, ${EVENT_COLUMNS.map(([n]) => `"${n}"`).join(', ')} FROM (${layeredRowsSql(v.versionId, layer.chain, merged)})`, v.rowCount, v.versionId, this.servingTables, this.sortRangeRows);
        await c.run(`DROP TABLE temp.compacted_layers; DROP TABLE temp.compacted_hidden`);
        await c.run(`INSERT INTO dataset_versions SELECT * FROM ${layer.alias}.dataset_versions WHERE version_id = ${v.versionId}`);
        await c.run(`INSERT OR IGNORE INTO region_ids SELECT * FROM ${layer.alias}.region_ids`);
      }
    });
    await this.writeMissingServingData(onRows);
    return latest.map((v) => ({ kind: v.kind, datasetId: v.datasetId, version: v.version, rows: v.rowCount }));
  }

  /** Removes one loaded version; `latest` then falls back to the newest remaining one. */
  async dropVersion(datasetId: string, kind: EventKind, version: string): Promise<number> {
    const found = (await this.allVersions()).find((v) => v.kind === kind && v.version === version);
    if (!found) throw new LoadRefused(`${datasetId} has no version "${version}"`);
    const dependent = [...this.layers.values()].find((l) => l.baseVersionId === found.versionId);
    if (dependent) throw new LoadRefused(`${datasetId}:${dependent.version.version} is an update of ${datasetId}:${version}; drop it first, or write it whole with "vessel-events compact"`);
    const layer = this.layers.get(found.versionId);
    if (!layer && this.layerMode) throw new LoadRefused(`${datasetId}:${version} was written whole into the database file while this drop waited; drop it again`);
    if (layer) {
      const others = [...this.layers.values()].some((l) => l.alias === layer.alias && l !== layer);
      // A layer file that holds other versions too (one update of several datasets) is written again without this one.
      if (others) this.rewrittenLayer = await withoutVersion(this.target, layer);
      else this.droppedLayer = layer;
      return found.rowCount;
    }
    await this.inTransaction(async (c) => {
      await c.run(`DELETE FROM events WHERE version_id = ?`, [found.versionId]);
      await c.run(`DELETE FROM vessel_events WHERE version_id = ?`, [found.versionId]);
      await dropSpatialRows(c, found.versionId);
      await dropRegionRows(c, found.versionId);
      await dropIdentityRows(c, found.versionId);
      await dropStatsMonthRows(c, found.versionId);
      await dropMonthSummaryRows(c, found.versionId);
      await c.run(`DELETE FROM dataset_versions WHERE version_id = ?`, [found.versionId]);
      await forgetPointFile(c, found.versionId);
    });
    this.droppedStored = true;
    return found.rowCount;
  }

  private async insertRows(table: string, rows: (string | number | null)[][]): Promise<void> {
    if (rows.length === 0) return;
    const width = rows[0]!.length;
    // Bound parameters, a few hundred rows per statement.
    for (let i = 0; i < rows.length; i += 500) {
      const batch = rows.slice(i, i + 500);
      const placeholders = batch.map(() => `(${Array.from({ length: width }, () => '?').join(', ')})`).join(', ');
      await this.connection.run(`INSERT INTO ${table} VALUES ${placeholders}`, batch.flat());
    }
  }

  private async inTransaction(work: (c: DuckDBConnection) => Promise<void>): Promise<void> {
    await this.connection.run('BEGIN TRANSACTION');
    try {
      await work(this.connection);
      await this.connection.run('COMMIT');
    } catch (e) {
      await this.connection.run('ROLLBACK');
      throw e;
    }
  }

  /**
   * Checkpoints and renames the working copy over the target: the load becomes visible at once.
   * Every commit stamps a new generation, whatever it changed (events, groups, ports, regions, a
   * dropped version), so the answers' ETags change with any load.
   */
  async commit(): Promise<void> {
    await this.connection.run(`INSERT OR REPLACE INTO meta VALUES ('generation', ?)`, [randomUUID()]);
    await this.removeStaging();
    if (this.layerMode) {
      await this.commitLayer();
      return;
    }
    const layerFilesToRemove = this.servingTables ? await this.layerFilesToRemove() : [];
    await this.connection.run('CHECKPOINT');
    const pointFiles = [...(await namedPointFiles(this.connection)).values()];
    const written = this.droppedStored ? await this.writtenAfresh() : this.workPath;
    this.close();
    rmSync(`${this.workPath}.scratch`, { force: true });
    rmSync(`${this.workPath}.tmp`, { force: true, recursive: true });
    renameSync(written, this.target);
    if (written !== this.workPath) rmSync(this.workPath, { force: true });
    if (this.servingTables) removeUnnamedPointFiles(this.target, pointFiles);
    for (const path of layerFilesToRemove) rmSync(path, { force: true });
    if (this.rewrittenLayer) renameSync(this.rewrittenLayer.from, this.rewrittenLayer.to);
    this.lock.release();
  }

  /**
   * The layer files to remove once the database file is in place: those whose every version it
   * holds whole (compacted), and a dropped layer's. Readers leave out a layer the database file
   * holds (layers.ts), so a kill before they are removed changes nothing served; the next writer of
   * the database file removes what is left.
   */
  private async layerFilesToRemove(): Promise<string[]> {
    const stored = new Set((await readVersions(this.connection)).map((v) => v.versionId));
    const removable: string[] = [];
    for (const [fileId, path] of layerFiles(this.target)) {
      const alias = layerAlias(fileId);
      const attached = (await this.connection.runAndReadAll(`SELECT count(*)::INTEGER FROM duckdb_databases() WHERE database_name = ?`, [alias])).getRowsJS()[0]![0] === 1;
      if (!attached) continue;
      const held = (await readVersions(this.connection, alias)).map((v) => v.versionId);
      if (this.droppedLayer?.alias === alias || (held.length > 0 && held.every((v) => stored.has(v)))) removable.push(path);
    }
    return removable;
  }

  /**
   * The working copy written again into a fresh file: a dropped version's rows leave their blocks
   * in the file, which DuckDB reuses but never gives back (a 10M catalogue kept 12.54 GB where the
   * same rows written afresh take 7.58; docs/performance.md, "Updates").
   */
  private async writtenAfresh(): Promise<string> {
    const fresh = `${this.workPath}-fresh`;
    const name = (await this.connection.runAndReadAll('SELECT current_database()')).getRowsJS()[0]![0] as string;
    try {
      await this.connection.run(`ATTACH ${sqlText(fresh)} AS fresh`);
      await this.connection.run(`COPY FROM DATABASE "${name.replace(/"/g, '""')}" TO fresh`);
      await this.connection.run('DETACH fresh');
    } catch (e) {
      for (const suffix of ['', '.wal']) rmSync(`${fresh}${suffix}`, { force: true });
      throw e;
    }
    return fresh;
  }

  /**
   * Publishes an update's layer: its file, complete, takes its name, which readers look for. A
   * layered version dropped: its file goes, or the file rewritten without it takes its place.
   */
  private async commitLayer(): Promise<void> {
    if (this.droppedLayer || this.rewrittenLayer) {
      await this.abandonWork();
      if (this.droppedLayer) rmSync(layerFiles(this.target).get(Number(this.droppedLayer.alias.slice('layer_'.length)))!, { force: true });
      if (this.rewrittenLayer) renameSync(this.rewrittenLayer.from, this.rewrittenLayer.to);
      this.lock.release();
      return;
    }
    if (this.layerVersionIds.length === 0) throw new LoadRefused('an update writes nothing but a new version');
    await this.connection.run('CHECKPOINT');
    this.close();
    rmSync(`${this.workPath}.scratch`, { force: true });
    rmSync(`${this.workPath}.tmp`, { force: true, recursive: true });
    renameSync(this.workPath, layerFile(this.target, Math.min(...this.layerVersionIds)));
    this.lock.release();
  }

  /** Drops the working copy; the target was never touched. */
  async abandon(): Promise<void> {
    await this.abandonWork();
    if (this.rewrittenLayer) rmSync(this.rewrittenLayer.from, { force: true });
    this.lock.release();
  }

  /** Closes the writer and removes its working copy and the point files it wrote. */
  private async abandonWork(): Promise<void> {
    await this.pendingIngest.catch(() => undefined);
    this.close();
    for (const suffix of ['', '.wal', '.scratch', '.scratch.wal', '.tmp']) rmSync(`${this.workPath}${suffix}`, { force: true, recursive: true });
    for (const path of this.pointFilesWritten) rmSync(path, { force: true });
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connection.closeSync();
    this.ingestConnection.closeSync();
    this.instance.closeSync();
  }
}

/**
 * The order rows are stored in: by time within each version, so a time window's zone maps skip the
 * rest, then by id so the stored order is the order of `sort=+start` (src/store/duckdb/stored-order.ts).
 */
const STORED_ORDER = 'version_id, start_ts, id';

/**
 * Writes typed rows (version_id and EVENT_COLUMNS) of the given versions: sorted, then their entries
 * rendered, so the sort carries no entry text (a load, a migration, a compaction, an update's layer).
 */
function insertTypedEvents(c: DuckDBConnection, typedRows: string, versionIds: number[], servingTables = true): Promise<void> {
  return writeEvents(c, [renderEntries(`SELECT * FROM (${typedRows}) ORDER BY ${STORED_ORDER}`)], versionIds, servingTables);
}

/**
 * Writes one version's typed rows as insertTypedEvents does, sorted in ranges of start of about
 * SORT_RANGE_ROWS rows (sort-ranges.ts), each range a scan of `typedRows`; the ranges' bounds are
 * approximate quantiles of the starts.
 */
async function insertVersionInRanges(c: DuckDBConnection, typedRows: string, rowCount: number, versionId: number, servingTables: boolean, rangeRows: number): Promise<void> {
  const ranges = sortRanges(rowCount, rangeRows);
  if (ranges <= 1) return insertTypedEvents(c, typedRows, [versionId], servingTables);
  const fractions = Array.from({ length: ranges - 1 }, (_, i) => (i + 1) / ranges);
  const bounds = [...new Set((await c.runAndReadAll(
    `SELECT strftime(unnest(approx_quantile(start_ts, [${fractions.join(', ')}])), '%Y-%m-%d %H:%M:%S.%f') FROM (${typedRows})`,
  )).getRowsJS().map((r) => r[0] as string | null).filter((b): b is string => b !== null))].sort();
  const where = rangeConditions('start_ts', bounds.map((b) => `TIMESTAMP '${b}'`));
  await writeEvents(c, where.map((w) => renderEntries(`SELECT * FROM (${typedRows}) WHERE ${w} ORDER BY ${STORED_ORDER}`)), [versionId], servingTables);
}

/**
 * Inserts rows in STORED_ORDER (one query's, or ranges' one after another) into events, then
 * vessel_events, which takes the columns of a history, sorted by version and vessel (vessel-table.ts says why version first). The rest of what
 * serving reads comes after, from events (writeMissingServingData): the entries sorted by vessel in
 * the point files (point-file-catalog.ts), the positions sorted by place in spatial_events
 * (spatial-table.ts) and the regions in region_events (region-table.ts).
 */
async function writeEvents(c: DuckDBConnection, orderedRows: string[], versionIds: number[], servingTables: boolean): Promise<void> {
  for (const rows of orderedRows) await c.run(`INSERT INTO events ${rows}`);
  if (!servingTables) return;
  await c.run(
    `INSERT INTO vessel_events SELECT ${VESSEL_KEY_SQL('vessel_id')} AS vessel_key, version_id, vessel_id, id, kind, start_ts, end_ts
       FROM events WHERE version_id IN (${versionIds.map(Number).join(', ')}) ORDER BY version_id, vessel_key, start_ts`,
  );
}

/** Typed rows (version_id and EVENT_COLUMNS) with their stored entries, written from the typed columns. */
function renderEntries(typedRows: string): string {
  return `SELECT * EXCLUDE (entry_text), ${jsEscapes('entry_text')} AS entry FROM (SELECT *, ${entryJsonSql()} AS entry_text FROM (${typedRows}))`;
}

/**
 * The entry compression of the file a writer opens: the one its events table was created with, or,
 * for a new file, the one asked for. In layer mode the layer takes the served file's. A compression
 * asked for that is not the file's own is refused: a file keeps the one it was created with.
 */
async function chooseEntryCompression(c: DuckDBConnection, target: string, asked: EntryCompression | undefined, servedAs?: string): Promise<EntryCompression> {
  const own = (await tableExists(c, 'events', servedAs)) ? await readEntryCompression(c, servedAs) : undefined;
  if (own && asked && asked !== own) {
    throw new LoadRefused(`--entry-compression ${asked}: ${target} stores its entries in ${own}, chosen when it was created, and keeps it; load into a new database (another --db) for ${asked}`);
  }
  return own ?? asked ?? DEFAULT_ENTRY_COMPRESSION;
}

/** A database of an older layout is never written to: its rows lack what this code reads. */
async function refuseOlderLayout(c: DuckDBConnection, target: string, database?: string): Promise<void> {
  const problem = await olderLayoutProblem(c, target, database);
  if (problem) throw new LoadRefused(problem);
}

/**
 * A copy of a layer's file without one of its versions (its rows, the rows it hides, its catalog
 * row), written beside it under a working name: the caller renames it over the file.
 */
async function withoutVersion(target: string, layer: Layer): Promise<{ from: string; to: string }> {
  const to = layerFiles(target).get(Number(layer.alias.slice('layer_'.length)))!;
  const from = join(layersFolder(target), `loading-${process.pid}-rewritten.duckdb`);
  copyFileSync(to, from);
  const instance = await DuckDBInstance.create(from, { ...OFFLINE_SETTINGS });
  const c = await instance.connect();
  try {
    // The rows it hides belong to its own chain's versions, which no other version of the file shares.
    const chainBelow = layer.chain.slice(0, -1).join(', ');
    for (const table of ['events', 'layer', 'dataset_versions']) await c.run(`DELETE FROM ${table} WHERE version_id = ${layer.versionId}`);
    await c.run(`DELETE FROM hidden WHERE version_id IN (${chainBelow})`);
    await c.run('CHECKPOINT');
  } finally {
    c.closeSync();
    instance.closeSync();
  }
  return { from, to };
}
