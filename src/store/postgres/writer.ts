// The PostgreSQL writer. Everything one writer does runs in one transaction, so a load becomes
// visible on commit, all at once, or never (a failed or killed load is rolled back by the server).
// One writer at a time: it holds a session advisory lock, and a second one waits for it. Events
// are staged, validated and typed by the embedded engine's loader in a scratch file (staging.ts),
// then copied in (copy-events.ts); the reference data is written directly. A load's new partitions
// are written as bare tables on a second connection as well, which no reader sees until the
// transaction attaches them (bare-tables.ts).
import type { IuuListing, RegistryRecord } from '../../domain/vessel-identity.ts';
import { dropIdentityRows, insertIdentityRows, writeMissingIdentityRows } from './identity-table.ts';
import { dropStatsRollups } from './stats-rollups.ts';
import { dropRegionRows, regionPartition } from './region-table.ts';
import { dropRegionMonths, rewriteRegionMonths } from './region-months.ts';
import { CHANGE_TABLES, dropPartitions } from './change-tables.ts';
import { dropSpatialRows, spatialPartition } from './spatial-table.ts';
import { dropVesselRows, vesselPartition } from './vessel-table.ts';
import { indexTasks, writeMissingServingTables } from './serving-tables.ts';
import { dropLeftoverBareTables } from './bare-tables.ts';
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { DATASET_ID_BY_KIND, type EventKind } from '../../domain/kinds.ts';
import { Stage, type StagingWriter } from '../staging.ts';
import { LoadRefused, type LockHolder, type EngineWriter, type Port, type PublishOptions, type PublishResult, type RegionGeometry, type TableFileFormat, type UpdateRequest, type ValidatedRows, type WriterOptions, newVersionIds } from '../writer.ts';
import { StagedFile } from './copy-events.ts';
import { addUpdateRows, hideReplacedRows, type HiddenRows } from './update.ts';
import { CREATE_SCHEMA, EVENT_COLUMNS, eventPartition, SCHEMA_VERSION } from './schema.ts';
import { RECORD_JSON_COLUMNS } from './record-columns.ts';
import { attachPartition, changesPartitionOf, createPartition, dropPartition } from './partitions.ts';
import type { PoolTask } from './task-pool.ts';
import { readLayout, readPlacements, readVersions, schemaProblem, tableExists } from './versions.ts';
import { changesPartitionId, type VersionPlacement } from './lineage.ts';
import { migrateLayout1, migrateLayout2, migrateLayout3 } from './migrate.ts';
import { connectionConfig } from './connection.ts';

/** The advisory lock every writer of a database takes (any constant; this spells "vessel"). */
const WRITER_LOCK = 0x76657373656c;

/** A lineage whose updates' rows compactChanges folded: its dataset, its latest version, how many updates' rows, and how many rows were folded. */
export interface CompactedLineage {
  datasetId: string;
  version: string;
  updates: number;
  added: number;
  hidden: number;
}

export class PostgresWriter implements EngineWriter {
  private staging: Stage | undefined;
  /** The versions whose partitions this writer wrote, vacuumed once committed. */
  private readonly written: number[] = [];
  /** Whether this writer wrote statistics rollups, analyzed once committed. */
  private rollupsWritten = false;
  /** The versions whose region_events partitions this writer wrote, vacuumed once committed. */
  private readonly regionsWritten: number[] = [];
  /** The lineages whose rows by region, by place and by vessel an update added and hid (change-tables.ts), vacuumed once committed. */
  private readonly changesWritten: number[] = [];
  /** The events' partitions of changes an update wrote (lineage.ts), by name. */
  private readonly eventChangesWritten: string[] = [];
  /** The versions whose spatial_events partitions this writer wrote, vacuumed once committed. */
  private readonly placesWritten: number[] = [];
  /** The versions whose vessel_events partitions this writer wrote, vacuumed once committed. */
  private readonly vesselsWritten: number[] = [];
  private finished = false;
  /** The second connection a load writes its bare tables on (bare-tables.ts), opened when first needed. */
  private second: pg.Client | undefined;

