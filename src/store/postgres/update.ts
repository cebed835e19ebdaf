// An update on PostgreSQL (`load --update --engine postgres`), in the writer's open transaction:
// each touched dataset gets a new version, a partition of its own (partitions.ts), made of its
// latest version's rows, less the ids the update replaces or removes, plus the staged rows copied
// in as any load's are (copy-events.ts).
import type pg from 'pg';
import { DATASET_ID_BY_KIND, type EventKind } from '../../domain/kinds.ts';
import { leftEmpty, removedAndGiven, unknownRemoval, updateTargets, type UpdateTarget } from '../update.ts';
import type { PublishedVersion, UpdateRequest } from '../writer.ts';
import type { StagedFile } from './copy-events.ts';
import { readVersions } from './versions.ts';
import { EVENT_COLUMNS, eventPartition } from './schema.ts';
import { attachPartition, createPartition } from './partitions.ts';

/**
 * Writes the new versions of an update whose rows are staged in `staged` (each kind a version of
 * the staged file), and returns them as published, with what each changed.
 */
export async function applyUpdate(client: pg.ClientBase, staged: StagedFile, update: UpdateRequest, options: { version: string; source: string }): Promise<{ published: PublishedVersion[]; versionIds: number[] }> {
  const stagedVersions = await staged.versions();
  const targets = updateTargets(await readVersions(client), stagedVersions.map((v) => v.kind as EventKind), update, options.version);
  const bases = new Map(targets.map((t) => [t.kind, t.base]));

  // The ids each new version leaves out of its base: the update's rows and the removals.
  await client.query(`CREATE TEMP TABLE update_given (kind text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL) ON COMMIT DROP`);
  await client.query(`CREATE TEMP TABLE update_removed (kind text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL, line integer NOT NULL) ON COMMIT DROP`);
  for (const ids of await staged.idsByChunk(50_000)) {
    await client.query('INSERT INTO update_given SELECT * FROM unnest($1::text[], $2::text[])', [ids.map((r) => r[0]), ids.map((r) => r[1])]);
  }
  for (const r of update.removals) {
    await client.query('INSERT INTO update_removed SELECT $1, id, line FROM unnest($2::text[], $3::integer[]) AS r(id, line)', [r.kind, r.ids.map((x) => x.id), r.ids.map((x) => x.line)]);
    const base = bases.get(r.kind)!;
    const unknown = (await client.query(
      `SELECT r.line, r.id FROM update_removed r WHERE r.kind = $1 AND NOT EXISTS (SELECT 1 FROM events e WHERE e.id = r.id AND e.version_id = $2) ORDER BY r.line LIMIT 1`,
      [r.kind, base.versionId],
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

  const columns = EVENT_COLUMNS.map(([n]) => n);
  const published: PublishedVersion[] = [];
  // Each new version's partition: its base's rows kept, then the update's, indexed once attached.
  for (const t of targets) {
    await createPartition(client, t.versionId);
    await client.query(
      `INSERT INTO ${eventPartition(t.versionId)} (${columns.join(', ')})
       SELECT $1::smallint, ${columns.slice(1).map((n) => `e.${n}`).join(', ')} FROM events e
        WHERE e.version_id = $2
          AND NOT EXISTS (SELECT 1 FROM update_given g WHERE g.kind = e.kind AND g.id = e.id)
          AND NOT EXISTS (SELECT 1 FROM update_removed r WHERE r.kind = e.kind AND r.id = e.id)`,
      [t.versionId, t.base.versionId],
    );
  }
  const stagedIds = new Map(stagedVersions.map((v) => [v.versionId, targets.find((t) => t.kind === v.kind)!.versionId]));
  await staged.copyEvents(client, stagedIds);
  for (const t of targets) await attachPartition(client, t.versionId);
  for (const t of targets) published.push(await recordVersion(client, t, options));
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
  return { published, versionIds: targets.map((t) => t.versionId) };
}

/** Writes a new version's catalog row from its events, and what it changed from its base. */
async function recordVersion(client: pg.ClientBase, t: UpdateTarget, options: { version: string; source: string }): Promise<PublishedVersion> {
  const rows = Number((await client.query(
    `INSERT INTO dataset_versions
     SELECT $1, $2, $3, $4, now() AT TIME ZONE 'UTC', count(*), max(coalesce(end_ts, start_ts)), $5,
            ceil(max(extract(epoch FROM end_ts - start_ts) * 1000))::bigint, min(start_ts) FILTER (WHERE end_ts IS NULL)
       FROM events WHERE version_id = $1
     RETURNING row_count`,
    [t.versionId, DATASET_ID_BY_KIND[t.kind], t.kind, options.version, options.source],
  )).rows[0].row_count);
  if (rows === 0) throw leftEmpty(t.base);
  const counts = (await client.query(
    `SELECT (SELECT count(*) FROM update_given WHERE kind = $1)::float8 AS given,
            (SELECT count(*) FROM update_given g WHERE g.kind = $1 AND EXISTS (SELECT 1 FROM events e WHERE e.version_id = $2 AND e.id = g.id))::float8 AS replaced,
            (SELECT count(DISTINCT id) FROM update_removed WHERE kind = $1)::float8 AS removed`,
    [t.kind, t.base.versionId],
  )).rows[0] as { given: number; replaced: number; removed: number };
  return {
    kind: t.kind, datasetId: DATASET_ID_BY_KIND[t.kind], version: options.version, rows,
    change: { from: t.base.version, replaced: counts.replaced, added: counts.given - counts.replaced, removed: counts.removed },
  };
}
