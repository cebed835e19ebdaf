// The demo's published-events rows (the layout of the public tables), one builder per kind. The
// voyage planner (voyages.ts) decides when and where each event is; these fill in what the
// pipeline reports about it.
import { hash } from 'node:crypto';
import type { EventKind } from '../../domain/kinds.ts';
import type { DemoVessel, Ground } from './fleet.ts';
import { distanceKm, type Geography, type Port } from './geography.ts';
import type { Random } from './random.ts';
import type { Position } from './sea.ts';

export type PublishedRow = Record<string, unknown>;

/** What the row builders read of the demo's world (generate.ts, DemoWorld). */
export interface RowWorld {
  /** The stream the rows' details are drawn from. */
  readonly random: Random;
  readonly geo: Geography;
  readonly toMs: number;
  /** The columns every kind shares; regions are tagged at the mean position. */
  row(kind: EventKind, v: DemoVessel, g: Ground, startMs: number, endMs: number | null, lat: number, lon: number, box: Box, id: string): PublishedRow;
  vesselJson(v: DemoVessel, nextPort: Port | null): Record<string, unknown>;
  /** A point near a port but off the land polygons. */
  nearPort(p: Port): Position;
  authorizationStatus(v: DemoVessel, row: PublishedRow): string;
}

/** A carrier meeting a fishing vessel (meetings.ts plans them): when, where, and each one's next port. */
export interface Meeting {
  carrier: DemoVessel;
  partner: DemoVessel;
  startMs: number;
  endMs: number;
  at: Position;
  carrierPort: Port;
  partnerPort: Port;
}
export type Box = [number, number, number, number];
export interface Span { startMs: number; endMs: number }

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
const TEN_MINUTES = 600_000;

export function eventId(kind: string, vesselId: string, startMs: number, endMs: number | null): string {
  // The one-shot hash: creating a Hash object per row costs more than the digest itself.
  return hash('md5', `${kind}|${vesselId}|${isoTime(startMs)}|${endMs === null ? '' : isoTime(endMs)}`);
}

// A row formats its start and end several times (its id, seg_id, event_start, event_end): the
// last two formatted instants are kept.
let isoCache: [number, string, number, string] = [NaN, '', NaN, ''];
export function isoTime(ms: number): string {
  if (ms === isoCache[0]) return isoCache[1];
  if (ms === isoCache[2]) return isoCache[3];
  const text = new Date(ms).toISOString();
  isoCache = [ms, text, isoCache[0], isoCache[1]];
  return text;
}

export const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const inEez = (row: PublishedRow) => (row['regions_mean_position'] as { eez: string[] }).eez.length > 0;

/** A box's corners held within the globe's coordinates, as the loader requires of every row. */
export function inGlobe([lon0, lat0, lon1, lat1]: Box): Box {
  const lonIn = (x: number) => Math.max(-180, Math.min(180, x));
  const latIn = (y: number) => Math.max(-90, Math.min(90, y));
  return [lonIn(lon0), latIn(lat0), lonIn(lon1), latIn(lat1)];
}

/** The box an event's track spans around its position. */
export function boxAround(lat: number, lon: number, half: () => number): Box {
  return inGlobe([round(lon - half(), 4), round(lat - half(), 4), round(lon + half(), 4), round(lat + half(), 4)]);
}

/** How long the pipeline's events of each kind last, as in the public data. */
export const durations = {
  /** Median about 8 h; the pipeline reports nothing shorter than 20 minutes. */
  fishing: (r: Random) => Math.max(20 * 60_000, r.logNormal(8 * HOUR, 0.8)),
  /** Most visits last hours to days; a long tail lasts months. */
  portVisit: (r: Random) => (r.chance(0.03) ? r.between(30, 200) * DAY : Math.max(HOUR, r.logNormal(30 * HOUR, 0.9))),
  loitering: (r: Random) => Math.max(HOUR, r.logNormal(10 * HOUR, 0.9)),
  /** At least 2 h, median about 5 h, on a 10-minute grid. */
  encounter: (r: Random) => Math.max(2 * HOUR, Math.round(r.logNormal(5 * HOUR, 0.5) / TEN_MINUTES) * TEN_MINUTES),
  /** Intentional disabling is only flagged for gaps of 12 h or more. */
  gap: (r: Random, intentional: boolean) => (intentional ? Math.max(12 * HOUR, r.logNormal(30 * HOUR, 0.7)) : Math.max(2 * HOUR, r.logNormal(9 * HOUR, 0.7))),
};

/** Instants on whole seconds, as the pipeline writes them; never earlier than asked. */
export const wholeSecond = (ms: number) => Math.ceil(ms / 1000) * 1000;
export const onTenMinutes = (ms: number) => Math.ceil(ms / TEN_MINUTES) * TEN_MINUTES;

export function fishingRow(w: RowWorld, v: DemoVessel, { startMs: s, endMs: e }: Span, { lat, lon }: Position, g: Ground = v.ground): PublishedRow {
  const r = w.random;
  const row = w.row('fishing', v, g, s, e, lat, lon, boxAround(lat, lon, () => r.between(0, 0.05)), eventId('fishing', v.id, s, e));
  const speed = round(r.between(1.2, 4.5), 3);
  row['event_info'] = {
    total_distance_km: round((speed * 1.852 * (e - s)) / HOUR, 3),
    average_speed_knots: speed,
    average_duration_hours: round((e - s) / HOUR, 3),
    // A risk where a vessel fishes on the high seas without a matching listed authorization.
    potential_risk: !inEez(row) && w.authorizationStatus(v, row) !== 'matching_relevant_public_authorization' && r.chance(0.5),
    vessel_public_authorization_status: w.authorizationStatus(v, row),
  };
  row['event_vessels'] = [w.vesselJson(v, null)];
  return row;
}

