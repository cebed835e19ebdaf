// The stored record on PostgreSQL (`raw=true`, src/shape/raw.ts; the vessel identities,
// identity-table.ts): the columns the filters read hold most of it, and these hold the rest, as the
// DuckDB engine's typed columns do. Layouts before 4 kept the whole record as one JSON text beside
// the entry, some 1.1 KB a row that repeated the region lists and the vessel in full with their
// keys; COPY wrote and compressed it for every row, and an update moved it with every row it hid
// (docs/performance.md, "The PostgreSQL engine: the record in columns").
import { recordFromRow, RECORD_ROW_COLUMNS } from '../record-row.ts';
import { DISTANCE_FIELDS, type EventRecord } from '../../domain/record.ts';

/**
 * The record's columns that the filters' columns (schema.ts) leave out. The nested parts are JSON
 * as the loader wrote them: json, not jsonb, keeps their keys' order and the \u0000 a name may hold.
 */
export const RECORD_COLUMNS: readonly (readonly [string, string])[] = [
  ['seg_id', 'text'],
  ['lon_min', 'double precision'],
  ['lat_min', 'double precision'],
  ['lon_max', 'double precision'],
  ['lat_max', 'double precision'],
  ...DISTANCE_FIELDS.map((d) => [d.source, 'double precision'] as const),
  ['vessel_ssvid', 'text'],
  ['vessel_name', 'text'],
  ['vessel_authorizations', 'json'],
  // The next port as loaded (null, or its id, name and flag, any of them null), where
  // next_port_id, next_port_name and next_port_flag cannot tell an absent port from one of nulls.
  ['next_port', 'json'],
  ['other_vessel', 'json'],
  // The kind's event_info block, its keys as loaded.
  ['info', 'json'],
];

/** The record's JSON columns: long enough to be compressed as the entry is (schema.ts). */
export const RECORD_JSON_COLUMNS = RECORD_COLUMNS.filter(([, type]) => type === 'json').map(([name]) => name);

const MILLISECONDS = (ts: string) => `floor(extract(epoch FROM ${ts}) * 1000)::float8`;

/** The SELECT list of a row's record, for recordOfRow. */
export const RECORD_SELECT = [...RECORD_ROW_COLUMNS, 'info'].map((c) => (c === 'start_ms' ? MILLISECONDS('start_ts') : c === 'end_ms' ? MILLISECONDS('end_ts') : c)).join(', ');

/** The record of a row of RECORD_SELECT (pg parses json and text[] into JS values). */
export const recordOfRow = (row: readonly unknown[]): EventRecord => recordFromRow(row, (at) => row[at]);
