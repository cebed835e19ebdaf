// PostgreSQL schema (docs/performance.md, "The PostgreSQL engine"). One events table: the columns
// filters read, typed and in the "C" collation (so ids, flags and region ids sort byte by byte,
// as DuckDB sorts them and the pages' tie-break needs); the point as PostGIS geometry, from the
// stored lon/lat; the entry as the client receives it in the `gfw` wire format, written once by
// the loader; the rest of the stored record for `raw=true` (record-columns.ts). It distributes
// unchanged on Citus with vessel_id as the distribution column (docs/deploy.md): no unique key spans
// other columns.
import { REGION_MEMBERS } from '../../domain/regions.ts';
import type { Field } from '../../query/plan.ts';
import { CREATE_IDENTITY_TABLES } from './identity-table.ts';
import { CREATE_STATS_ROLLUPS } from './stats-rollups.ts';
import { CREATE_REGION_TABLES } from './region-table.ts';
import { CREATE_REGION_MONTHS } from './region-months.ts';
import { CHANGE_TABLES } from './change-tables.ts';
import { CREATE_SPATIAL_TABLES } from './spatial-table.ts';
import { CREATE_VESSEL_TABLES } from './vessel-table.ts';
import { addVersionMarks, VERSION_MARKS } from './lineage.ts';
import { partitionName } from './bare-tables.ts';
import { RECORD_COLUMNS, RECORD_JSON_COLUMNS } from './record-columns.ts';

/**
 * 1: the first layout; 2: events partitioned by version; 3: an update's version shares its base's
 * partition (lineage.ts), its rows marked with the versions that added and hid them; 4: the stored
 * record in columns of its own rather than one JSON text beside the entry (record-columns.ts). A
 * database of another layout is refused (src/store/postgres/versions.ts); `migrate --engine
 * postgres` brings layouts 1 to 3 to 4 (migrate.ts).
 */
export const SCHEMA_VERSION = 4;

/**
 * Each dataset version's events are a partition of `events` of their own: a load writes its
 * versions' rows into bare tables, indexes them whole (sorted builds, not an index insert per row)
 * and attaches them; a query names its versions, so only their partitions are planned and read;
 * dropping a version drops its table. The layout pgstac gives its collections (partitions by
 * collection), docs/performance.md, "The PostgreSQL engine".
 */
export const eventPartition = (versionId: number): string => partitionName('events', versionId);

const TEXT = 'text COLLATE "C"';


/** Event columns in table (and COPY) order, with their types. */
export const EVENT_COLUMNS: readonly (readonly [string, string])[] = [
  ['version_id', 'smallint NOT NULL'],
  ['id', `${TEXT} NOT NULL`],
  ['kind', `${TEXT} NOT NULL`],
  ['vessel_id', `${TEXT} NOT NULL`],
  ['start_ts', 'timestamp NOT NULL'],
  ['end_ts', 'timestamp'],
  ['lat', 'double precision NOT NULL'],
  ['lon', 'double precision NOT NULL'],
  ...REGION_MEMBERS.map((m) => [m.column, 'text[] COLLATE "C" NOT NULL'] as const),
  ['vessel_flag', TEXT],
  ['vessel_type', TEXT],
  ['vessel_gear_type', TEXT],
  ['next_port_id', TEXT],
  ['next_port_name', 'text'],
  ['next_port_flag', 'text'],
  ['port_visit_confidence', 'integer'],
  ['port_visit_anchorage_id', TEXT],
  ['encounter_type', TEXT],
  ['gap_intentional_disabling', 'boolean'],
  ...RECORD_COLUMNS,
  ['entry', 'text NOT NULL'],
];

/**
 * An event row's entry (some 1.1 KB) and, with it, the record's JSON parts can take a row past
 * PostgreSQL's 2 KB threshold, so each row's COPY compresses them. lz4 rather than the default
 * pglz: 288,544 fishing rows copied in 10.2-10.4 s against 19.4-24.9 into a table 15 % smaller, and
 * a 1M load's partitions 10 % smaller (docs/performance.md, "The PostgreSQL engine: the rows'
 * compression"). Partitions written before (ALTER on the parent does not reach them) get it for
 * the rows written next; their rows keep pglz, and a column holding both is read as either. A
 * server built without lz4 keeps pglz.
 */
const COMPRESSED_COLUMNS = [...RECORD_JSON_COLUMNS, 'entry'];
const COMPRESS_WITH_LZ4 = `DO $$ DECLARE t regclass; BEGIN
  FOR t IN SELECT DISTINCT a.attrelid::regclass FROM pg_attribute a
            WHERE (a.attrelid = 'events'::regclass OR a.attrelid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'events'::regclass))
              AND a.attname IN (${COMPRESSED_COLUMNS.map((c) => `'${c}'`).join(', ')}) AND a.attcompression <> 'l' LOOP
    EXECUTE format('ALTER TABLE %s ${COMPRESSED_COLUMNS.map((c) => `ALTER COLUMN ${c} SET COMPRESSION lz4`).join(', ')}', t);
  END LOOP;
EXCEPTION WHEN feature_not_supported THEN NULL;
END $$`;

/** The column holding each field of the filter plan. */
export const FIELD_COLUMN: Readonly<Record<Field, string>> = {
  version: 'version_id',
  id: 'id',
  vessel: 'vessel_id',
  kind: 'kind',
  vesselFlag: 'vessel_flag',
  vesselType: 'vessel_type',
  nextPort: 'next_port_id',
  portVisitConfidence: 'port_visit_confidence',
  portVisitAnchorage: 'port_visit_anchorage_id',
  encounterType: 'encounter_type',
  gapIntentionalDisabling: 'gap_intentional_disabling',
  start: 'start_ts',
  end: 'end_ts',
};