  private constructor(
    private readonly client: pg.Client,
    private readonly options: WriterOptions,
    /** The database's URL, for the second connection. */
    private readonly url: string,
  ) {}

  static async open(url: string, options: WriterOptions = {}): Promise<PostgresWriter> {
    const client = new pg.Client(connectionConfig(url));
    await client.connect();
    try {
      await takeWriterLock(client, options.onWait);
      // Refused before any DDL: the schema's indexes would be built over another layout's tables.
      const problem = await schemaProblem(client);
      if (problem) throw new LoadRefused(problem);
      // Held by this writer alone, so creating the schema never races another writer.
      await createSchemaOnce(client);
      await client.query(`INSERT INTO meta VALUES ('schema_version', $1) ON CONFLICT DO NOTHING`, [String(SCHEMA_VERSION)]);
      await dropLeftoverBareTables(client);
      await client.query('BEGIN');
      return new PostgresWriter(client, options, url);
    } catch (e) {
      await client.end();
      throw e;
    }
  }

  /**
   * A writer that has moved a database of an earlier layout to this one (migrate.ts), or written what a
   * database of this layout lacks (the statistics rollups and rows by region, by place and by vessel
   * of versions written before them),
   * uncommitted; refused when there is nothing to do, or the database has another layout.
   */
  static async migrating(url: string, onWait?: (holder: LockHolder) => void): Promise<{ writer: PostgresWriter; from: number; versions: number; rows: number; split: number; rollupVersions: number; regionVersions: number; spatialVersions: number; vesselVersions: number; regionMonthVersions: number }> {
    const client = new pg.Client(connectionConfig(url));
    await client.connect();
    try {
      await takeWriterLock(client, onWait);
      const layout = await readLayout(client);
      if (layout === undefined || layout > SCHEMA_VERSION) throw new LoadRefused(layout === undefined ? 'the database holds no events to migrate; load it instead' : `the database has the PostgreSQL layout ${layout}, which this version cannot migrate`);
      await dropLeftoverBareTables(client);
      await client.query('BEGIN');
      const writer = new PostgresWriter(client, {}, url);
      const createSchema = () => runSchema(client);
      const moved = layout === 1 ? await migrateLayout1(client, createSchema)
        : layout === 2 ? await migrateLayout2(client, createSchema)
        : layout === 3 ? await migrateLayout3(client, createSchema)
        : (await createSchema(), { versions: 0, rows: 0, split: 0 });
      if (layout === 1) writer.written.push(...(await readVersions(client)).map((v) => v.versionId));
      const { rollups: rollupVersions, regions: regionVersions, places: spatialVersions, vessels: vesselVersions, regionMonths } = await writer.writeServingTables();
      if (layout === SCHEMA_VERSION && rollupVersions === 0 && regionVersions === 0 && spatialVersions === 0 && vesselVersions === 0 && regionMonths === 0) {
        throw new LoadRefused(`the database already has the PostgreSQL layout ${SCHEMA_VERSION}, and the statistics rollups and rows by region, by place and by vessel of every version; nothing to migrate`);
      }
      return { writer, from: layout, ...moved, rollupVersions, regionVersions, spatialVersions, vesselVersions, regionMonthVersions: regionMonths };
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
      throw e;
    }
  }

  /** The second connection (bare-tables.ts), opened at its first use. */
  private async secondConnection(): Promise<pg.Client> {
    if (!this.second) {
      const second = new pg.Client(connectionConfig(this.url));
      await second.connect();
      this.second = second;
    }
    return this.second;
  }

  private async stage(): Promise<StagingWriter> {
    this.staging ??= await Stage.open(this.options);
    return this.staging.writer;
  }

  async stageDocuments(fileNo: number, file: string, rows: AsyncIterable<{ line: number; doc: string }> | Iterable<{ line: number; doc: string }>, onRow?: (n: number) => void): Promise<number> {
    return (await this.stage()).stageDocuments(fileNo, file, rows, onRow);
  }

