// DuckDB schema (docs/performance.md, "The layout"). Rows of a load are written sorted by
// (version_id, start_ts, id), so the per-row-group min/max zone maps let a time window skip the
// rest of the data; point files beside the database (src/store/duckdb/point-file-format.ts) and a second
// table sorted by vessel (src/store/duckdb/vessel-table.ts) serve the lookups that never scan. Filters read
// typed columns and struct fields; each kind's event_info is a typed STRUCT. Each row also holds
// its entry as the client receives it in the `gfw` wire format (src/store/duckdb/entry-sql.ts): a
// page is a concatenation of stored texts.
import { EVENT_INFO_FIELDS } from '../../domain/event-info.ts';
import { REGION_MEMBERS } from '../../domain/regions.ts';
import { EVENT_KINDS } from '../../domain/kinds.ts';
import { AUTHORIZATIONS_TYPE, NEXT_PORT_TYPE, structType, VESSEL_TYPE } from './layout-sql.ts';
import { CREATE_VESSEL_TABLE, DROP_VESSEL_ENTRIES } from './vessel-table.ts';
import { CREATE_STATS_MONTH_TABLES } from './stats-months.ts';
import { CREATE_MONTH_SUMMARY_TABLES } from './month-summaries.ts';
import { CREATE_SPATIAL_TABLES } from './spatial-table.ts';
import { CREATE_REGION_TABLES } from './region-table.ts';
import { CREATE_IDENTITY_TABLES } from './identity-table.ts';
import type { EntryCompression } from '../writer.ts';

/** 3: time-sorted rows with stored entries, and vessel_events. An older file is never written to. */
export const SCHEMA_VERSION = 3;

/** The file format new databases are written in: DuckDB's 1.2 storage, which zstd for strings (vessel_events' entries, until they moved to the point files) needed; kept, so every file of layout 3 has one format. */
export const STORAGE_VERSION = 'v1.2.0';

/** Event columns after version_id, in table order, with their types. */
export const EVENT_COLUMNS: [string, string][] = [
  ['id', 'VARCHAR NOT NULL'],
  ['kind', 'VARCHAR NOT NULL'],
  ['vessel_id', 'VARCHAR NOT NULL'],
  ['seg_id', 'VARCHAR'],
  ['start_ts', 'TIMESTAMP NOT NULL'],
  ['end_ts', 'TIMESTAMP'],
  ['lat', 'DOUBLE NOT NULL'],
  ['lon', 'DOUBLE NOT NULL'],
  ['lon_min', 'DOUBLE NOT NULL'],
  ['lat_min', 'DOUBLE NOT NULL'],
  ['lon_max', 'DOUBLE NOT NULL'],
  ['lat_max', 'DOUBLE NOT NULL'],
  ...REGION_MEMBERS.map((m): [string, string] => [m.column, 'VARCHAR[] NOT NULL']),
  ['start_distance_from_shore_km', 'DOUBLE'],
  ['end_distance_from_shore_km', 'DOUBLE'],
  ['start_distance_from_port_km', 'DOUBLE'],
  ['end_distance_from_port_km', 'DOUBLE'],
  ['vessel_ssvid', 'VARCHAR'],
  ['vessel_name', 'VARCHAR'],
  ['vessel_flag', 'VARCHAR'],
  ['vessel_type', 'VARCHAR'],
  ['vessel_gear_type', 'VARCHAR'],
  ['vessel_authorizations', AUTHORIZATIONS_TYPE],
  ['next_port', NEXT_PORT_TYPE],
  ['other_vessel', VESSEL_TYPE],
  ...EVENT_KINDS.map((k): [string, string] => [k, structType(EVENT_INFO_FIELDS[k])]),
];

