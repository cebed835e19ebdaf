// The field registry: the only place that knows column names. Reading turns a DuckDB row (as JS
// values, in SELECT_COLUMNS order) into an EventRecord; writing appends a record in the same order.
import type { DuckDBAppender } from '@duckdb/node-api';
import { listValue, DuckDBTimestampValue, LIST, VARCHAR } from '@duckdb/node-api';
import { DISTANCE_FIELDS, REGION_MEMBERS, type EventRecord } from '../../data/record.ts';
import type { EventKind } from '../../query/kinds.ts';

const DISTANCE_COLUMNS = ['start_distance_from_shore_km', 'end_distance_from_shore_km', 'start_distance_from_port_km', 'end_distance_from_port_km'];

/** Columns after version_id, in table order (the appender writes them in this order). */
export const RECORD_COLUMNS = [
  'id', 'kind', 'vessel_id', 'seg_id', 'start_ts', 'end_ts', 'lat', 'lon', 'lon_min', 'lat_min', 'lon_max', 'lat_max',
  ...REGION_MEMBERS.map((m) => m.column),
  ...DISTANCE_COLUMNS,
  'vessel_ssvid', 'vessel_name', 'vessel_flag', 'vessel_type', 'vessel_gear_type', 'next_port_id',
  'encounter_type', 'port_visit_confidence', 'port_id', 'gap_intentional', 'event_info', 'event_vessels',
];

/** Timestamps leave the engine as epoch milliseconds: cheap to convert and exact to the ms. */
export const SELECT_COLUMNS = RECORD_COLUMNS.map((c) =>
  c === 'start_ts' || c === 'end_ts' ? `epoch_ms(${c})::DOUBLE AS ${c}` : c,
).join(', ');

export function toRecord(row: readonly unknown[]): EventRecord {
  let i = 0;
  const next = () => row[i++];
  const record = {
    id: next() as string,
    kind: next() as EventKind,
    vesselId: next() as string,
    segId: next() as string | null,
    startMs: next() as number,
    endMs: next() as number | null,
    lat: next() as number,
    lon: next() as number,
    lonMin: next() as number,
    latMin: next() as number,
    lonMax: next() as number,
    latMax: next() as number,
    regions: {} as EventRecord['regions'],
    distances: {} as EventRecord['distances'],
  } as EventRecord;
  for (const m of REGION_MEMBERS) record.regions[m.member] = next() as string[];
  for (const d of DISTANCE_FIELDS) record.distances[d.member] = next() as number | null;
  record.vesselSsvid = next() as string | null;
  record.vesselName = next() as string | null;
  record.vesselFlag = next() as string | null;
  record.vesselType = next() as string | null;
  record.vesselGearType = next() as string | null;
  record.nextPortId = next() as string | null;
  record.encounterType = next() as string | null;
  record.portVisitConfidence = next() as number | null;
  record.portId = next() as string | null;
  record.gapIntentional = next() as boolean | null;
  record.eventInfo = next() as string;
  record.eventVessels = next() as string;
  return record;
}

const micros = (ms: number) => new DuckDBTimestampValue(BigInt(Math.round(ms)) * 1000n);

export function appendRecord(appender: DuckDBAppender, versionId: number, r: EventRecord): void {
  const text = (v: string | null) => (v === null ? appender.appendNull() : appender.appendVarchar(v));
  const double = (v: number | null) => (v === null ? appender.appendNull() : appender.appendDouble(v));
  appender.appendUSmallInt(versionId);
  text(r.id);
  text(r.kind);
  text(r.vesselId);
  text(r.segId);
  appender.appendTimestamp(micros(r.startMs));
  if (r.endMs === null) appender.appendNull();
  else appender.appendTimestamp(micros(r.endMs));
  for (const v of [r.lat, r.lon, r.lonMin, r.latMin, r.lonMax, r.latMax]) appender.appendDouble(v);
  for (const m of REGION_MEMBERS) appender.appendList(listValue(r.regions[m.member]), LIST(VARCHAR));
  for (const d of DISTANCE_FIELDS) double(r.distances[d.member]);
  for (const v of [r.vesselSsvid, r.vesselName, r.vesselFlag, r.vesselType, r.vesselGearType, r.nextPortId, r.encounterType]) text(v);
  if (r.portVisitConfidence === null) appender.appendNull();
  else appender.appendUTinyInt(r.portVisitConfidence);
  text(r.portId);
  if (r.gapIntentional === null) appender.appendNull();
  else appender.appendBoolean(r.gapIntentional);
  text(r.eventInfo);
  text(r.eventVessels);
  appender.endRow();
}
