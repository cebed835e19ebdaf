// spatial_events on PostgreSQL: for every event, its position, its cell of the grid in
// src/geo/grid.ts and the columns a polygon query is filtered and sorted on, a partition per dataset
// version indexed on (version_id, cell_key, start_ts, id) with the rest included. A polygon query
// then reads from that index the rows of the cells its polygons cover: those wholly inside count as
// they are, those an edge comes near are tested with PostGIS on their own position. On the events,
// a 6-degree box and a year of the 10M catalogue's fishing intersected the GiST index's 769,358
// points in the box with the year's 937,486 index entries, then read the heap page of each match,
// rows of 1.5 KB: 1.1 s cold (docs/performance.md, "The PostgreSQL engine: polygons"). The writer
// writes the rows of each version it adds; a version written before the table is not listed in
// spatial_versions and is read from the events until `migrate` or the next write adds its rows.
// An update writes not to it: the rows by place it adds and hides are kept beside it
// (change-tables.ts). The queries on it: spatial-queries.ts.
import type pg from 'pg';
import { versionsListedIn } from './version-tables.ts';
import { createBareTable, partitionName } from './bare-tables.ts';
import { CELL_KEY_SQL } from '../../geo/grid.ts';
import { addVersionMarks, VERSION_MARKS } from './lineage.ts';

const TEXT = 'text COLLATE "C"';

/**
 * No parallel scan of a partition: a polygon's rows are a few thousand index entries, and a
 * parallel worker takes 31-37 ms to start here, 51-72 ms once its connection has used PostGIS. One
 * polygon's count at 10M: 91-106 ms with two workers, 17-20 ms without (psql, 2026-11-28 20:07;
 * docs/performance.md, "The PostgreSQL engine: polygons").
 */
const SPATIAL_STORAGE = 'parallel_workers=0';

const SPATIAL_COLUMNS = `version_id smallint NOT NULL, cell_key integer NOT NULL, start_ts timestamp NOT NULL, id ${TEXT} NOT NULL,
     end_ts timestamp, kind ${TEXT} NOT NULL, lat double precision NOT NULL, lon double precision NOT NULL, ${VERSION_MARKS}`;
const SPATIAL_INDEX = '(version_id, cell_key, start_ts, id) INCLUDE (end_ts, kind, lat, lon, from_version, to_version)';

/** spatial_events as its change tables take it (change-tables.ts). */
export const SPATIAL_TABLE = {
  table: 'spatial_events',
  columns: SPATIAL_COLUMNS,
  names: ['version_id', 'cell_key', 'start_ts', 'id', 'end_ts', 'kind', 'lat', 'lon', 'from_version', 'to_version'],
  index: SPATIAL_INDEX,
  key: ['cell_key', 'start_ts', 'id'],
  rowsOf: (source: string, where: string) => spatialRowsOf(source, where),
  storage: SPATIAL_STORAGE,
} as const;

export const CREATE_SPATIAL_TABLES = [
  `CREATE TABLE IF NOT EXISTS spatial_events (${SPATIAL_COLUMNS}) PARTITION BY LIST (version_id)`,
  addVersionMarks('spatial_events'),
  `CREATE INDEX IF NOT EXISTS spatial_events_rows ON spatial_events ${SPATIAL_INDEX}`,
  'CREATE TABLE IF NOT EXISTS spatial_versions (version_id smallint PRIMARY KEY)',
  // Partitions written before their storage parameters were set here get them at the writer's next
  // open; the others are left alone, so that an open alters no table once every partition has them.
  `DO $$ DECLARE p regclass; BEGIN
     FOR p IN SELECT inhrelid::regclass FROM pg_inherits JOIN pg_class ON pg_class.oid = inhrelid
              WHERE inhparent = 'spatial_events'::regclass AND NOT coalesce(reloptions, '{}') @> ARRAY['${SPATIAL_STORAGE}'] LOOP
       EXECUTE format('ALTER TABLE %s SET (${SPATIAL_STORAGE})', p);
     END LOOP;
   END $$`,
];

export const spatialPartition = (versionId: number): string => partitionName('spatial_events', versionId);

/** The grid's cell key in PostgreSQL's SQL: DuckDB's integer division `//` is `/` on integers here. */
const PG_CELL_KEY_SQL = CELL_KEY_SQL.replaceAll(' // ', ' / ');

/** Creates a version's bare spatial_events table (bare-tables.ts) and fills it from the version's partition of the events. */
export async function fillSpatialTable(c: pg.ClientBase, versionId: number): Promise<void> {
  await createBareTable(c, 'spatial_events', versionId, { storage: SPATIAL_STORAGE });
  // Written in cell order: PostgreSQL reads a polygon's rows by a bitmap of their index entries,
  // then their heap pages, which are then a cell's few neighbouring pages, not a page a row
  // (16,533 -> 985 pages for a 6-degree box and a year of the 10M fishing; 10.5 s more of load).
  await c.query(`INSERT INTO ${spatialPartition(versionId)} ${spatialRowsOf(partitionName('events', versionId), 'version_id = $1')} ORDER BY cell_key, start_ts`, [versionId]);
}

/** The spatial_events rows of the events of `source` (a table with the events' columns) that meet `where`, in the table's column order. */
export function spatialRowsOf(source: string, where: string): string {
  return `SELECT version_id, ${PG_CELL_KEY_SQL} AS cell_key, start_ts, id, end_ts, kind, lat, lon, from_version, to_version FROM ${source} WHERE ${where}`;
}

export async function dropSpatialRows(c: pg.ClientBase, versionId: number): Promise<void> {
  await c.query(`DROP TABLE IF EXISTS ${spatialPartition(versionId)}`);
  await c.query('DELETE FROM spatial_versions WHERE version_id = $1', [versionId]);
}

/** The versions spatial_events holds, read with the catalog (none in a database written before it). */
export async function readSpatialTableVersions(c: pg.ClientBase): Promise<Set<number>> {
  return versionsListedIn(c, 'spatial_versions');
}
