// The field registry of the read side: the SELECT list and the row -> EventRecord mapping, in one
// place. Values arrive as JS values (structs as objects, lists as arrays).
import { DISTANCE_FIELDS, type EventRecord, type StoredVessel } from '../../domain/record.ts';
import { REGION_MEMBERS } from '../../domain/regions.ts';
import { EVENT_KINDS, type EventKind } from '../../domain/kinds.ts';

/** Timestamps leave the engine as epoch milliseconds: cheap to convert and exact to the ms. */
const COMMON_COLUMNS = [
  'id', 'kind', 'seg_id', 'epoch_ms(start_ts)::DOUBLE', 'epoch_ms(end_ts)::DOUBLE', 'lat', 'lon', 'lon_min', 'lat_min', 'lon_max', 'lat_max',
  ...REGION_MEMBERS.map((m) => m.column),
  'start_distance_from_shore_km', 'end_distance_from_shore_km', 'start_distance_from_port_km', 'end_distance_from_port_km',
  'vessel_id', 'vessel_ssvid', 'vessel_name', 'vessel_flag', 'vessel_type', 'vessel_gear_type', 'vessel_authorizations', 'next_port',
  'other_vessel',
];

/**
 * The SELECT list for rows of some kinds. The kind blocks come last: exactly one of these struct
 * columns is set on each row, and the blocks of kinds the query cannot return are read as NULL,
 * because every column read costs a decompression per vector it touches (the port-visit block,
 * with its nested anchorages, costs as much as ten plain columns).
 */
export function selectColumns(kinds: Iterable<EventKind>): string {
  const wanted = new Set(kinds);
  return [...COMMON_COLUMNS, ...EVENT_KINDS.map((k) => (wanted.has(k) ? k : 'NULL'))].join(', ');
}

export const SELECT_COLUMNS = selectColumns(EVENT_KINDS);

export function toRecord(row: readonly unknown[]): EventRecord {
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
  const info = row[i + EVENT_KINDS.indexOf(head.kind)] as Record<string, unknown>;
  return { ...head, regions, distances, vessel, otherVessel, info };
}
