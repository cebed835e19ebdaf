// An update on PostgreSQL (`load --update --engine postgres`), in the writer's open transaction:
// each touched dataset gets a new version that shares its latest version's lineage (lineage.ts).
// The update's rows are copied into the lineage's partition of changes marked as the new version's,
// and the rows they replace, or the update removes, are marked as hidden from it on and moved there
// from the lineage's partition. Its rows by region, by place and
// by vessel, added and hidden, are written beside region_events, spatial_events and vessel_events
// (change-tables.ts). The new
// version's rollups and vessel identities are its base's with the change applied
// (layered-summaries.ts). What is written is what changed: the 10M catalogue's fishing version
// (7.2M rows, 30 GB with its tables) is neither copied nor indexed again.
import type pg from 'pg';
import { DATASET_ID_BY_KIND, type EventKind } from '../../domain/kinds.ts';
import { leftEmpty, removedAndGiven, unknownRemoval, updateTargets, type UpdateTarget } from '../update.ts';
import type { PublishedVersion, UpdateRequest, ValidatedRows } from '../writer.ts';
import type { StagedFile } from './copy-events.ts';
import { readPlacements, readVersions } from './versions.ts';
import { changesPartitionId, VersionScope } from './lineage.ts';
import { ensureChangesPartition } from './partitions.ts';
import { OTHER_COLUMNS } from './shared-versions.ts';
import { SqlBuilder } from '../sql.ts';
import { addedRows, hiddenRows, writeLayeredIdentities, writeLayeredRollups, type IdentityGroup, type LayeredVersion } from './layered-summaries.ts';
import { CHANGE_TABLES, SPATIAL_CHANGES } from './change-tables.ts';
import { listUpdateRegionMonths } from './region-months.ts';
import { EVENT_COLUMNS, eventPartition } from './schema.ts';

/**
 * The working tables' columns the statements after them select and group on: the planner's row
 * counts come with any. Their record and entry, some 1.1 KB each, cost most of a whole ANALYZE
 * (0.6-0.7 s each of the two tables of a 50,000-row update).
 */
const ANALYZED_COLUMNS = '(kind, id, vessel_id, vessel_flag, start_ts)';

/** The autovacuum settings of a partition that updates write (as pg_class.reloptions lists them). */
const PARTITION_AUTOVACUUM = ['autovacuum_vacuum_scale_factor=0.01', 'autovacuum_vacuum_insert_scale_factor=0.01', 'autovacuum_analyze_scale_factor=0.05'];

/** What an update's first part (hideReplacedRows) leaves to its second (addUpdateRows). */
export interface HiddenRows {
  targets: UpdateTarget[];
  layered: LayeredVersion[];
  /** Where each version's rows are once the new versions are placed. */
  after: VersionScope;
  /** The partition of changes of each lineage updated (lineage.ts), by the lineage's id. */
  changesPartitions: Map<number, string>;
}

/**
 * The first part of an update: places its new versions and marks the rows they hide, those of the
 * ids it gives (`rows`, as validated) or removes, refusing a removal of an unknown id. It needs the
 * ids alone, not the rows staged, so the writer runs it while its stage sorts and writes the rows
 * (postgres/writer.ts): some 3 s of each update (docs/performance.md, "The PostgreSQL engine:
 * updates").
 */