  async ingestFile(fileNo: number, file: string, format: TableFileFormat): Promise<number> {
    return (await this.stage()).ingestFile(fileNo, file, format);
  }

  async publish(options: PublishOptions): Promise<PublishResult> {
    const stage = await this.stage();
    // Validated and written in the staged file (which has no versions, so the names are checked
    // here); an update's rows are staged the same way, and may be none (removals alone).
    const { update, ...load } = options;
    // An update's rows replace or remove others by id: those are marked hidden in PostgreSQL while
    // the stage sorts and writes the rows, its ids known once they are validated.
    let hiding: Promise<HiddenRows> | undefined;
    const hideOnceValidated = (update: UpdateRequest) => (rows: ValidatedRows) => {
      hiding = (async () => {
        // The versions it applies to have all their tables, which the new ones are made from.
        await writeMissingIdentityRows(this.client);
        await this.writeServingTables();
        return hideReplacedRows(this.client, rows, update, options.version);
      })();
      // Awaited below; until then its refusal (an unknown removal) must not go unhandled.
      hiding.catch(() => undefined);
    };
    let result: PublishResult;
    try {
      result = await stage.publish(update ? { ...load, allowEmpty: true, onValidated: hideOnceValidated(update) } : load);
      await stage.commit();
    } catch (e) {
      // The transaction is rolled back by the caller once PostgreSQL has finished what it runs.
      await hiding?.catch(() => undefined);
      throw e;
    }
    const staged = await StagedFile.open(this.staging!);
    try {
      if (update) {
        if (!hiding) throw new Error('the update\'s rows were published without being validated');
        const hidden = await hiding;
        options.onPhase?.('copying');
        const { published, lineages } = await addUpdateRows(this.client, staged, hidden, options);
        this.changesWritten.push(...lineages);
        this.eventChangesWritten.push(...hidden.changesPartitions.values());
        this.rollupsWritten = true;
        await this.insertRegionIds(staged);
        return { ...result, published };
      }
      const stagedVersions = await staged.versions();
      const newIds = newVersionIds(await readVersions(this.client), stagedVersions.map((v) => v.kind as EventKind), options.version);
      const ids = new Map<number, number>();
      for (const v of stagedVersions) {
        const id = newIds.get(v.kind as EventKind)!;
        ids.set(v.versionId, id);
        await this.client.query(
          `INSERT INTO dataset_versions VALUES ($1, $2, $3, $4, now() AT TIME ZONE 'UTC', $5, $6, $7, $8, $9)`,
          [id, v.datasetId, v.kind, v.version, v.rowCount, v.lastUpdated, v.source, v.longestMs, v.earliestOpenStart],
        );
      }
      options.onPhase?.('copying');
      // The events go to bare tables on the second connection, committed there, so that both
      // connections can read them next; a load that fails from here drops them (abandon).
      const second = await this.secondConnection();
      await second.query('BEGIN');
      for (const id of ids.values()) await createPartition(second, id);
      await staged.copyEvents(second, ids);
      await second.query('COMMIT');
      await insertIdentityRows(this.client, (await staged.identities()).map((r) => [ids.get(r[0] as number), ...r.slice(1)]), [...ids.values()]);
      options.onPhase?.('indexing');
      const cells = await staged.cells();
      await this.client.query('INSERT INTO event_cells SELECT * FROM unnest($1::smallint[], $2::integer[]) ON CONFLICT DO NOTHING', [cells.map((r) => ids.get(r[0])), cells.map((r) => r[1])]);
      await this.client.query('INSERT INTO event_cell_versions SELECT unnest($1::smallint[]) ON CONFLICT DO NOTHING', [[...ids.values()]]);
      await this.insertRegionIds(staged);
      await writeMissingIdentityRows(this.client);
      const events = await indexTasks(this.client, 'events', stagedVersions.map((v) => ({ versionId: ids.get(v.versionId)!, rows: v.rowCount })));
      await this.writeServingTables([this.client, second], events);
      // Their indexes built above, each taken as the partition's own.
      for (const id of ids.values()) await attachPartition(this.client, id);
      this.written.push(...ids.values());
      return result;
    } finally {
      staged.close();
    }
  }

