// The demo data generator: published-events rows (decisions section 9) for all five kinds, every
// field filled, identical for a seed. The rows go through the same loader as real data.
import { createHash } from 'node:crypto';
import type { EventKind } from '../../query/kinds.ts';
import { distanceKm, Geography, type Port } from './geography.ts';
import { GROUNDS, makeFleet, type DemoVessel, type Ground } from './fleet.ts';
import { Random } from './random.ts';
import { clientExampleRows } from './client-examples.ts';

export interface DemoOptions {
  events: number;
  seed: number;
  fromMs?: number;
  toMs?: number;
}

const HOUR = 3_600_000;
/** Kind mix of the public data: fishing : port visits : gaps : encounter entries : loitering. */
const MIX: Record<EventKind, number> = { fishing: 100, port_visit: 25, gap: 8, encounter: 1.5, loitering: 1 };

export type PublishedRow = Record<string, unknown>;

export function eventId(kind: string, vesselId: string, startMs: number, endMs: number | null): string {
  return createHash('md5').update(`${kind}|${vesselId}|${new Date(startMs).toISOString()}|${endMs === null ? '' : new Date(endMs).toISOString()}`).digest('hex');
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export class DemoWorld {
  readonly geo = new Geography();
  readonly random: Random;
  readonly fleet: DemoVessel[];
  private readonly groundPorts = new Map<Ground, Port[]>();
  readonly fromMs: number;
  readonly toMs: number;

  constructor(options: DemoOptions) {
    this.random = new Random(options.seed);
    this.fromMs = options.fromMs ?? Date.UTC(2017, 0, 1);
    this.toMs = options.toMs ?? Date.UTC(2025, 0, 1);
    this.fleet = makeFleet(this.random, Math.max(60, Math.round(options.events / 60)));
    for (const g of GROUNDS) this.groundPorts.set(g, this.geo.portsNear(g.lon, g.lat, 25));
  }

  ports(g: Ground): Port[] {
    return this.groundPorts.get(g)!;
  }

  positionIn(g: Ground): { lat: number; lon: number } {
    return { lat: round(g.lat + this.random.between(-g.spread, g.spread), 4), lon: round(g.lon + this.random.between(-g.spread, g.spread), 4) };
  }

  /** Distance to the nearest port of the ground, km: the demo's stand-in for the coastline. */
  shoreKm(g: Ground, lon: number, lat: number): number {
    return Math.min(...this.ports(g).map((p) => distanceKm(lon, lat, p.lon, p.lat)));
  }

  vesselJson(v: DemoVessel, nextPort: Port | null): Record<string, unknown> {
    return {
      id: v.id, ssvid: v.ssvid, name: v.name, flag: v.flag, type: v.type, gear_type: v.gear_type,
      public_authorizations: v.public_authorizations,
      next_port: nextPort ? { id: nextPort.id, name: nextPort.name, flag: nextPort.flag } : null,
    };
  }

  /** The columns every kind shares, tagged at the mean position. */
  row(kind: EventKind, v: DemoVessel, g: Ground, startMs: number, endMs: number | null, lat: number, lon: number, box: [number, number, number, number], id: string): PublishedRow {
    const shore = this.shoreKm(g, lon, lat);
    const portKm = Math.min(...this.ports(g).map((p) => distanceKm(box[0], box[1], p.lon, p.lat)));
    const endPortKm = Math.min(...this.ports(g).map((p) => distanceKm(box[2], box[3], p.lon, p.lat)));
    const regions = this.geo.regionsAt(lon, lat, shore);
    return {
      event_id: id,
      event_type: kind,
      entity_id: v.id,
      seg_id: `${v.ssvid}-${new Date(startMs).toISOString().slice(0, 10)}T00:00:00.000000Z-1`,
      event_start: new Date(startMs).toISOString(),
      event_end: endMs === null ? null : new Date(endMs).toISOString(),
      lat_mean: lat,
      lon_mean: lon,
      lon_min: box[0],
      lat_min: box[1],
      lon_max: box[2],
      lat_max: box[3],
      regions_mean_position: {
        eez: regions.eez, eez12nm: regions.eez12Nm, fao: regions.fao, major_fao: regions.majorFao, high_seas: regions.highSeas,
        mpa: regions.mpa, mpa_no_take: regions.mpaNoTake, mpa_no_take_partial: regions.mpaNoTakePartial, rfmo: regions.rfmo,
      },
      start_distance_from_shore_km: Math.round(shore),
      end_distance_from_shore_km: Math.round(this.shoreKm(g, box[2], box[3])),
      start_distance_from_port_km: round(portKm, 3),
      end_distance_from_port_km: round(endPortKm, 3),
    };
  }

  authorizationStatus(v: DemoVessel): string {
    const auths = v.public_authorizations ?? [];
    if (auths.length === 0) return 'not_matching_relevant_public_authorization';
    return auths.some((a) => a.has_publicly_listed_authorization === true) ? 'matching_relevant_public_authorization' : 'partially_matching_relevant_public_authorization';
  }

  start(durationMs: number): number {
    return Math.floor(this.random.between(this.fromMs, this.toMs - durationMs) / 1000) * 1000;
  }

  pickVessel(types: readonly string[] | null): DemoVessel {
    const candidates = types ? this.fleet.filter((v) => types.includes(v.type!)) : this.fleet;
    const pool = candidates.length ? candidates : this.fleet;
    return this.random.weighted(pool.map((v) => [v, v.activity] as const));
  }
}

export function fishingRow(w: DemoWorld, v: DemoVessel, startMs?: number, g: Ground = v.ground): PublishedRow {
  const r = w.random;
  const durationMs = Math.max(20 * 60_000, r.logNormal(8 * HOUR, 0.8));
  const s = startMs ?? w.start(durationMs);
  const e = s + Math.round(durationMs / 1000) * 1000;
  const { lat, lon } = w.positionIn(g);
  const box: [number, number, number, number] = [round(lon - r.between(0, 0.2), 4), round(lat - r.between(0, 0.2), 4), round(lon + r.between(0, 0.2), 4), round(lat + r.between(0, 0.2), 4)];
  const row = w.row('fishing', v, g, s, e, lat, lon, box, eventId('fishing', v.id, s, e));
  const inEez = (row['regions_mean_position'] as { eez: string[] }).eez.length > 0;
  const speed = round(r.between(1.2, 4.5), 3);
  row['event_info'] = JSON.stringify({
    total_distance_km: round((speed * 1.852 * (e - s)) / HOUR, 3),
    average_speed_knots: speed,
    average_duration_hours: round((e - s) / HOUR, 3),
    potential_risk: !inEez && r.chance(0.15),
    vessel_public_authorization_status: w.authorizationStatus(v),
  });
  row['event_vessels'] = JSON.stringify([w.vesselJson(v, null)]);
  return row;
}

export function portVisitRow(w: DemoWorld, v: DemoVessel, options: { startMs?: number; port?: Port; confidence?: number; id?: string } = {}): PublishedRow {
  const r = w.random;
  // Most visits last hours to days; a long tail lasts months.
  const durationMs = r.chance(0.03) ? r.between(30, 200) * 24 * HOUR : Math.max(HOUR, r.logNormal(30 * HOUR, 0.9));
  const s = options.startMs ?? w.start(durationMs);
  const e = s + Math.round(durationMs / 1000) * 1000;
  const port = options.port ?? r.pick(w.ports(v.ground).slice(0, 8));
  const anchorage = (p: Port) => ({
    anchorage_id: r.hex(8),
    at_dock: r.chance(0.6),
    distance_from_shore_km: r.int(0, 3),
    flag: p.flag,
    id: p.id,
    lat: round(p.lat + r.between(-0.02, 0.02), 6),
    lon: round(p.lon + r.between(-0.02, 0.02), 6),
    name: p.name,
    top_destination: p.name,
  });
  const start = anchorage(port);
  const middle = anchorage(port);
  const end = anchorage(port);
  const lat = round((start.lat + end.lat) / 2, 4);
  const lon = round((start.lon + end.lon) / 2, 4);
  const id = options.id ?? eventId('port_visit', v.id, s, e);
  const row = w.row('port_visit', v, v.ground, s, e, lat, lon, [round(start.lon, 4), round(start.lat, 4), round(end.lon, 4), round(end.lat, 4)], id);
  row['start_distance_from_shore_km'] = start.distance_from_shore_km;
  row['end_distance_from_shore_km'] = end.distance_from_shore_km;
  row['start_distance_from_port_km'] = 0;
  row['end_distance_from_port_km'] = 0;
  row['event_info'] = JSON.stringify({
    visit_id: createHash('md5').update(`visit|${id}`).digest('hex'),
    confidence: options.confidence ?? r.weighted([[4, 78], [3, 9], [2, 13]] as const),
    duration_hrs: round((e - s) / HOUR, 6),
    start_anchorage: start,
    intermediate_anchorage: middle,
    end_anchorage: end,
  });
  row['event_vessels'] = JSON.stringify([w.vesselJson(v, null)]);
  return row;
}

export function gapRow(w: DemoWorld, v: DemoVessel, options: { startMs?: number; open?: boolean } = {}): PublishedRow {
  const r = w.random;
  const intentional = r.chance(0.55);
  const durationMs = intentional ? Math.max(12 * HOUR, r.logNormal(30 * HOUR, 0.7)) : Math.max(2 * HOUR, r.logNormal(9 * HOUR, 0.7));
  const open = options.open ?? r.chance(0.03);
  const s = options.startMs ?? (open ? Math.floor(r.between(w.toMs - 30 * 24 * HOUR, w.toMs - HOUR) / 1000) * 1000 : w.start(durationMs));
  const e = open ? null : s + Math.round(durationMs / 1000) * 1000;
  // Gaps start far from shore: drawn at the outer edge of the ground.
  const g = v.ground;
  const off = { lat: round(g.lat + g.spread * r.pick([-1, 1]) * r.between(0.7, 1), 4), lon: round(g.lon + g.spread * r.pick([-1, 1]) * r.between(0.7, 1), 4) };
  const distance = round(r.between(5, 120), 6);
  const on = { lat: round(off.lat + r.between(-0.5, 0.5), 4), lon: round(off.lon + r.between(-0.5, 0.5), 4) };
  const lat = round((off.lat + on.lat) / 2, 4);
  const lon = round((off.lon + on.lon) / 2, 4);
  const row = w.row('gap', v, g, s, e, lat, lon, [off.lon, off.lat, on.lon, on.lat], eventId('gap', v.id, s, e));
  const hours = ((e ?? w.toMs) - s) / HOUR;
  row['event_info'] = JSON.stringify({
    intentional_disabling: intentional,
    distance_km: distance,
    duration_hours: round(hours, 2),
    implied_speed_knots: round(distance / 1.852 / hours, 6),
    positions_12_hours_before_sat: r.int(3, 40),
    positions_per_day_sat_reception: round(r.between(20, 150), 6),
    off_position: off,
    on_position: open ? null : on,
  });
  row['event_vessels'] = JSON.stringify([w.vesselJson(v, null)]);
  return row;
}

export function loiteringRow(w: DemoWorld, v: DemoVessel): PublishedRow {
  const r = w.random;
  const durationMs = Math.max(HOUR, r.logNormal(10 * HOUR, 0.9));
  const s = w.start(durationMs);
  const e = s + Math.round(durationMs / 1000) * 1000;
  const g = v.ground;
  const { lat, lon } = w.positionIn(g);
  const box: [number, number, number, number] = [round(lon - 0.05, 4), round(lat - 0.05, 4), round(lon + 0.05, 4), round(lat + 0.05, 4)];
  const row = w.row('loitering', v, g, s, e, lat, lon, box, eventId('loitering', v.id, s, e));
  const speed = round(r.between(0.05, 1.5), 6);
  row['event_info'] = JSON.stringify({
    total_time_hours: round((e - s) / HOUR, 6),
    total_distance_km: round((speed * 1.852 * (e - s)) / HOUR, 6),
    average_speed_knots: speed,
    average_distance_from_shore_km: round(w.shoreKm(g, lon, lat), 3),
  });
  row['event_vessels'] = JSON.stringify([w.vesselJson(v, r.pick(w.ports(g).slice(0, 5)))]);
  return row;
}

// Encounter types use the interface's vessel-class words (interface 4.2); other types are non-fishing.
function encounterSide(type: string | null | undefined): string {
  return ['fishing', 'carrier', 'support', 'bunker', 'research', 'tanker'].includes(type ?? '') ? type! : 'non_fishing';
}

/** Two rows, `.1` and `.2`, each from its own vessel's point of view (decisions section 5). */
export function encounterRows(w: DemoWorld, a: DemoVessel, b: DemoVessel, startMs?: number): PublishedRow[] {
  const r = w.random;
  const tenMinutes = 600_000;
  const durationMs = Math.max(2 * HOUR, Math.round(r.logNormal(5 * HOUR, 0.5) / tenMinutes) * tenMinutes);
  const s = Math.floor((startMs ?? w.start(durationMs)) / tenMinutes) * tenMinutes;
  const e = s + durationMs;
  const g = a.ground;
  const { lat, lon } = w.positionIn(g);
  const box: [number, number, number, number] = [round(lon - 0.02, 4), round(lat - 0.02, 4), round(lon + 0.02, 4), round(lat + 0.02, 4)];
  const baseId = eventId('encounter', a.id, s, e);
  const info = { median_distance_kilometers: round(r.between(0.01, 0.49), 3), median_speed_knots: round(r.between(0.1, 1.9), 3) };
  const nextA = r.pick(w.ports(g).slice(0, 5));
  const nextB = r.pick(w.ports(g).slice(0, 5));
  const vessels = [w.vesselJson(a, nextA), w.vesselJson(b, nextB)];
  return [
    [a, b, 1],
    [b, a, 2],
  ].map(([main, other, n]) => {
    const m = main as DemoVessel;
    const o = other as DemoVessel;
    const row = w.row('encounter', m, g, s, e, lat, lon, box, `${baseId}.${n}`);
    const inEez = (row['regions_mean_position'] as { eez: string[] }).eez.length > 0;
    row['event_info'] = JSON.stringify({
      ...info,
      type: `${encounterSide(m.type)}-${encounterSide(o.type)}`,
      potential_risk: !inEez && r.chance(0.2),
      main_vessel_public_authorization_status: w.authorizationStatus(m),
      encountered_vessel_public_authorization_status: w.authorizationStatus(o),
    });
    row['event_vessels'] = JSON.stringify(vessels);
    return row;
  });
}

export function* generateDemoRows(options: DemoOptions): Generator<PublishedRow> {
  const w = new DemoWorld(options);
  const total = Object.values(MIX).reduce((a, b) => a + b, 0);
  const count = (kind: EventKind) => Math.max(6, Math.round((options.events * MIX[kind]) / total));
  yield* clientExampleRows(w);
  for (let i = 0; i < count('fishing'); i++) yield fishingRow(w, w.pickVessel(['fishing']));
  for (let i = 0; i < count('port_visit'); i++) yield portVisitRow(w, w.pickVessel(null));
  for (let i = 0; i < count('gap'); i++) yield gapRow(w, w.pickVessel(null));
  for (let i = 0; i < count('loitering'); i++) yield loiteringRow(w, w.pickVessel(['carrier', 'carrier', 'bunker', 'support']));
  for (let i = 0; i < count('encounter') / 2; i++) {
    const carrier = w.pickVessel(['carrier', 'support', 'bunker']);
    const sameGround = w.fleet.filter((v) => v.type === 'fishing' && v.ground === carrier.ground);
    yield* encounterRows(w, carrier, sameGround.length ? w.random.pick(sameGround) : w.pickVessel(['fishing']));
  }
}

