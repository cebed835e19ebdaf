// The stored record (src/domain/record.ts) from a row of its columns, in the one order both engines
// select them in: the record's fields as the columns hold them, then its kind's event_info, which
// each engine holds its own way (DuckDB a struct column per kind, PostgreSQL one JSON column).
// Values arrive as JS values (structs and JSON as objects, lists as arrays), timestamps as epoch
// milliseconds.
import { DISTANCE_FIELDS, type EventRecord, type StoredVessel } from '../domain/record.ts';
import { REGION_MEMBERS } from '../domain/regions.ts';
import type { EventKind } from '../domain/kinds.ts';

/**
 * The record's columns in the order recordFromRow reads them, named as both engines name them;
 * `start_ms` and `end_ms` are each engine's epoch milliseconds of start_ts and end_ts.
 */
export const RECORD_ROW_COLUMNS = [
  'id', 'kind', 'seg_id', 'start_ms', 'end_ms', 'lat', 'lon', 'lon_min', 'lat_min', 'lon_max', 'lat_max',
  ...REGION_MEMBERS.map((m) => m.column),
  ...DISTANCE_FIELDS.map((d) => d.source),
  'vessel_id', 'vessel_ssvid', 'vessel_name', 'vessel_flag', 'vessel_type', 'vessel_gear_type', 'vessel_authorizations', 'next_port',
  'other_vessel',
] as const;

/**
 * The record of a row of RECORD_ROW_COLUMNS followed by whatever its engine selects for event_info;
 * `info` picks the kind's block from that rest (`at`: the index where the rest begins).
 */
export function recordFromRow(row: readonly unknown[], info: (at: number, kind: EventKind) => unknown): EventRecord {
  let i = 0;
  const next = () => row[i++];
  const head = {
    id: next() as string,
    kind: next() as EventKind,
    segId: next() as string | null,
    startMs: next() as number,
    endMs: next() as number | null,
    lat: next() as number,
    lon: next() as number,
    lonMin: next() as number,
    latMin: next() as number,
    lonMax: next() as number,
    latMax: next() as number,
  };
  const regions = {} as EventRecord['regions'];
  for (const m of REGION_MEMBERS) regions[m.member] = next() as string[];
  const distances = {} as EventRecord['distances'];
  for (const d of DISTANCE_FIELDS) distances[d.member] = next() as number | null;
  const vessel: StoredVessel = {
    id: next() as string,
    ssvid: next() as string | null,
    name: next() as string | null,
    flag: next() as string | null,
    type: next() as string | null,
    gear_type: next() as string | null,
    public_authorizations: next() as StoredVessel['public_authorizations'],
    next_port: next() as StoredVessel['next_port'],
  };
  const otherVessel = next() as StoredVessel | null;
  return { ...head, regions, distances, vessel, otherVessel, info: info(i, head.kind) as Record<string, unknown> };
}