export async function hideReplacedRows(client: pg.ClientBase, rows: ValidatedRows, update: UpdateRequest, version: string): Promise<HiddenRows> {
  const placements = await readPlacements(client);
  const before = new VersionScope(placements);
  const targets = updateTargets(await readVersions(client), rows.kinds, update, version);
  const layered: LayeredVersion[] = targets.map((t) => ({ versionId: t.versionId, baseId: t.base.versionId, partition: before.partitionOf(t.base.versionId), kind: t.kind }));
  const after = new VersionScope([...placements, ...layered.map((v) => ({ versionId: v.versionId, lineageId: v.partition }))]);

  // Every statement below reads a few rows of a partition by key (an id, a region's or a cell's
  // rows): never a scan of the partition, which the planner may otherwise weigh as cheaper for tens
  // of thousands of ids (the 10M catalogue's fishing partition is 10 GB).
  await client.query('SET LOCAL enable_seqscan = off');
  await client.query(`CREATE TEMP TABLE update_given (kind text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL) ON COMMIT DROP`);
  await client.query(`CREATE TEMP TABLE update_removed (kind text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL, line integer NOT NULL) ON COMMIT DROP`);
  for (let i = 0; i < rows.ids.length; i += 50_000) {
    const ids = rows.ids.slice(i, i + 50_000);
    await client.query('INSERT INTO update_given SELECT * FROM unnest($1::text[], $2::text[])', [ids.map((r) => r[0]), ids.map((r) => r[1])]);
  }
  for (const r of update.removals) {
    await client.query('INSERT INTO update_removed SELECT $1, id, line FROM unnest($2::text[], $3::integer[]) AS r(id, line)', [r.kind, r.ids.map((x) => x.id), r.ids.map((x) => x.line)]);
    const base = targets.find((t) => t.kind === r.kind)!.base;
    const b = new SqlBuilder();
    const kind = b.param(r.kind);
    const unknown = (await client.query(
      `SELECT r.line, r.id FROM update_removed r WHERE r.kind = ${kind} AND NOT EXISTS (SELECT 1 FROM events e WHERE e.id = r.id AND ${before.rowsOf(b, base.versionId, 'e.')}) ORDER BY r.line LIMIT 1`,
      b.params,
    )).rows[0] as { line: number; id: string } | undefined;
    if (unknown) throw unknownRemoval(r.file, unknown.line, unknown.id, base);
    const both = (await client.query(
      `SELECT r.line, r.id FROM update_removed r JOIN update_given g USING (kind, id) WHERE r.kind = $1 ORDER BY r.line LIMIT 1`,
      [r.kind],
    )).rows[0] as { line: number; id: string } | undefined;
    if (both) throw removedAndGiven(r.file, both.line, both.id);
  }
  await client.query('ANALYZE update_given');
  await client.query('ANALYZE update_removed');

  // The rows each new version hides, its base's rows of the ids it gives or removes, marked hidden
  // from it on and kept whole for the rollups and identities to take off: one pass over their heap
  // pages, which the mark has to write anyway. The base is its partition's latest version, so its
  // rows are those not yet hidden. Read as a bitmap of the ids' index entries, then each heap page
  // once in the partition's order, rather than a lookup per id: 50,000 ids of the 10M catalogue's
  // fishing partition (11 GB), not cached, in 13.5-14.2 s against 23.9-27.2 (docs/performance.md,
  // "The PostgreSQL engine: updates").
  // They move to their lineage's partition of changes (lineage.ts changesPartitionId): a move
  // is a delete here and an insert into that small partition, not a new entry in each of this
  // partition's indexes; a row an earlier update added is marked there. The working table has them
  // under their lineage's id, as they were.
  await client.query('CREATE TEMP TABLE update_hidden ON COMMIT DROP AS SELECT * FROM events WHERE FALSE');
  const changesPartitions = new Map<number, string>();
  for (const partition of new Set(layered.map((v) => v.partition))) changesPartitions.set(partition, await ensureChangesPartition(client, partition));
  await client.query('SET LOCAL enable_indexscan = off');
  for (const v of layered) {
    const b = new SqlBuilder();
    const hiding = b.param(v.versionId);
    const kind = b.param(v.kind);
    await client.query(
      `WITH hidden AS (UPDATE events e SET to_version = ${hiding}::smallint, version_id = ${b.param(changesPartitionId(v.partition))}::smallint
        WHERE ${before.rowsOf(b, v.baseId, 'e.')} AND e.id = ANY(ARRAY(SELECT id FROM update_given WHERE kind = ${kind} UNION ALL SELECT id FROM update_removed WHERE kind = ${kind}))
        RETURNING e.*)
       INSERT INTO update_hidden (version_id, ${OTHER_COLUMNS}) SELECT ${b.param(v.partition)}::smallint, ${OTHER_COLUMNS} FROM hidden`,
      b.params,
    );
  }
  await client.query('SET LOCAL enable_indexscan = on');
  await client.query(`ANALYZE update_hidden ${ANALYZED_COLUMNS}`);
  for (const v of layered) {
    for (const changes of CHANGE_TABLES) await changes.hide(client, v.partition, v.versionId, 'update_hidden', 'kind = $1', [v.kind]);
  }
  // The pages an update touched are no longer all visible, so index-only scans read their rows
  // until a VACUUM marks them again; PostgreSQL's own vacuums a table past 20 % of its rows changed,
  // some thirty updates of a day at 10M. A partition that updates write is vacuumed past 1 %, set
  // by its first update only: the ALTER waits for an autovacuum of the partition, which follows
  // most updates at 10M, and cancels it after `deadlock_timeout`, a second of every update.
  for (const partition of new Set(layered.map((v) => v.partition))) {
    const set = (await client.query(`SELECT coalesce(reloptions, '{}') @> $1::text[] AS set FROM pg_class WHERE oid = $2::regclass`, [PARTITION_AUTOVACUUM, eventPartition(partition)])).rows[0] as { set: boolean };
    if (!set.set) await client.query(`ALTER TABLE ${eventPartition(partition)} SET (${PARTITION_AUTOVACUUM.join(', ')})`);
  }
  return { targets, layered, after, changesPartitions };
}