  /**
   * What serving reads beside the events, for the versions without (serving-tables.ts), with `extra`
   * tasks beside, on `connections` at once (the writer's own first); resolves to how many versions
   * of each.
   */
  private async writeServingTables(connections: readonly pg.ClientBase[] = [this.client], extra: readonly PoolTask[] = []): Promise<{ rollups: number; regions: number; places: number; vessels: number; regionMonths: number }> {
    const { rollups, regions, places, vessels, regionMonths } = await writeMissingServingTables(connections, extra);
    if (rollups > 0) this.rollupsWritten = true;
    this.regionsWritten.push(...regions);
    this.placesWritten.push(...places);
    this.vesselsWritten.push(...vessels);
    // A partition written from the events holds its lineage's updates' rows too, marked as there:
    // rows of those updates still beside the table would be counted twice.
    const written = { region_events: regions, spatial_events: places, vessel_events: vessels };
    for (const changes of CHANGE_TABLES) for (const partition of written[changes.table]) await changes.drop(this.client, partition);
    return { rollups, regions: regions.length, places: places.length, vessels: vessels.length, regionMonths: regionMonths.length };
  }

  /** Every region id the staged rows carry, for the catalog (an unknown region is a 404). */
  private async insertRegionIds(staged: StagedFile): Promise<void> {
    const regionIds = await staged.regionIds();
    await this.client.query(
      `INSERT INTO region_ids SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`,
      [regionIds.map((r) => r[0]), regionIds.map((r) => r[1])],
    );
  }

  async replaceGroups(members: { groupId: string; vesselId: string }[]): Promise<void> {
    const groups = [...new Set(members.map((m) => m.groupId))];
    await this.client.query('DELETE FROM vessel_groups WHERE group_id = ANY($1::text[])', [groups]);
    await this.client.query(
      'INSERT INTO vessel_groups SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING',
      [members.map((m) => m.groupId), members.map((m) => m.vesselId)],
    );
  }

