// vessel_events on PostgreSQL: for every event, its entry and the columns a vessel's history is
// filtered and sorted on, a partition per dataset version, stored in the order of its index,
// (version_id, vessel_id, start_ts, id). A vessel's history then reads its rows' few neighbouring
// pages. On the events, stored in start order, each of a history's 100 rows was a page of its own,
// read from disk where the 11 GB of the 10M catalogue's fishing were not cached: 52.7 ms p50 for a
// history (docs/performance.md, "The PostgreSQL engine: a vessel's history"). The writer writes the
// rows of each version it adds; a version written before the table is not listed in
// vessel_versions and is read from the events until `migrate` or the next write adds its rows. An
// update writes not to it: the rows it adds and hides are kept beside it (change-tables.ts). Which
// queries it answers: src/store/vessel-plan.ts; the queries on it: vessel-queries.ts.
import type pg from 'pg';
import { versionsListedIn } from './version-tables.ts';
import { createBareTable, partitionName } from './bare-tables.ts';
import { VERSION_MARKS } from './lineage.ts';

const TEXT = 'text COLLATE "C"';

const VESSEL_COLUMNS = `version_id smallint NOT NULL, vessel_id ${TEXT} NOT NULL, start_ts timestamp NOT NULL, id ${TEXT} NOT NULL,
     end_ts timestamp, kind ${TEXT} NOT NULL, entry text NOT NULL, ${VERSION_MARKS}`;
const VESSEL_INDEX = '(version_id, vessel_id, start_ts, id) INCLUDE (end_ts, kind, from_version, to_version)';

/** vessel_events as its change tables take it (change-tables.ts). */
export const VESSEL_TABLE = {
  table: 'vessel_events',
  columns: VESSEL_COLUMNS,
  names: ['version_id', 'vessel_id', 'start_ts', 'id', 'end_ts', 'kind', 'entry', 'from_version', 'to_version'],
  index: VESSEL_INDEX,
  key: ['vessel_id', 'start_ts', 'id'],
  rowsOf: (source: string, where: string) => vesselRowsOf(source, where),
  // Its hidden rows are matched by key and counted, never read for their entries: an empty text
  // (the column is NOT NULL in databases written before) spares an update writing 41,000 entries
  // into vessel_hidden (docs/performance.md, "The PostgreSQL engine: updates").
  hiddenAs: { entry: "''" },
} as const;

export const CREATE_VESSEL_TABLES = [
  `CREATE TABLE IF NOT EXISTS vessel_events (${VESSEL_COLUMNS}) PARTITION BY LIST (version_id)`,
  `CREATE INDEX IF NOT EXISTS vessel_events_rows ON vessel_events ${VESSEL_INDEX}`,
  'CREATE TABLE IF NOT EXISTS vessel_versions (version_id smallint PRIMARY KEY)',
];

export const vesselPartition = (versionId: number): string => partitionName('vessel_events', versionId);

/**
 * Rows sorted at once: a version of more is written in ranges of vessel ids of about this many,
 * one sort each, so that the sort's spill to disk is a range's (some 1.1 KB a row: 8.8 GB at most),
 * not the version's (40 GB for a 50M catalogue's fishing). Each range reads the whole partition
 * again, so a version that fits is sorted whole: the 10M catalogue's fishing (7.2M rows, a 14 GB
 * partition) took 85.6-89.3 s in one sort against 111.6-143.6 s in four ranges of 1.8M, in turns
 * (docs/performance.md, "The PostgreSQL engine: loads").
 */
const RANGE_ROWS = 8_000_000;

/** Versions of this many rows or more draw their ranges' bounds from 1 % of their pages (some 2,000 of a million rows' 200,000 pages); smaller ones from every row. */
const SAMPLED_FROM = 1_000_000;

/**
 * Creates a version's bare vessel_events table (bare-tables.ts) and fills it from the version's
 * partition of the events (`rows` of them) in its index's order, a range of vessel ids at a time.
 * `rangeRows`: the rows of a range (the tests make it small).
 */
export async function fillVesselTable(c: pg.ClientBase, versionId: number, rows: number, rangeRows = RANGE_ROWS): Promise<void> {
  await createBareTable(c, 'vessel_events', versionId);
  const source = partitionName('events', versionId);
  for (const range of await vesselRanges(c, source, versionId, rows, rangeRows)) {
    await c.query(`INSERT INTO ${vesselPartition(versionId)} ${vesselRowsOf(source, `version_id = $1${range.where}`)} ORDER BY vessel_id, start_ts, id`, [versionId, ...range.params]);
  }
}

/**
 * The ranges of vessel ids a version's `rows` rows of `source` are written in, in order, as
 * conditions after the version's (parameters from $2): their bounds drawn from its rows (SAMPLED_FROM).
 */
async function vesselRanges(c: pg.ClientBase, source: string, versionId: number, rows: number, rangeRows: number): Promise<{ where: string; params: string[] }[]> {
  const count = Math.ceil(rows / rangeRows);
  if (count <= 1) return [{ where: '', params: [] }];
  const fractions = Array.from({ length: count - 1 }, (_, i) => (i + 1) / count);
  const drawn = (await c.query(`SELECT percentile_disc($2::float8[]) WITHIN GROUP (ORDER BY vessel_id) AS bounds FROM ${source} TABLESAMPLE SYSTEM ($3) WHERE version_id = $1`, [versionId, fractions, rows >= SAMPLED_FROM ? 1 : 100])).rows[0].bounds as (string | null)[] | null;
  const bounds = [...new Set((drawn ?? []).filter((b): b is string => b !== null))];
  if (bounds.length === 0) return [{ where: '', params: [] }];
  return [
    { where: ' AND vessel_id < $2', params: [bounds[0]!] },
    ...bounds.slice(1).map((to, i) => ({ where: ' AND vessel_id >= $2 AND vessel_id < $3', params: [bounds[i]!, to] })),
    { where: ' AND vessel_id >= $2', params: [bounds.at(-1)!] },
  ];
}

/** The vessel_events rows of the events of `source` (a table with the events' columns) that meet `where`, in the table's column order. */
export function vesselRowsOf(source: string, where: string): string {
  return `SELECT version_id, vessel_id, start_ts, id, end_ts, kind, entry, from_version, to_version FROM ${source} WHERE ${where}`;
}

export async function dropVesselRows(c: pg.ClientBase, versionId: number): Promise<void> {
  await c.query(`DROP TABLE IF EXISTS ${vesselPartition(versionId)}`);
  await c.query('DELETE FROM vessel_versions WHERE version_id = $1', [versionId]);
}

/** The versions vessel_events holds, read with the catalog (none in a database written before it). */
export async function readVesselTableVersions(c: pg.ClientBase): Promise<Set<number>> {
  return versionsListedIn(c, 'vessel_versions');
}
