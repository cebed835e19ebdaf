// fromPublishedRow: one row of GFW's published-events layout (decisions section 9) -> EventRecord,
// with every field checked. toPublishedRow is its inverse, served by `raw=true`.
import { EVENT_KINDS, isEventKind, type EventKind } from '../query/kinds.ts';
import { EVENT_INFO_FIELDS, describeType, isObjectField, readScalar, type InfoField } from './event-info.ts';
import { DISTANCE_FIELDS, REGION_MEMBERS, type EventRecord, type Regions, type SourceVessel } from './record.ts';

/** A row that cannot be loaded; `field` names the published-row column at fault. */
export class RowError extends Error {
  constructor(
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${field}: ${detail}`);
  }
}

type Row = Record<string, unknown>;

export function fromPublishedRow(input: unknown, datasetKind?: EventKind): EventRecord {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new RowError('row', 'must be a JSON object');
  const row = input as Row;
  const kind = readKind(row, datasetKind);
  const startMs = readTimestamp(row, 'event_start', true)!;
  const endMs = readTimestamp(row, 'event_end', false);
  if (endMs !== null && endMs < startMs) throw new RowError('event_end', 'must not be before event_start');
  const lat = readNumber(row, 'lat_mean', true, -90, 90)!;
  const lon = readNumber(row, 'lon_mean', true, -180, 180)!;
  const info = readJson(row, 'event_info', 'object') as Row;
  const vessels = readVessels(row);
  const vesselId = readString(row, 'entity_id', true)!;
  const main = vessels.find((v) => v.id === vesselId);
  if (!main) throw new RowError('event_vessels', `must contain the vessel of entity_id "${vesselId}"`);
  if (kind === 'encounter' && vessels.length !== 2) throw new RowError('event_vessels', 'an encounter row must list exactly two vessels');
  checkEventInfo(kind, info);

  const distances = Object.fromEntries(
    DISTANCE_FIELDS.map((d) => [d.member, readNumber(row, d.source, false)]),
  ) as EventRecord['distances'];
  const anchorage = (info['intermediate_anchorage'] ?? null) as Row | null;

  return {
    id: readEntryId(row, kind, vessels, vesselId),
    kind,
    vesselId,
    segId: readString(row, 'seg_id', false),
    startMs,
    endMs,
    lat,
    lon,
    lonMin: readNumber(row, 'lon_min', false, -180, 180) ?? lon,
    latMin: readNumber(row, 'lat_min', false, -90, 90) ?? lat,
    lonMax: readNumber(row, 'lon_max', false, -180, 180) ?? lon,
    latMax: readNumber(row, 'lat_max', false, -90, 90) ?? lat,
    regions: readRegions(row),
    distances,
    vesselSsvid: main.ssvid ?? null,
    vesselName: main.name ?? null,
    vesselFlag: main.flag ? main.flag.toUpperCase() : null,
    vesselType: main.type ? main.type.toLowerCase() : null,
    vesselGearType: main.gear_type ?? null,
    nextPortId: main.next_port?.id ?? null,
    encounterType: kind === 'encounter' ? String(info['type']).toLowerCase() : null,
    portVisitConfidence: kind === 'port_visit' ? Number(info['confidence']) : null,
    portId: anchorage && typeof anchorage['id'] === 'string' ? anchorage['id'] : null,
    // checkEventInfo has accepted only true/false or their strings here.
    gapIntentional: kind === 'gap' ? String(info['intentional_disabling']) === 'true' : null,
    eventInfo: typeof row['event_info'] === 'string' ? (row['event_info'] as string) : JSON.stringify(row['event_info']),
    eventVessels: typeof row['event_vessels'] === 'string' ? (row['event_vessels'] as string) : JSON.stringify(row['event_vessels']),
  };
}

/** The stored record back in the published-events layout, as `raw=true` returns it. */
export function toPublishedRow(r: EventRecord): Record<string, unknown> {
  return {
    event_id: r.id,
    event_type: r.kind,
    entity_id: r.vesselId,
    seg_id: r.segId,
    event_start: new Date(r.startMs).toISOString(),
    event_end: r.endMs === null ? null : new Date(r.endMs).toISOString(),
    lat_mean: r.lat,
    lon_mean: r.lon,
    lat_min: r.latMin,
    lat_max: r.latMax,
    lon_min: r.lonMin,
    lon_max: r.lonMax,
    regions_mean_position: Object.fromEntries(REGION_MEMBERS.map((m) => [m.source, r.regions[m.member]])),
    ...Object.fromEntries(DISTANCE_FIELDS.map((d) => [d.source, r.distances[d.member]])),
    event_info: r.eventInfo,
    event_vessels: r.eventVessels,
  };
}

function readKind(row: Row, datasetKind: EventKind | undefined): EventKind {
  const value = row['event_type'];
  if (value === undefined || value === null || value === '') {
    if (datasetKind) return datasetKind;
    throw new RowError('event_type', `is missing; give it in the row or choose the dataset with --dataset`);
  }
  const kind = String(value).toLowerCase();
  if (!isEventKind(kind)) throw new RowError('event_type', `must be one of ${EVENT_KINDS.join(', ')}, got ${JSON.stringify(value)}`);
  if (datasetKind && kind !== datasetKind) throw new RowError('event_type', `is "${kind}" but the dataset chosen holds ${datasetKind} events`);
  return kind;
}

/** Encounter rows may carry the base id; the entry id is then suffixed by the vessel's position. */
function readEntryId(row: Row, kind: EventKind, vessels: SourceVessel[], vesselId: string): string {
  const id = readString(row, 'event_id', true)!;
  if (kind !== 'encounter' || /\.[12]$/.test(id)) return id;
  return `${id}.${vessels.findIndex((v) => v.id === vesselId) + 1}`;
}

function readString(row: Row, field: string, required: boolean): string | null {
  const v = row[field];
  if (v === undefined || v === null || v === '') {
    if (required) throw new RowError(field, 'is required');
    return null;
  }
  if (typeof v !== 'string' && typeof v !== 'number') throw new RowError(field, `must be a string, got ${JSON.stringify(v)}`);
  return String(v);
}

function readNumber(row: Row, field: string, required: boolean, min = -Infinity, max = Infinity): number | null {
  const v = row[field];
  if (v === undefined || v === null || v === '') {
    if (required) throw new RowError(field, 'is required');
    return null;
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n) || n < min || n > max) throw new RowError(field, `must be a number in [${min}, ${max}], got ${JSON.stringify(v)}`);
  return n;
}

// BigQuery exports write `2020-01-01 02:03:04.000 UTC`; everything else writes ISO 8601.
function readTimestamp(row: Row, field: string, required: boolean): number | null {
  const v = row[field];
  if (v === undefined || v === null || v === '') {
    if (required) throw new RowError(field, 'is required');
    return null;
  }
  if (typeof v !== 'string') throw new RowError(field, `must be an ISO 8601 timestamp, got ${JSON.stringify(v)}`);
  const text = v.trim().replace(/ UTC$/, 'Z').replace(' ', 'T');
  const ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`);
  if (Number.isNaN(ms)) throw new RowError(field, `must be an ISO 8601 timestamp, got ${JSON.stringify(v)}`);
  return ms;
}

