// The stored form of one entry: typed columns for everything a filter, sort or response needs,
// plus the source `event_info` and `event_vessels` strings exactly as loaded.
import type { EventKind } from './kinds.ts';
import type { Regions } from './regions.ts';

/** `distances` members (docs/api.md, "Entry"), which are also the published-row keys in snake_case. */
export const DISTANCE_FIELDS = [
  { member: 'startDistanceFromShoreKm', source: 'start_distance_from_shore_km' },
  { member: 'endDistanceFromShoreKm', source: 'end_distance_from_shore_km' },
  { member: 'startDistanceFromPortKm', source: 'start_distance_from_port_km' },
  { member: 'endDistanceFromPortKm', source: 'end_distance_from_port_km' },
] as const;
export type DistanceMember = (typeof DISTANCE_FIELDS)[number]['member'];

/** A vessel as stored (source layout, snake_case), e.g. an encounter's other vessel. */
export interface StoredVessel {
  id: string;
  ssvid: string | null;
  name: string | null;
  flag: string | null;
  type: string | null;
  gear_type: string | null;
  public_authorizations: { has_publicly_listed_authorization: string | null; rfmo: string | null }[] | null;
  next_port: { id: string | null; name: string | null; flag: string | null } | null;
}

/** The stored form of one entry: typed columns for everything a filter, sort or response needs. */
export interface EventRecord {
  id: string;
  kind: EventKind;
  segId: string | null;
  startMs: number;
  /** null while the event is open (a gap whose AIS is not back on yet). */
  endMs: number | null;
  lat: number;
  lon: number;
  lonMin: number;
  latMin: number;
  lonMax: number;
  latMax: number;
  regions: Regions;
  distances: Record<DistanceMember, number | null>;
  /** The entry's own vessel (`entity_id`); flag upper case, type lower case. */
  vessel: StoredVessel;
  /** An encounter's other vessel; null for other kinds. */
  otherVessel: StoredVessel | null;
  /** The kind's event_info, typed, with its source (snake_case) keys. */
  info: Record<string, unknown>;
}