/** The type of the columns that lists of values are compared with (a list is bound as one array). */
export const LIST_TYPE: Readonly<Record<string, string>> = { version_id: 'smallint', port_visit_confidence: 'integer', gap_intentional_disabling: 'boolean' };

export const CREATE_SCHEMA = [
  'CREATE EXTENSION IF NOT EXISTS postgis',
  'CREATE TABLE IF NOT EXISTS meta (key text PRIMARY KEY, value text NOT NULL)',
  `CREATE TABLE IF NOT EXISTS dataset_versions (
     version_id smallint PRIMARY KEY, dataset_id text NOT NULL, kind text NOT NULL, version text NOT NULL,
     loaded_at timestamp NOT NULL, row_count bigint NOT NULL, last_updated timestamp, source text,
     longest_ms bigint, earliest_open_start timestamp, lineage_id smallint, UNIQUE (kind, version))`,
  // The partition an update's version shares (lineage.ts); null for a version with its own.
  'ALTER TABLE dataset_versions ADD COLUMN IF NOT EXISTS lineage_id smallint',
  `CREATE TABLE IF NOT EXISTS events (${EVENT_COLUMNS.map(([n, t]) => `${n} ${t}`).join(', ')},
     position geometry(Point, 4326) GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lon, lat), 4326)) STORED, ${VERSION_MARKS})
     PARTITION BY LIST (version_id)`,
  addVersionMarks('events'),
  COMPRESS_WITH_LZ4,
  `CREATE TABLE IF NOT EXISTS vessel_groups (group_id ${TEXT} NOT NULL, vessel_id ${TEXT} NOT NULL, PRIMARY KEY (group_id, vessel_id))`,
  `CREATE TABLE IF NOT EXISTS ports (id ${TEXT} PRIMARY KEY, name text, flag text, lat double precision, lon double precision)`,
  `CREATE TABLE IF NOT EXISTS region_ids (member text NOT NULL, id ${TEXT} NOT NULL, PRIMARY KEY (member, id))`,
  `CREATE TABLE IF NOT EXISTS region_geometries (
     dataset text NOT NULL, id ${TEXT} NOT NULL, name text, geometry text NOT NULL,
     min_lon double precision NOT NULL, min_lat double precision NOT NULL, max_lon double precision NOT NULL, max_lat double precision NOT NULL,
     PRIMARY KEY (dataset, id))`,
  // Added after layout 1 was out: a database written before it gains the column at its next write.
  'ALTER TABLE region_geometries ADD COLUMN IF NOT EXISTS iso3 text',
  // The grid cells (src/geo/grid.ts) holding events of each version, written by the load, and the
  // versions whose cells are written: a version loaded before these tables has none listed, and is
  // never said to hold no event anywhere (src/store/event-cells.ts). Small (a few thousand rows a
  // version): a reference table on Citus.
  'CREATE TABLE IF NOT EXISTS event_cells (version_id smallint NOT NULL, cell_key integer NOT NULL, PRIMARY KEY (version_id, cell_key))',
  'CREATE TABLE IF NOT EXISTS event_cell_versions (version_id smallint PRIMARY KEY)',
  ...CREATE_IDENTITY_TABLES,
  ...CREATE_STATS_ROLLUPS,
  ...CREATE_REGION_TABLES,
  ...CREATE_REGION_MONTHS,
  ...CREATE_SPATIAL_TABLES,
  ...CREATE_VESSEL_TABLES,
  ...CHANGE_TABLES.flatMap((t) => t.create),
  // The IUU vessel list (`vessel-events iuu load`); meta's iuu_list says one is loaded. A reference table on Citus.
  // The vessel registry (`vessel-events vessels load`): each record as JSON, read whole. A reference table on Citus.
  `CREATE TABLE IF NOT EXISTS vessel_registry (vessel_id ${TEXT} NOT NULL, record text NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS iuu_listings (vessel_id ${TEXT}, ssvid ${TEXT}, shipname text, flag text, listed_from text NOT NULL, listed_to text, source text)`,
  // A lookup by id, a vessel's history and a time window each read an index, never the table;
  // region filters read a GIN index of the layer's ids, polygons the GiST index of the points.
  // Indexes of the partitioned table: each partition gets its own when it is attached.
  'CREATE INDEX IF NOT EXISTS events_id ON events (id)',
  // A vessel's total is counted on its index alone, its rows' heap pages unread: vessel histories
  // at 8 clients 174 -> 279 req/s at 10M (docs/performance.md, "The PostgreSQL engine: a vessel's
  // history"). A database written with the index before it had them gets this one at its next write.
  'DROP INDEX IF EXISTS events_vessel_start',
  'CREATE INDEX IF NOT EXISTS events_vessel_rows ON events (vessel_id, start_ts) INCLUDE (end_ts, version_id, from_version, to_version)',
  'CREATE INDEX IF NOT EXISTS events_version_rows ON events (version_id, start_ts, id) INCLUDE (from_version, to_version)',
  ...REGION_MEMBERS.map((m) => `CREATE INDEX IF NOT EXISTS events_${m.column} ON events USING gin (${m.column})`),
  'CREATE INDEX IF NOT EXISTS events_position ON events USING gist (position)',
];
