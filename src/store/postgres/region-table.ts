// region_events on PostgreSQL: for every event and every region it lies in (of the layers
// src/store/region-plan.ts names), the columns a region query is commonly filtered on, a partition
// per dataset version, written sorted and indexed on (version_id, member, region, start_ts, id)
// with the other columns included. A region's total is then an index-only scan of its rows in the
// time window, and a page in start order the first rows of that scan, joined to their events. On
// the events the total was a bitmap of the region's GIN entries and the window's, then a read of
// every matching row's heap page: an EEZ, a flag and a year of the 10M catalogue's fishing read
// 76,000 pages, 1.8 s cold (docs/performance.md, "The PostgreSQL engine at 10M"). The writer
// writes the rows of each version it adds; a version written before the table is not listed in
// region_versions and is read from the events until `migrate` or the next write adds its rows.
// An update writes neither to it: the rows by region it adds and hides are kept beside it
// (change-tables.ts).
// The queries on it: region-queries.ts.
import type pg from 'pg';
import { versionsListedIn } from './version-tables.ts';
import { createBareTable, partitionName } from './bare-tables.ts';
import { REGION_TABLE_LAYERS } from '../region-plan.ts';
import { addVersionMarks, VERSION_MARKS } from './lineage.ts';

const TEXT = 'text COLLATE "C"';

export const REGION_COLUMNS = `version_id smallint NOT NULL, member ${TEXT} NOT NULL, region ${TEXT} NOT NULL, start_ts timestamp NOT NULL, id ${TEXT} NOT NULL,
     end_ts timestamp, kind ${TEXT} NOT NULL, vessel_flag ${TEXT}, vessel_type ${TEXT}, ${VERSION_MARKS}`;
export const REGION_INDEX = '(version_id, member, region, start_ts, id) INCLUDE (end_ts, kind, vessel_flag, vessel_type, from_version, to_version)';

/** region_events as its change tables take it (change-tables.ts). */
export const REGION_TABLE = {
  table: 'region_events',
  columns: REGION_COLUMNS,
  names: ['version_id', 'member', 'region', 'start_ts', 'id', 'end_ts', 'kind', 'vessel_flag', 'vessel_type', 'from_version', 'to_version'],
  index: REGION_INDEX,
  key: ['member', 'region', 'start_ts', 'id'],
  rowsOf: (source: string, where: string) => regionRowsOf(source, where),
} as const;

export const CREATE_REGION_TABLES = [
  `CREATE TABLE IF NOT EXISTS region_events (${REGION_COLUMNS}) PARTITION BY LIST (version_id)`,
  addVersionMarks('region_events'),
  `CREATE INDEX IF NOT EXISTS region_events_rows ON region_events ${REGION_INDEX}`,
  'CREATE TABLE IF NOT EXISTS region_versions (version_id smallint PRIMARY KEY)',
];

export const regionPartition = (versionId: number): string => partitionName('region_events', versionId);

/**
 * Creates a version's bare region_events table (bare-tables.ts) and fills it from the version's
 * partition of the events, unsorted: its index, built whole once it is filled, sorts them.
 */
export async function fillRegionTable(c: pg.ClientBase, versionId: number): Promise<void> {
  await createBareTable(c, 'region_events', versionId);
  await c.query(`INSERT INTO ${regionPartition(versionId)} ${regionRowsOf(partitionName('events', versionId), 'version_id = $1')}`, [versionId]);
}

/**
 * The region_events rows of the events of `source` (a table with the events' columns) that meet
 * `where`, in the table's column order. Every layer's rows in one read (a read per layer took 5
 * minutes for the 10M catalogue's five versions, one read 3:46); DISTINCT per list: a region listed
 * twice in an event's list is still one event in its total.
 */
export function regionRowsOf(source: string, where: string): string {
  const layers = REGION_TABLE_LAYERS.map((m) => `('${m.member}', ${m.column})`).join(', ');
  return `SELECT version_id, l.member, u.region, start_ts, id, end_ts, kind, vessel_flag, vessel_type, from_version, to_version
    FROM ${source} CROSS JOIN LATERAL (VALUES ${layers}) AS l(member, regions)
         CROSS JOIN LATERAL (SELECT DISTINCT r FROM unnest(l.regions) AS r WHERE r IS NOT NULL) AS u(region)
   WHERE ${where}`;
}

export async function dropRegionRows(c: pg.ClientBase, versionId: number): Promise<void> {
  await c.query(`DROP TABLE IF EXISTS ${regionPartition(versionId)}`);
  await c.query('DELETE FROM region_versions WHERE version_id = $1', [versionId]);
}

/** The versions region_events holds, read with the catalog (none in a database written before it). */
export async function readRegionTableVersions(c: pg.ClientBase): Promise<Set<number>> {
  return versionsListedIn(c, 'region_versions');
}