/**
 * The second part of an update: writes the rows it adds, staged in `staged` (each kind a version of
 * the staged file), into the partitions of changes of the versions `hidden` placed, and returns them as
 * published, with what each changed. Every version it applies to has its rollups, identities and
 * rows by region, by place and by vessel written (writer.ts).
 */
export async function addUpdateRows(client: pg.ClientBase, staged: StagedFile, hidden: HiddenRows, options: { version: string; source: string }): Promise<{ published: PublishedVersion[]; versionIds: number[]; lineages: number[] }> {
  const { targets, layered, after, changesPartitions } = hidden;
  const stagedVersions = await staged.versions();
  const stagedIds = new Map(stagedVersions.map((v) => [v.versionId, targets.find((t) => t.kind === v.kind)!.versionId]));
  // The rows added, copied to the update's working table under their lineage's id, then from there
  // to its partition of changes: everything made from them reads them there, where reading them
  // back by their ids took 1.4 s of a 50,000-row update at 1M (docs/performance.md, "The
  // PostgreSQL engine: updates"). Their texts compressed as the partition's are, so they move as they are.
  await client.query('CREATE TEMP TABLE update_added (LIKE events INCLUDING GENERATED INCLUDING COMPRESSION) ON COMMIT DROP');
  await staged.copyEvents(client, stagedIds, { shared: new Map(layered.map((v) => [v.versionId, v.partition])), into: 'update_added' });
  const others = [...EVENT_COLUMNS.map(([name]) => name).filter((name) => name !== 'version_id'), 'from_version'].join(', ');
  for (const [partition, changes] of changesPartitions) {
    await client.query(`INSERT INTO ${changes} (version_id, ${others}) SELECT $2::smallint, ${others} FROM update_added WHERE version_id = $1`, [partition, changesPartitionId(partition)]);
  }
  await client.query(`ANALYZE update_added ${ANALYZED_COLUMNS}`);

  const stagedGroups = await staged.identities();
  const published: PublishedVersion[] = [];
  for (const [i, v] of layered.entries()) {
    const b = new SqlBuilder();
    const added = addedRows(b, v);
    for (const changes of CHANGE_TABLES) await changes.add(client, v.partition, 'update_added e', added, b.params);
    for (const changes of CHANGE_TABLES) await client.query(`INSERT INTO ${changes.versionList} VALUES ($1)`, [v.versionId]);
    await listUpdateRegionMonths(client, v.versionId, v.partition);
    published.push(await recordVersion(client, targets[i]!, v, after, options));
    await writeLayeredRollups(client, v, after);
    const stagedId = stagedVersions.find((s) => s.kind === v.kind)?.versionId;
    await writeLayeredIdentities(client, v, after, stagedGroups.filter((g) => g[0] === stagedId).map((g) => g.slice(1) as IdentityGroup));
  }
  // A new version's grid cells: its base's and the update's. Cells only ever let a query skip
  // (src/store/event-cells.ts), so one a removal emptied costs a look, never an answer.
  await client.query('INSERT INTO event_cells SELECT n.id, c.cell_key FROM event_cells c JOIN unnest($1::smallint[], $2::smallint[]) AS n(base, id) ON c.version_id = n.base ON CONFLICT DO NOTHING', [
    targets.map((t) => t.base.versionId), targets.map((t) => t.versionId),
  ]);
  const cells = await staged.cells();
  await client.query('INSERT INTO event_cells SELECT * FROM unnest($1::smallint[], $2::integer[]) ON CONFLICT DO NOTHING', [cells.map((r) => stagedIds.get(r[0])), cells.map((r) => r[1])]);
  // Listed only where the base's cells are: a base loaded before cells were written has none, and
  // its new version is then never said to hold no event anywhere either.
  await client.query('INSERT INTO event_cell_versions SELECT n.id FROM event_cell_versions v JOIN unnest($1::smallint[], $2::smallint[]) AS n(base, id) ON v.version_id = n.base ON CONFLICT DO NOTHING', [
    targets.map((t) => t.base.versionId), targets.map((t) => t.versionId),
  ]);
  await client.query('SET LOCAL enable_seqscan = on');
  return { published, versionIds: targets.map((t) => t.versionId), lineages: [...new Set(layered.map((v) => v.partition))] };
}

