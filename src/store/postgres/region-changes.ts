// The rows by region an update adds and hides on PostgreSQL, kept beside region_events
// (region-table.ts) in two tables of its columns, a partition per lineage (lineage.ts) each:
// region_added holds the rows an update adds, marked from_version as in region_events, and
// region_hidden the rows it hides (of either table), as they are there, their to_version the
// version that hid them. A version's rows by region are then its rows of both tables less those
// hidden from it. Both stay small beside the 7 GB of region_events of the 10M catalogue's fishing
// version, so an update writes into cached pages: hiding 160,000 rows by marking them in
// region_events took 109 of an update's 194 s, adding them 15 to 54 s cold, against 1 to 3 s each
// here (docs/performance.md, "The PostgreSQL engine: updates").
import type pg from 'pg';
import type { SqlBuilder } from '../sql.ts';
import type { VersionScope } from './lineage.ts';
import { REGION_COLUMNS, REGION_INDEX, regionRowsOf } from './region-table.ts';

export const CREATE_REGION_CHANGE_TABLES = ['region_added', 'region_hidden'].flatMap((table) => [
  `CREATE TABLE IF NOT EXISTS ${table} (${REGION_COLUMNS}) PARTITION BY LIST (version_id)`,
  `CREATE INDEX IF NOT EXISTS ${table}_rows ON ${table} ${REGION_INDEX}`,
]);

/** The partitions of a lineage (the version id of its partition) in region_added and region_hidden. */
export const regionChangePartitions = (lineageId: number): string[] => ['region_added', 'region_hidden'].map((table) => `${table}_v${Number(lineageId)}`);

/** Inserts `select` into `table`'s partition of lineage `lineageId`, created if missing, in its index's order. */
async function insertChanges(c: pg.ClientBase, table: 'region_added' | 'region_hidden', lineageId: number, select: string, params: unknown[]): Promise<void> {
  await c.query(`CREATE TABLE IF NOT EXISTS ${table}_v${Number(lineageId)} PARTITION OF ${table} FOR VALUES IN (${Number(lineageId)})`);
  // In the index's order, each insert lands beside the last.
  await c.query(`INSERT INTO ${table} SELECT * FROM (${select}) r ORDER BY member, region, start_ts, id`, params);
}

/** Writes the rows by region of the rows of `source` (with the events' columns) that meet `where`, added by an update to lineage `lineageId`. */
export async function addRegionRows(c: pg.ClientBase, lineageId: number, source: string, where: string, params: unknown[]): Promise<void> {
  await insertChanges(c, 'region_added', lineageId, regionRowsOf(source, where), params);
}

/**
 * Records that version `hiding` no longer has the rows by region of the rows of `source` that meet
 * `where` (its base's rows it replaces or removes, all of lineage `lineageId`).
 */
export async function hideRegionRows(c: pg.ClientBase, lineageId: number, hiding: number, source: string, where: string, params: unknown[]): Promise<void> {
  const select = `SELECT version_id, member, region, start_ts, id, end_ts, kind, vessel_flag, vessel_type, from_version, $${params.length + 1}::smallint FROM (${regionRowsOf(source, where)}) h`;
  await insertChanges(c, 'region_hidden', lineageId, select, [...params, hiding]);
}

/**
 * The condition on `table` (region_events or region_added, not aliased) for the rows of
 * `versionId`: those it holds for it, less those hidden from it when its lineage was updated. A
 * hidden row is told from the row that replaced it, which may have its key, by the version that
 * added it.
 */
export function regionRowsHeld(b: Pick<SqlBuilder, 'param'>, scope: VersionScope, updatedLineages: ReadonlySet<number>, table: 'region_events' | 'region_added', versionId: number): string {
  const rows = scope.rowsOf(b, versionId);
  const partition = scope.partitionOf(versionId);
  if (!updatedLineages.has(partition)) return rows;
  return `${rows} AND NOT EXISTS (SELECT 1 FROM region_hidden h WHERE h.version_id = ${b.param(partition)}::smallint AND h.member = ${table}.member
    AND h.region = ${table}.region AND h.start_ts = ${table}.start_ts AND h.id = ${table}.id
    AND h.from_version IS NOT DISTINCT FROM ${table}.from_version AND h.to_version <= ${b.param(versionId)}::smallint)`;
}

/** The lineages whose updates wrote rows by region here (a partition each; none in a database written before these tables). */
export async function readRegionUpdatedLineages(c: pg.ClientBase): Promise<Set<number>> {
  const rows = (await c.query<{ name: string }>(`SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent IN (to_regclass('region_added'), to_regclass('region_hidden'))`)).rows;
  return new Set(rows.map((r) => Number(/_v(\d+)$/.exec(r.name)![1])));
}

/** Drops a lineage's partitions (the whole lineage is dropped). */
export async function dropRegionChanges(c: pg.ClientBase, lineageId: number): Promise<void> {
  for (const partition of regionChangePartitions(lineageId)) await c.query(`DROP TABLE IF EXISTS ${partition}`);
}

/** Takes back what the versions of lineage `lineageId` after `latest` added and hid (they are dropped). */
export async function dropRegionChangesAfter(c: pg.ClientBase, lineageId: number, latest: number): Promise<void> {
  await c.query('DELETE FROM region_added WHERE version_id = $1 AND from_version > $2', [lineageId, latest]);
  await c.query('DELETE FROM region_hidden WHERE version_id = $1 AND to_version > $2', [lineageId, latest]);
}