  async replaceIuuList(listings: IuuListing[]): Promise<void> {
    await this.client.query('DELETE FROM iuu_listings');
    const column = (pick: (l: IuuListing) => string | null) => listings.map(pick);
    await this.client.query(
      'INSERT INTO iuu_listings SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])',
      [column((l) => l.vesselId), column((l) => l.ssvid), column((l) => l.shipname), column((l) => l.flag), column((l) => l.listedFrom), column((l) => l.listedTo), column((l) => l.source)],
    );
    await this.client.query(`INSERT INTO meta VALUES ('iuu_list', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [new Date().toISOString()]);
  }

  async replaceRegistry(records: RegistryRecord[]): Promise<void> {
    await this.client.query('DELETE FROM vessel_registry');
    await this.client.query('INSERT INTO vessel_registry SELECT * FROM unnest($1::text[], $2::text[])', [records.map((r) => r.vesselId), records.map((r) => JSON.stringify(r))]);
  }

  async upsertPorts(ports: Port[]): Promise<void> {
    // The last of several rows with one id wins, as it does in DuckDB.
    const last = [...new Map(ports.map((p) => [p.id, p])).values()];
    await this.client.query(
      `INSERT INTO ports SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[])
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, flag = excluded.flag, lat = excluded.lat, lon = excluded.lon`,
      [last.map((p) => p.id), last.map((p) => p.name), last.map((p) => p.flag), last.map((p) => p.lat), last.map((p) => p.lon)],
    );
  }

  async replaceRegions(dataset: string, regions: RegionGeometry[]): Promise<void> {
    await this.client.query('DELETE FROM region_geometries WHERE dataset = $1', [dataset]);
    await this.client.query(
      `INSERT INTO region_geometries (dataset, id, name, geometry, min_lon, min_lat, max_lon, max_lat, iso3)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::text[])`,
      [dataset, regions.map((r) => r.id), regions.map((r) => r.name), regions.map((r) => r.geometry), ...[0, 1, 2, 3].map((i) => regions.map((r) => r.bbox[i])), regions.map((r) => r.iso3 ?? null)],
    );
  }

  async dropVersion(datasetId: string, kind: EventKind, version: string): Promise<number> {
    const found = (await readVersions(this.client)).find((v) => v.kind === kind && v.version === version);
    if (!found) throw new LoadRefused(`${datasetId} has no version "${version}"`);
    const placements = await readPlacements(this.client);
    const partitionOf = (p: VersionPlacement) => p.lineageId ?? p.versionId;
    const partition = partitionOf(placements.find((p) => p.versionId === found.versionId)!);
    const sharing = placements.filter((p) => p.versionId !== found.versionId && partitionOf(p) === partition).map((p) => p.versionId);
    await this.client.query('DELETE FROM event_cells WHERE version_id = $1', [found.versionId]);
    await this.client.query('DELETE FROM event_cell_versions WHERE version_id = $1', [found.versionId]);
    await dropIdentityRows(this.client, found.versionId);
    await dropStatsRollups(this.client, found.versionId);
    if (sharing.length === 0) {
      await dropPartition(this.client, partition);
      await dropRegionRows(this.client, partition);
      await dropRegionMonths(this.client, partition);
      for (const changes of CHANGE_TABLES) await changes.drop(this.client, partition);
      await dropSpatialRows(this.client, partition);
      await dropVesselRows(this.client, partition);
    } else {
      // The partition stays for the versions sharing it (lineage.ts); the rows of versions past the
      // latest of them go, and those hidden from those versions on are anybody's again, so that a
      // next update, which may take the dropped version's id, starts from that latest version.
      const latest = Math.max(...sharing);
      if (found.versionId > latest) {
        // region_months' rows carry the marks of the rows they count (region-months.ts).
        for (const table of ['events', ...CHANGE_TABLES.map((changes) => changes.table), 'region_months']) {
          await this.client.query(`DELETE FROM ${table} WHERE version_id = $1 AND from_version > $2`, [partition, latest]);
          await this.client.query(`UPDATE ${table} SET to_version = NULL WHERE version_id = $1 AND to_version > $2`, [partition, latest]);
        }
        // The events those versions added leave the lineage's partition of changes, and those they
        // hid are seen again: the lineage's own rows back in its partition, an update's where they
        // are, which every version of an updated lineage reads (lineage.ts).
        const changes = changesPartitionId(partition);
        await this.client.query('DELETE FROM events WHERE version_id = $1 AND from_version > $2', [changes, latest]);
        await this.client.query('UPDATE events SET to_version = NULL WHERE version_id = $1 AND to_version > $2 AND from_version IS NOT NULL', [changes, latest]);
        await this.client.query('UPDATE events SET version_id = $1, to_version = NULL WHERE version_id = $2 AND to_version > $3', [partition, changes, latest]);
        for (const changes of CHANGE_TABLES) await changes.dropAfter(this.client, partition, latest);
        // Analyzed once committed, as an update leaves it: its shown rows are others now.
        const changesPartition = await changesPartitionOf(this.client, partition);
        if (changesPartition) this.eventChangesWritten.push(changesPartition);
      }
    }
    for (const changes of CHANGE_TABLES) await this.client.query(`DELETE FROM ${changes.versionList} WHERE version_id = $1`, [found.versionId]);
    await this.client.query('DELETE FROM region_month_versions WHERE version_id = $1', [found.versionId]);
    await this.client.query('DELETE FROM dataset_versions WHERE version_id = $1', [found.versionId]);
    return found.rowCount;
  }

  /**
   * Folds the rows by region, by place and by vessel that updates left beside those tables
   * (change-tables.ts) into the tables themselves, for every lineage that has them: each version
   * holds the same rows after as before, read from the tables alone, as a fresh load's are. Readers
   * see the tables before or after, both whole. Refused when no update left any.
   */
  async compactChanges(): Promise<CompactedLineage[]> {
    const lineages = new Set<number>();
    for (const changes of CHANGE_TABLES) for (const l of await changes.readUpdatedLineages(this.client)) lineages.add(l);
    if (lineages.size === 0) throw new LoadRefused('no update left rows by region, by place or by vessel beside those tables; nothing to compact');
    const versions = await readVersions(this.client);
    const compacted: CompactedLineage[] = [];
    const emptied: string[] = [];
    for (const lineage of [...lineages].sort((a, b) => a - b)) {
      let added = 0;
      let hidden = 0;
      const updates = new Set<number>();
      for (const changes of CHANGE_TABLES) {
        const folded = await changes.fold(this.client, lineage);
        if (!folded) continue;
        if (changes.table === 'region_events') await rewriteRegionMonths(this.client, lineage);
        emptied.push(...changes.partitions(lineage));
        if (folded.added + folded.hidden === 0) continue;
        added += folded.added;
        hidden += folded.hidden;
        for (const v of folded.versions) updates.add(v);
        (changes.table === 'region_events' ? this.regionsWritten : changes.table === 'spatial_events' ? this.placesWritten : this.vesselsWritten).push(lineage);
      }
      // A lineage whose updates were all dropped has its change partitions, empty: dropped, not told.
      if (updates.size === 0) continue;
      // The latest update folded is the lineage's latest version: every update writes here.
      const latest = versions.find((v) => v.versionId === Math.max(...updates))!;
      compacted.push({ datasetId: latest.datasetId, version: latest.version, updates: updates.size, added, hidden });
    }
    await dropPartitions(this.client, emptied);
    return compacted;
  }

  /** Stamps a new generation (running servers see it and read the catalog again) and commits. */
  async commit(): Promise<void> {
    await this.client.query(`INSERT INTO meta VALUES ('generation', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [randomUUID()]);
    // A load reported as landed is on disk, whatever the server's synchronous_commit: a crash just
    // after an asynchronous commit loses it. And until its commit record is flushed, the VACUUM below
    // cannot mark the new rows' pages visible to all (on a server with synchronous_commit=off, none
    // of the 571 pages of a 3,000-event load were).
    await this.client.query('SET LOCAL synchronous_commit = on');
    await this.client.query('COMMIT');
    // The visibility map, without which a count reads every row's heap page instead of the index
    // alone (an index-only scan), then the planner's statistics: of the new partitions only, the
    // others are as they were. Every VACUUM before any ANALYZE: an ANALYZE commits a transaction,
    // asynchronously on a server with synchronous_commit=off, and until that commit is flushed the
    // next VACUUM may not mark the load's rows committed, nor their pages visible (a partition
    // vacuumed after another's ANALYZE kept none of its 408 pages marked).
    const partitions = [...this.written.map(eventPartition), ...this.regionsWritten.map(regionPartition), ...this.changesWritten.flatMap((l) => CHANGE_TABLES.flatMap((t) => t.partitions(l))), ...this.placesWritten.map(spatialPartition), ...this.vesselsWritten.map(vesselPartition)];
    if (partitions.length > 0) {
      await this.client.query(`VACUUM ${[...partitions, ...this.eventChangesWritten].join(', ')}`);
      await this.client.query(`ANALYZE ${partitions.join(', ')}`);
    }
    // The events' partitions of changes, which every page of an updated lineage's latest version
    // reads, analyzed on a small sample (3,000 rows) and without the two texts: their rows are some
    // 2.4 KB each, and the default sample of 30,000 took 2.2-3.2 s of an update at 10M. Left to
    // autovacuum, the statistics said no row of the partition was shown (all were hidden before the
    // update added any), and the big page sorted the partition on disk: 1.5 s against 0.35
    // (docs/performance.md, "The PostgreSQL engine: updates").
    if (this.eventChangesWritten.length > 0) {
      await this.client.query(`SET default_statistics_target = ${CHANGES_STATISTICS_TARGET}`);
      for (const name of this.eventChangesWritten) await this.client.query(`ANALYZE ${name} (${CHANGES_ANALYZED_COLUMNS})`);
      await this.client.query('RESET default_statistics_target');
    }
    if (this.rollupsWritten) await this.client.query('ANALYZE stats_flag_months, stats_vessel_months');
    await this.finish();
  }

  async abandon(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => undefined);
    if (this.second) {
      await this.second.query('ROLLBACK').catch(() => undefined);
      // What the second connection committed, which the writer's lock still covers.
      await dropLeftoverBareTables(this.client).catch(() => undefined);
    }
    if (this.staging) await this.staging.writer.abandon().catch(() => undefined);
    await this.finish();
  }

  private async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.staging?.remove();
    await this.second?.end().catch(() => undefined);
    // Ending the session releases the advisory lock.
    await this.client.end();
  }
}