/**
 * Writes a new version's catalog row and returns what it changed from its base. Its rows are its
 * base's less those hidden, plus those added; it was last updated at its base's time or its added
 * rows', unless a hidden row held the base's, when the version's latest rows are read for it. Its
 * longest event and earliest open one bound where queries look for events (src/query/plan.ts), so
 * the base's may stand for a hidden row's.
 */
async function recordVersion(client: pg.ClientBase, t: UpdateTarget, v: LayeredVersion, scope: VersionScope, options: { version: string; source: string }): Promise<PublishedVersion> {
  const b = new SqlBuilder();
  const row = (await client.query({
    text: `WITH base AS (SELECT row_count, last_updated, longest_ms, earliest_open_start FROM dataset_versions WHERE version_id = ${b.param(v.baseId)}::smallint),
                added AS (SELECT count(*) AS n, max(coalesce(e.end_ts, e.start_ts)) AS last, ceil(max(extract(epoch FROM e.end_ts - e.start_ts) * 1000))::bigint AS longest,
                                 min(e.start_ts) FILTER (WHERE e.end_ts IS NULL) AS open FROM update_added e WHERE ${addedRows(b, v)}),
                hidden AS (SELECT count(*) AS n, count(*) FILTER (WHERE e.id IN (SELECT id FROM update_given WHERE kind = ${b.param(v.kind)})) AS replaced,
                                  max(coalesce(e.end_ts, e.start_ts)) AS last FROM update_hidden e WHERE ${hiddenRows(b, v)})
           SELECT (base.row_count - hidden.n + added.n)::float8, added.n::float8, hidden.replaced::float8,
                  (CASE WHEN added.last >= base.last_updated OR hidden.last IS NULL OR hidden.last < base.last_updated THEN greatest(base.last_updated, added.last) END)::text,
                  greatest(base.longest_ms, added.longest)::text, least(base.earliest_open_start, added.open)::text
             FROM base, added, hidden`,
    values: b.params,
    rowMode: 'array',
  })).rows[0] as [number, number, number, string | null, string | null, string | null];
  const [rows, given, replaced, known, longest, earliestOpen] = row;
  if (rows === 0) throw leftEmpty(t.base);
  let lastUpdated: unknown = known;
  if (known === null) {
    // The latest end is among the rows started within the longest event of the latest start.
    const q = new SqlBuilder();
    const held = (e: string) => scope.rowsOf(q, v.versionId, e);
    lastUpdated = (await client.query({
      text: `SELECT max(coalesce(e.end_ts, e.start_ts))::text FROM events e
              WHERE ${held('e.')} AND e.start_ts >= (SELECT max(l.start_ts) FROM events l WHERE ${held('l.')}) - make_interval(secs => coalesce(${q.param(longest)}::bigint, 0) / 1000.0)`,
      values: q.params,
      rowMode: 'array',
    })).rows[0]![0];
  }
  await client.query(
    `INSERT INTO dataset_versions (version_id, dataset_id, kind, version, loaded_at, row_count, last_updated, source, longest_ms, earliest_open_start, lineage_id)
     VALUES ($1, $2, $3, $4, now() AT TIME ZONE 'UTC', $5, $6, $7, $8, $9, $10)`,
    [v.versionId, DATASET_ID_BY_KIND[t.kind], t.kind, options.version, rows, lastUpdated, options.source, longest, earliestOpen, v.partition],
  );
  const removed = Number((await client.query('SELECT count(DISTINCT id)::float8 AS n FROM update_removed WHERE kind = $1', [t.kind])).rows[0].n);
  // The updates whose rows by place are not yet folded into spatial_events, each having added or
  // hidden some (every event has a place); the smallest of the change tables, read whole.
  const layers = Number((await client.query(
    `SELECT count(*)::float8 AS n FROM (SELECT from_version FROM ${SPATIAL_CHANGES.added} WHERE version_id = $1 UNION SELECT to_version FROM ${SPATIAL_CHANGES.hidden} WHERE version_id = $1) v`,
    [v.partition],
  )).rows[0].n);
  return {
    kind: t.kind, datasetId: DATASET_ID_BY_KIND[t.kind], version: options.version, rows,
    change: { from: t.base.version, replaced, added: given - replaced, removed, layers },
  };
}