function readJson(row: Row, field: string, shape: 'object' | 'array'): unknown {
  let v = row[field];
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      throw new RowError(field, 'must be valid JSON');
    }
  }
  const ok = shape === 'array' ? Array.isArray(v) : typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!ok) throw new RowError(field, `must be a JSON ${shape}${typeof row[field] === 'string' ? ' (or a string holding one)' : ''}`);
  return v;
}

function readVessels(row: Row): SourceVessel[] {
  const list = readJson(row, 'event_vessels', 'array') as unknown[];
  if (list.length === 0) throw new RowError('event_vessels', 'must list at least one vessel');
  list.forEach((v, i) => {
    if (typeof v !== 'object' || v === null || typeof (v as Row)['id'] !== 'string' || (v as Row)['id'] === '') {
      throw new RowError('event_vessels', `element ${i} must be an object with a string id`);
    }
    for (const key of ['ssvid', 'name', 'flag', 'type', 'gear_type'] as const) {
      const value = (v as Row)[key];
      if (value !== undefined && value !== null && typeof value !== 'string') {
        throw new RowError('event_vessels', `element ${i}: ${key} must be a string or null`);
      }
    }
    const next = (v as Row)['next_port'];
    if (next !== undefined && next !== null && (typeof next !== 'object' || typeof (next as Row)['id'] !== 'string')) {
      throw new RowError('event_vessels', `element ${i}: next_port must be null or an object with a string id`);
    }
    const auths = (v as Row)['public_authorizations'];
    if (auths !== undefined && auths !== null && !Array.isArray(auths)) {
      throw new RowError('event_vessels', `element ${i}: public_authorizations must be an array`);
    }
  });
  return list as SourceVessel[];
}

function readRegions(row: Row): Regions {
  const raw = row['regions_mean_position'];
  const obj = raw === undefined || raw === null || raw === '' ? {} : (readJson(row, 'regions_mean_position', 'object') as Row);
  const regions = {} as Regions;
  for (const m of REGION_MEMBERS) {
    const list = obj[m.source] ?? [];
    if (!Array.isArray(list) || list.some((id) => typeof id !== 'string' && typeof id !== 'number')) {
      throw new RowError('regions_mean_position', `${m.source} must be an array of region ids`);
    }
    regions[m.member] = list.map(String);
  }
  return regions;
}

function checkEventInfo(kind: EventKind, info: Row): void {
  const check = (fields: InfoField[], obj: Row, prefix: string) => {
    for (const f of fields) {
      const value = obj[f.source];
      if (isObjectField(f)) {
        if (value === undefined || value === null) {
          if (f.required) throw new RowError('event_info', `${prefix}${f.source} is required for ${kind} events`);
          continue;
        }
        if (typeof value !== 'object' || Array.isArray(value)) throw new RowError('event_info', `${prefix}${f.source} must be an object`);
        check(f.fields, value as Row, `${prefix}${f.source}.`);
      } else if (!readScalar(f, value).ok) {
        throw new RowError(
          'event_info',
          value === undefined || value === null || value === ''
            ? `${prefix}${f.source} is required for ${kind} events`
            : `${prefix}${f.source} must be ${describeType(f)}, got ${JSON.stringify(value)}`,
        );
      }
    }
  };
  check(EVENT_INFO_FIELDS[kind], info, '');
  if (kind === 'port_visit' && ![2, 3, 4].includes(Number(info['confidence']))) {
    throw new RowError('event_info', `confidence must be 2, 3 or 4, got ${JSON.stringify(info['confidence'])}`);
  }
}
