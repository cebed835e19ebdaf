// region_months on PostgreSQL: region_events' rows (region-table.ts) counted per lineage partition,
// layer, region, flag and month of start, with the versions' marks (lineage.ts), so that a
// region list's total over whole months is a sum of a few hundred rows rather than a count of its
// rows in region_events: the rows of the months wholly inside the window are summed here, those
// of the window's edges (the partial months, and the events that start before the window and reach
// into it) counted in region_events as before. An EEZ, a flag and a year of the 10M catalogue's
// fishing: 52,833 events in 0.96-1.08 ms warm against 14.4-14.6 (docs/performance.md, "The
// PostgreSQL engine: regions"). Only region_events' own rows are here; the rows updates add and hide
// beside it (change-tables.ts) are counted there, as before, so an update writes nothing here.
// What rewrites a partition's rows of region_events rewrites its rows here: a load or `migrate`
// (writeMissingRegionMonths), `compact` (rewriteRegionMonths), dropping a version (writer.ts).
import type pg from 'pg';
import type { Condition } from '../../query/plan.ts';
import type { SqlBuilder } from '../sql.ts';
import { wholeMonthsOf, type WholeMonthSpan } from '../whole-months.ts';
import { listWithLineage, versionsListedIn, versionsMissingFrom } from './version-tables.ts';
import { partitionName } from './bare-tables.ts';
import { VERSION_MARKS } from './lineage.ts';

const TEXT = 'text COLLATE "C"';

export const CREATE_REGION_MONTHS = [
  `CREATE TABLE IF NOT EXISTS region_months (version_id smallint NOT NULL, member ${TEXT} NOT NULL, region ${TEXT} NOT NULL,
     month date NOT NULL, vessel_flag ${TEXT}, ${VERSION_MARKS}, n bigint NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS region_months_rows ON region_months (version_id, member, region, month) INCLUDE (vessel_flag, from_version, to_version, n)',
  'CREATE TABLE IF NOT EXISTS region_month_versions (version_id smallint PRIMARY KEY)',
];

/** Writes a lineage partition's rows from its partition of region_events (attached or bare: the name is the same). */
async function writeRegionMonths(c: pg.ClientBase, partition: number): Promise<void> {
  await c.query(
    `INSERT INTO region_months
     SELECT version_id, member, region, date_trunc('month', start_ts)::date, vessel_flag, from_version, to_version, count(*)
       FROM ${partitionName('region_events', partition)} GROUP BY 1, 2, 3, 4, 5, 6, 7`,
  );
}

/**
 * Writes the rows of every lineage partition whose region_events rows are written but not counted
 * here (a load's versions, and on its first write, those of a database written before this table),
 * and of those whose region_events rows were just written again (`rewritten`), and lists them with
 * the updates sharing them; resolves to those partitions. In the writer's transaction, after
 * region_events' partitions are attached: readers see these rows with them.
 */
export async function writeMissingRegionMonths(c: pg.ClientBase, rewritten: readonly number[]): Promise<number[]> {
  const written = await versionsListedIn(c, 'region_versions');
  const missing = [...new Set([...(await versionsMissingFrom(c, 'region_month_versions')), ...rewritten])].filter((v) => written.has(v)).sort((a, b) => a - b);
  for (const partition of missing) {
    await dropRegionMonths(c, partition);
    await c.query('DELETE FROM region_month_versions WHERE version_id IN (SELECT version_id FROM dataset_versions WHERE version_id = $1 OR lineage_id = $1)', [partition]);
    await writeRegionMonths(c, partition);
    await listWithLineage(c, 'region_month_versions', partition);
  }
  return missing;
}

/** Writes a lineage partition's rows again, its rows of region_events changed in place (`compact`). */
export async function rewriteRegionMonths(c: pg.ClientBase, partition: number): Promise<void> {
  if (!(await versionsListedIn(c, 'region_month_versions')).has(partition)) return;
  await c.query('DELETE FROM region_months WHERE version_id = $1', [partition]);
  await writeRegionMonths(c, partition);
}

/** Lists an update's new version where its base's partition is counted here: its rows there are its base's, as marked. */
export async function listUpdateRegionMonths(c: pg.ClientBase, versionId: number, partition: number): Promise<void> {
  await c.query('INSERT INTO region_month_versions SELECT $1 WHERE EXISTS (SELECT 1 FROM region_month_versions WHERE version_id = $2)', [versionId, partition]);
}

export async function dropRegionMonths(c: pg.ClientBase, partition: number): Promise<void> {
  await c.query('DELETE FROM region_months WHERE version_id = $1', [partition]);
}

/** The versions counted here, read with the catalog (none in a database written before the table). */
export async function readRegionMonthVersions(c: pg.ClientBase): Promise<Set<number>> {
  return versionsListedIn(c, 'region_month_versions');
}

/** The whole months of a region query's window, with the conditions region_months answers. */
export interface WholeMonths extends WholeMonthSpan {
  /** The conditions on the rows that region_months has columns for: the versions and flags. */
  counted: Condition[];
}

/**
 * The months whose every row meets a region query's other conditions, when they are versions,
 * flags listed, and a window on start (an OVERLAP window: its end after the window's start or
 * open; a START-DATE window; the plan's bound on start below it): a row that starts inside such
 * a window's months meets all of it, its end being at or after its start (the loader refuses an
 * end before the start). Undefined for any other condition, or for no whole month.
 */
export function wholeMonths(others: readonly Condition[]): WholeMonths | undefined {
  let lower = -Infinity;
  let upper = Infinity;
  const counted: Condition[] = [];
  for (const c of others) {
    if (c.is === 'oneOf' && (c.field === 'version' || c.field === 'vesselFlag')) counted.push(c);
    else if (c.is === 'atOrAfter' && c.field === 'start') lower = Math.max(lower, c.ms);
    else if (c.is === 'before' && c.field === 'start') upper = Math.min(upper, c.ms);
    else if (c.is === 'or' && c.any.length === 2 && c.any[0]!.is === 'atOrAfter' && c.any[0]!.field === 'end' && c.any[1]!.is === 'missing' && c.any[1]!.field === 'end') lower = Math.max(lower, c.any[0]!.ms);
    else return undefined;
  }
  const months = wholeMonthsOf(Number.isFinite(lower) ? lower : undefined, Number.isFinite(upper) ? upper : undefined);
  return months && { ...months, counted };
}

/** The sum over region_months of the months `months` names, of the rows meeting `counted` (rendered) of one layer's region. */
export function regionMonthsSum(b: SqlBuilder, member: string, region: string, months: WholeMonths, counted: string): string {
  const day = (ms: number) => `${b.param(new Date(ms).toISOString().slice(0, 10))}::date`;
  const bounds = [...(months.firstWholeMs !== undefined ? [`month >= ${day(months.firstWholeMs)}`] : []), ...(months.afterWholeMs !== undefined ? [`month < ${day(months.afterWholeMs)}`] : [])];
  return `(SELECT coalesce(sum(n), 0) FROM region_months WHERE ${[`member = ${b.param(member)}`, `region = ${b.param(region)}`, counted, ...bounds].join(' AND ')})`;
}