/** The statistics target the events' partitions of changes are analyzed with: a sample of 300 times it. */
const CHANGES_STATISTICS_TARGET = 10;
/** Their columns analyzed: every one but the entry and the record's JSON, the texts no query filters on. */
const CHANGES_ANALYZED_COLUMNS = [...EVENT_COLUMNS.map(([name]) => name).filter((name) => name !== 'entry' && !RECORD_JSON_COLUMNS.includes(name)), 'position', 'from_version', 'to_version'].join(', ');

/** What CREATE_SCHEMA states: kept in meta by the writer that ran it. */
const SCHEMA_DDL = createHash('sha256').update(CREATE_SCHEMA.join(';\n')).digest('hex');

/**
 * Runs CREATE_SCHEMA unless the database's meta says these very statements ran. Each is a no-op on a
 * database that has its objects, but some still lock every partition of their table (`CREATE INDEX
 * IF NOT EXISTS` on `events`), and waiting for the autovacuum of a partition cancels it after
 * `deadlock_timeout`: a second of each update at 10M, where autovacuum follows every update
 * (update.ts), and its work lost (docs/performance.md, "The PostgreSQL engine: updates").
 */
async function createSchemaOnce(client: pg.Client): Promise<void> {
  if (await tableExists(client, 'meta')) {
    const ran = (await client.query(`SELECT value FROM meta WHERE key = 'schema_ddl'`)).rows[0] as { value: string } | undefined;
    if (ran?.value === SCHEMA_DDL) return;
  }
  await runSchema(client);
}