/**
 * The events table of a new file. Its entries are FSST by default: zstd takes 36 % less space for
 * the whole catalogue (603 bytes an event against 939 at 10M) but decompresses a vector of 2,048
 * entries for any one it reads, so pages read from events took 5-20 % longer (docs/performance.md,
 * "The entry's compression"). FSST is named rather than left to DuckDB, which chose it for every
 * segment anyway: a load then skips weighing the other methods for its largest column.
 */
export function createEventsTable(entryCompression: EntryCompression): string {
  return `CREATE TABLE IF NOT EXISTS events (version_id USMALLINT NOT NULL, ${EVENT_COLUMNS.map(([n, t]) => `"${n}" ${t}`).join(', ')},
     entry VARCHAR USING COMPRESSION ${entryCompression} NOT NULL)`;
}

/** The meta key that records how a file's events table stores its entries (absent: fsst, as every file before the choice). */
export const ENTRY_COMPRESSION_KEY = 'entry_compression';

/** Every other table of a file: none depends on the entry's compression. */
export const CREATE_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS dataset_versions (
     version_id USMALLINT PRIMARY KEY,
     dataset_id VARCHAR NOT NULL,
     kind VARCHAR NOT NULL,
     version VARCHAR NOT NULL,
     loaded_at TIMESTAMP NOT NULL,
     row_count BIGINT NOT NULL,
     last_updated TIMESTAMP,
     source VARCHAR,
     longest_ms BIGINT,
     earliest_open_start TIMESTAMP,
     UNIQUE (kind, version)
   )`,
  // The events table is created by createEventsTable, with the entry's compression chosen for the file.
  CREATE_VESSEL_TABLE,
  // Added after layout 3 was out: an older file gains them empty, and its versions are read from
  // events until a load or `migrate` writes their rows (spatial-table.ts, region-table.ts).
  ...CREATE_SPATIAL_TABLES,
  ...CREATE_REGION_TABLES,
  ...CREATE_IDENTITY_TABLES,
  ...CREATE_STATS_MONTH_TABLES,
  ...CREATE_MONTH_SUMMARY_TABLES,
  `CREATE TABLE IF NOT EXISTS vessel_groups (group_id VARCHAR NOT NULL, vessel_id VARCHAR NOT NULL, PRIMARY KEY (group_id, vessel_id))`,
  `CREATE TABLE IF NOT EXISTS ports (id VARCHAR PRIMARY KEY, name VARCHAR, flag VARCHAR, lat DOUBLE, lon DOUBLE)`,
  // Every region id some loaded event carries, per regions member: an unknown region is a 404.
  `CREATE TABLE IF NOT EXISTS region_ids (member VARCHAR NOT NULL, id VARCHAR NOT NULL, PRIMARY KEY (member, id))`,
  `CREATE TABLE IF NOT EXISTS region_geometries (
     dataset VARCHAR NOT NULL, id VARCHAR NOT NULL, name VARCHAR, geometry VARCHAR NOT NULL,
     min_lon DOUBLE NOT NULL, min_lat DOUBLE NOT NULL, max_lon DOUBLE NOT NULL, max_lat DOUBLE NOT NULL,
     PRIMARY KEY (dataset, id)
   )`,
  // Added after layout 3 was out: a file written before it gains the column at its next write,
  // and readers read it only where it is (versions.ts).
  `ALTER TABLE region_geometries ADD COLUMN IF NOT EXISTS iso3 VARCHAR`,
  DROP_VESSEL_ENTRIES,
  // The IUU vessel list (`vessel-events iuu load`); meta's iuu_list says one is loaded.
  // The vessel registry (`vessel-events vessels load`): each record as JSON (src/domain/vessel-identity.ts), read whole.
  `CREATE TABLE IF NOT EXISTS vessel_registry (vessel_id VARCHAR NOT NULL, record VARCHAR NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS iuu_listings (vessel_id VARCHAR, ssvid VARCHAR, shipname VARCHAR, flag VARCHAR, listed_from VARCHAR NOT NULL, listed_to VARCHAR, source VARCHAR)`,
];