export function portVisitRow(w: RowWorld, v: DemoVessel, { startMs: s, endMs: e }: Span, port: Port, options: { confidence?: number; id?: string } = {}): PublishedRow {
  const r = w.random;
  const anchorage = () => {
    const at = w.nearPort(port);
    return {
      anchorage_id: r.hex(8), at_dock: r.chance(0.6), distance_from_shore_km: r.int(0, 3), flag: port.flag, id: port.id,
      lat: at.lat, lon: at.lon, name: port.name, top_destination: port.name,
    };
  };
  const [start, middle, end] = [anchorage(), anchorage(), anchorage()];
  const lat = round(middle.lat, 4);
  const lon = round(middle.lon, 4);
  const id = options.id ?? eventId('port_visit', v.id, s, e);
  const row = w.row('port_visit', v, v.ground, s, e, lat, lon, [round(start.lon, 4), round(start.lat, 4), round(end.lon, 4), round(end.lat, 4)], id);
  Object.assign(row, { start_distance_from_port_km: 0, end_distance_from_port_km: 0 });
  row['event_info'] = {
    visit_id: hash('md5', `visit|${id}`),
    // Confidence 4 : 3 : 2 about 78 : 9 : 13 %.
    confidence: options.confidence ?? r.weighted([[4, 78], [3, 9], [2, 13]] as const),
    duration_hrs: round((e - s) / HOUR, 6),
    start_anchorage: start,
    intermediate_anchorage: middle,
    end_anchorage: end,
  };
  row['event_vessels'] = [w.vesselJson(v, null)];
  return row;
}

/** A gap from `off` to `on`; an open gap (no end yet) has no `on`. */
export function gapRow(w: RowWorld, v: DemoVessel, startMs: number, endMs: number | null, off: Position, on: Position | null, intentional: boolean): PublishedRow {
  const r = w.random;
  const end = on ?? off;
  const lat = round((off.lat + end.lat) / 2, 4);
  const lon = round((off.lon + end.lon) / 2, 4);
  const row = w.row('gap', v, v.ground, startMs, endMs, lat, lon, [off.lon, off.lat, end.lon, end.lat], eventId('gap', v.id, startMs, endMs));
  if (endMs === null) {
    row['end_distance_from_shore_km'] = null;
    row['end_distance_from_port_km'] = null;
  }
  const hours = ((endMs ?? w.toMs) - startMs) / HOUR;
  const distance = round(distanceKm(off.lon, off.lat, end.lon, end.lat), 6);
  row['event_info'] = {
    intentional_disabling: intentional,
    distance_km: on ? distance : null,
    duration_hours: round(hours, 2),
    implied_speed_knots: on ? round(distance / 1.852 / hours, 6) : null,
    positions_12_hours_before_sat: r.int(3, 40),
    positions_per_day_sat_reception: round(r.between(20, 150), 6),
    off_position: off,
    on_position: on,
  };
  row['event_vessels'] = [w.vesselJson(v, null)];
  return row;
}

/** A loitering; its next port is set once the voyage knows where it ends (`withNextPort`). */
export function loiteringRow(w: RowWorld, v: DemoVessel, { startMs: s, endMs: e }: Span, { lat, lon }: Position): PublishedRow {
  const r = w.random;
  const row = w.row('loitering', v, v.ground, s, e, lat, lon, boxAround(lat, lon, () => 0.02), eventId('loitering', v.id, s, e));
  const speed = round(r.between(0.05, 1.5), 6);
  row['event_info'] = {
    total_time_hours: round((e - s) / HOUR, 6),
    total_distance_km: round((speed * 1.852 * (e - s)) / HOUR, 6),
    average_speed_knots: speed,
    average_distance_from_shore_km: round(w.geo.land.distanceFromShoreKm(lon, lat), 3),
  };
  row['event_vessels'] = [w.vesselJson(v, null)];
  return row;
}

export function withNextPort(w: RowWorld, row: PublishedRow, v: DemoVessel, port: Port | null): void {
  row['event_vessels'] = [w.vesselJson(v, port)];
}

// Encounter types use the interface's vessel-class words (docs/api.md, "Encounter types"); other types are non-fishing.
function encounterSide(type: string): string {
  return ['fishing', 'carrier', 'support', 'bunker', 'research', 'tanker'].includes(type) ? type : 'non_fishing';
}

/** A meeting's two rows, `.1` and `.2`, each from its own vessel's point of view. */
export function encounterRows(w: RowWorld, m: Meeting): PublishedRow[] {
  const r = w.random;
  const { carrier: a, partner: b, startMs: s, endMs: e } = m;
  const { lat, lon } = m.at;
  const g = a.ground;
  const box = boxAround(lat, lon, () => 0.005);
  const baseId = eventId('encounter', a.id, s, e);
  const shared = { median_distance_kilometers: round(r.between(0.01, 0.49), 3), median_speed_knots: round(r.between(0.1, 1.9), 3) };
  const vessels = [w.vesselJson(a, m.carrierPort), w.vesselJson(b, m.partnerPort)];
  return ([[a, b, 1], [b, a, 2]] as const).map(([main, other, n]) => {
    const row = w.row('encounter', main, g, s, e, lat, lon, box, `${baseId}.${n}`);
    row['event_info'] = {
      ...shared,
      type: `${encounterSide(main.type)}-${encounterSide(other.type)}`,
      potential_risk: !inEez(row) && r.chance(0.2),
      main_vessel_public_authorization_status: w.authorizationStatus(main, row),
      encountered_vessel_public_authorization_status: w.authorizationStatus(other, row),
    };
    row['event_vessels'] = vessels;
    return row;
  });
}