/** Runs CREATE_SCHEMA and records in meta that these statements ran. */
async function runSchema(client: pg.Client): Promise<void> {
  for (const ddl of CREATE_SCHEMA) await client.query(ddl);
  await client.query(`INSERT INTO meta VALUES ('schema_ddl', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [SCHEMA_DDL]);
}

/** Takes the writer lock, telling `onWait` (once) who holds it when another writer does. */
async function takeWriterLock(client: pg.Client, onWait?: (holder: LockHolder) => void): Promise<void> {
  const tryLock = async () => (await client.query('SELECT pg_try_advisory_lock($1::bigint) AS taken', [WRITER_LOCK])).rows[0].taken as boolean;
  if (await tryLock()) return;
  const holder = (await client.query(
    `SELECT a.pid, to_char(a.backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS started
       FROM pg_locks l JOIN pg_stat_activity a USING (pid)
      WHERE l.locktype = 'advisory' AND l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = $1::bigint`,
    [WRITER_LOCK],
  )).rows[0] as { pid: number; started: string } | undefined;
  onWait?.({ pid: holder?.pid ?? 0, startedAt: holder?.started ?? 'unknown' });
  // Asked again and again rather than waited for in one statement: a statement waiting holds a
  // snapshot, and while it does, the other writer's VACUUM cannot mark the pages it just wrote as
  // visible to all, so counts and pages read the table where the index would do (the benchmark's 1M
  // demo had 123,412 of 190,139 pages marked; docs/performance.md, "The PostgreSQL engine:
  // pages").
  while (!(await tryLock())) {
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
}

/** How often a waiting writer asks for the lock again. */
const LOCK_RETRY_MS = 200;
