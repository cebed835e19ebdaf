// DuckDB schema. Rows of a load are written sorted by (version_id, vessel_id, start_ts), so the
// per-row-group min/max zone maps let a vessel's history and a time window skip almost all data;
// an ART index on id serves the by-id lookup. Filters read plain typed columns, never JSON.
export const SCHEMA_VERSION = 1;

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
     UNIQUE (kind, version)
   )`,
  `CREATE TABLE IF NOT EXISTS events (
     version_id USMALLINT NOT NULL,
     id VARCHAR NOT NULL,
     kind VARCHAR NOT NULL,
     vessel_id VARCHAR NOT NULL,
     seg_id VARCHAR,
     start_ts TIMESTAMP NOT NULL,
     end_ts TIMESTAMP,
     lat DOUBLE NOT NULL,
     lon DOUBLE NOT NULL,
     lon_min DOUBLE NOT NULL,
     lat_min DOUBLE NOT NULL,
     lon_max DOUBLE NOT NULL,
     lat_max DOUBLE NOT NULL,
     eez VARCHAR[] NOT NULL,
     eez12nm VARCHAR[] NOT NULL,
     fao VARCHAR[] NOT NULL,
     major_fao VARCHAR[] NOT NULL,
     high_seas VARCHAR[] NOT NULL,
     mpa VARCHAR[] NOT NULL,
     mpa_no_take VARCHAR[] NOT NULL,
     mpa_no_take_partial VARCHAR[] NOT NULL,
     rfmo VARCHAR[] NOT NULL,
     start_distance_from_shore_km DOUBLE,
     end_distance_from_shore_km DOUBLE,
     start_distance_from_port_km DOUBLE,
     end_distance_from_port_km DOUBLE,
     vessel_ssvid VARCHAR,
     vessel_name VARCHAR,
     vessel_flag VARCHAR,
     vessel_type VARCHAR,
     vessel_gear_type VARCHAR,
     next_port_id VARCHAR,
     encounter_type VARCHAR,
     port_visit_confidence UTINYINT,
     port_id VARCHAR,
     gap_intentional BOOLEAN,
     event_info VARCHAR NOT NULL,
     event_vessels VARCHAR NOT NULL
   )`,
];

export const CREATE_INDEXES = [`CREATE INDEX IF NOT EXISTS events_id_idx ON events (id)`];
