// The demo data generator: published-events rows (decisions section 9) for all five kinds, every
// field filled, identical for a seed. The rows go through the same loader as real data.
import { hash } from 'node:crypto';
import type { EventKind } from '../../domain/kinds.ts';
import { bboxOf, distanceKm, Geography, haversine, haversineKm, type Port } from './geography.ts';
import { GROUNDS, makeFleet, type DemoVessel, type Ground } from './fleet.ts';
import { authorizationStatus, authorizingBodiesOfFaoArea } from './fishery-bodies.ts';
import { Random } from './random.ts';
import { clientExampleRows } from './client-examples.ts';
import { mergeRegionParts, type GroupMember, type PortRecord, type RegionGeometry } from '../reference-data.ts';
import type { IuuListing, RegistryRecord } from '../../domain/vessel-identity.ts';

export interface DemoOptions {
  events: number;
  seed: number;
  fromMs?: number;
  toMs?: number;
  /** Events per shard (SHARD_EVENTS unless a test asks for small shards); part of what a seed makes. */
  shardEvents?: number;
}

/**
 * The demo is made in shards of about this many events, each from a random stream of its own, so
 * that threads can make shards at once (generator-pool.ts) and the rows stay the same for a seed
 * whatever the number of threads. A shard's rows are held until the shards before it are taken, so
 * its size bounds that memory (about 65 MB of JSON for 50,000 rows).
 */
export const SHARD_EVENTS = 50_000;

/** How many shards the demo of these options has: one up to SHARD_EVENTS events. */
export function demoShardCount(options: DemoOptions): number {
  return Math.max(1, Math.ceil(options.events / (options.shardEvents ?? SHARD_EVENTS)));
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Kind mix of the public data: fishing : port visits : gaps : encounter entries : loitering. */
export const KIND_MIX: Record<EventKind, number> = { fishing: 100, port_visit: 25, gap: 8, encounter: 1.5, loitering: 1 };
/** Loitering is reported more than 20 nautical miles from shore. */
const LOITERING_MIN_SHORE_KM = 37.04;
/** Gaps the pipeline flags start far from shore. */
const GAP_MIN_SHORE_KM = 50;

export type PublishedRow = Record<string, unknown>;

/**
 * How a row is written as a JSON document: `row` as made (nested values as JSON), `published` as
 * in the published tables, where event_info and event_vessels are JSON strings.
 */
export type RowForm = 'row' | 'published';
export function serializeRow(row: PublishedRow, form: RowForm): string {
  if (form === 'row') return JSON.stringify(row);
  return JSON.stringify({ ...row, event_info: JSON.stringify(row['event_info']), event_vessels: JSON.stringify(row['event_vessels']) });
}
type Box = [number, number, number, number];

export function eventId(kind: string, vesselId: string, startMs: number, endMs: number | null): string {
  // The one-shot hash: creating a Hash object per row costs more than the digest itself.
  return hash('md5', `${kind}|${vesselId}|${isoTime(startMs)}|${endMs === null ? '' : isoTime(endMs)}`);
}

// A row formats its start and end several times (its id, seg_id, event_start, event_end): the
// last two formatted instants are kept.
let isoCache: [number, string, number, string] = [NaN, '', NaN, ''];
function isoTime(ms: number): string {
  if (ms === isoCache[0]) return isoCache[1];
  if (ms === isoCache[2]) return isoCache[3];
  const text = new Date(ms).toISOString();
  isoCache = [ms, text, isoCache[0], isoCache[1]];
  return text;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Weighted choice among vessels, by activity: a few vessels are very active. */
class VesselPicker {
  private readonly cumulative: number[] = [];
  constructor(private readonly vessels: DemoVessel[]) {
    let sum = 0;
    for (const v of vessels) this.cumulative.push((sum += v.activity));
  }
  pick(random: Random): DemoVessel {
    const x = random.next() * this.cumulative[this.cumulative.length - 1]!;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return this.vessels[lo]!;
  }
}

export class DemoWorld {
  readonly geo = new Geography();
  random: Random;
  readonly fleet: DemoVessel[];
  private readonly seed: number;
  private examples: { rows: PublishedRow[]; randomAfter: Random } | undefined;
  readonly fromMs: number;
  readonly toMs: number;
  private readonly groundPorts = new Map<Ground, Port[]>();
  private readonly pickers = new Map<string, VesselPicker>();

  constructor(options: DemoOptions) {
    this.seed = options.seed;
    this.random = new Random(options.seed);
    this.fromMs = options.fromMs ?? Date.UTC(2017, 0, 1);
    this.toMs = options.toMs ?? Date.UTC(2025, 0, 1);
    this.fleet = makeFleet(this.random, Math.max(60, Math.round(options.events / 60)), (g) => authorizingBodiesOfFaoArea(this.geo.faoMajorAt(g.lon, g.lat)));
    // River ports are inland at this coastline's resolution; visits are placed at coastal ports only.
    const coastal = (p: Port) => [-0.15, -0.05, 0.05, 0.15].some((dx) => [-0.15, -0.05, 0.05, 0.15].some((dy) => !this.geo.land.isLand(p.lon + dx, p.lat + dy)));
    for (const g of GROUNDS) this.groundPorts.set(g, this.geo.portsNear(g.lon, g.lat, 40).filter(coastal).slice(0, 25));
  }

  ports(g: Ground): Port[] {
    return this.groundPorts.get(g)!;
  }

  /**
   * The client examples' rows, made once: they add their vessels to the fleet, which every shard
   * picks from, so a thread making any shard makes them first.
   */
  exampleRows(): PublishedRow[] {
    if (!this.examples) {
      const rows = [...clientExampleRows(this)];
      this.examples = { rows, randomAfter: this.random.clone() };
    }
    return this.examples.rows;
  }

  /**
   * Starts a shard's random stream: the first shard continues the stream after the examples (so a
   * demo of one shard is the one made before shards existed), every other one has a seed of its own.
   */
  startShard(shard: number): void {
    const { randomAfter } = this.examples!;
    this.random = shard === 0 ? randomAfter.clone() : new Random(shardSeed(this.seed, shard));
  }

  /**
   * A port the vessel would call at: mostly one of its own flag among its ground's ports (a
   * Spanish trawler in Biscay lands in Spain), else one of the ground's eight nearest ports (a
   * distant-water vessel off Senegal lands in Dakar).
   */
  portFor(v: DemoVessel): Port {
    const own = this.ports(v.ground).filter((p) => p.flag === v.flag);
    return own.length > 0 && this.random.chance(0.8) ? this.random.pick(own.slice(0, 5)) : this.random.pick(this.ports(v.ground).slice(0, 8));
  }

  /** A vessel of one of the types (any type when null), on one ground if given, weighted by activity. */
  pickVessel(types: readonly string[] | null, ground?: Ground): DemoVessel {
    const key = `${types?.join(',') ?? '*'}|${ground?.name ?? '*'}`;
    let picker = this.pickers.get(key);
    if (!picker) {
      const pool = this.fleet.filter((v) => (!types || types.includes(v.type)) && (!ground || v.ground === ground));
      picker = new VesselPicker(pool.length ? pool : this.fleet);
      this.pickers.set(key, picker);
    }
    return picker.pick(this.random);
  }

  /** A position on the ground, at sea and at least minShoreKm from the coast. */
  seaPosition(g: Ground, minShoreKm = 1): { lat: number; lon: number } {
    for (let attempt = 0; attempt < 50; attempt++) {
      const lat = round(g.lat + this.random.between(-g.spread, g.spread), 4);
      const lon = round(g.lon + this.random.between(-g.spread, g.spread), 4);
      if (!this.geo.land.isLand(lon, lat) && this.geo.land.distanceFromShoreKm(lon, lat) >= minShoreKm) return { lat, lon };
    }
    return { lat: g.lat, lon: g.lon };
  }

  /**
   * A point at sea about `km` from `from` in a random direction, with the midpoint at sea too; the
   * distance shrinks when no direction finds water (a vessel dark along a coast went less far).
   */
  reachedAfter(from: { lat: number; lon: number }, km: number): { lat: number; lon: number } {
    for (let distance = km; distance > 0.5; distance /= 2) {
      for (let attempt = 0; attempt < 8; attempt++) {
        const bearing = this.random.between(0, 2 * Math.PI);
        const dLat = (distance / 111.195) * Math.cos(bearing);
        const lat = round(Math.max(-89, Math.min(89, from.lat + dLat)), 4);
        const lon = round(from.lon + (distance / (111.195 * Math.cos((from.lat * Math.PI) / 180))) * Math.sin(bearing), 4);
        // Not across the antimeridian: the mean position is the plain average of the two.
        if (Math.abs(lon) > 180) continue;
        if (!this.geo.land.isLand(lon, lat) && !this.geo.land.isLand((from.lon + lon) / 2, (from.lat + lat) / 2)) return { lat, lon };
      }
    }
    return from;
  }

  /** A point near a port but off the land polygons (ports sit on the coastline). */
  nearPort(p: Port): { lat: number; lon: number } {
    for (let radius = 0.01; radius < 0.5; radius *= 1.5) {
      for (let attempt = 0; attempt < 6; attempt++) {
        // Rounded as the output is, so the rounded point is the one tested.
        const lat = round(p.lat + this.random.between(-radius, radius), 4);
        const lon = round(p.lon + this.random.between(-radius, radius), 4);
        if (!this.geo.land.isLand(lon, lat)) return { lat, lon };
      }
    }
    return { lat: p.lat, lon: p.lon };
  }

  nearestPortKm(g: Ground, lon: number, lat: number): number {
    let best = Infinity;
    for (const p of this.ports(g)) best = Math.min(best, haversine(lon, lat, p.lon, p.lat));
    return haversineKm(best);
  }

  vesselJson(v: DemoVessel, nextPort: Port | null): Record<string, unknown> {
    return {
      id: v.id, ssvid: v.ssvid, name: v.name, flag: v.flag, type: v.type, gear_type: v.gear_type,
      public_authorizations: v.public_authorizations,
      next_port: nextPort ? { id: nextPort.id, name: nextPort.name, flag: nextPort.flag } : null,
    };
  }

  /** The columns every kind shares; regions are tagged at the mean position. */
  row(kind: EventKind, v: DemoVessel, g: Ground, startMs: number, endMs: number | null, lat: number, lon: number, box: Box, id: string): PublishedRow {
    const land = this.geo.land;
    const regions = this.geo.regionsAt(lon, lat, land.distanceFromShoreKm(lon, lat), g.faoSubAreas);
    return {
      event_id: id,
      event_type: kind,
      entity_id: v.id,
      seg_id: `${v.ssvid}-${isoTime(startMs).slice(0, 10)}T00:00:00.000000Z-1`,
      event_start: isoTime(startMs),
      event_end: endMs === null ? null : isoTime(endMs),
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
      // The pipeline reports distance from shore in whole km and from port with decimals.
      start_distance_from_shore_km: Math.round(land.distanceFromShoreKm(box[0], box[1])),
      end_distance_from_shore_km: Math.round(land.distanceFromShoreKm(box[2], box[3])),
      start_distance_from_port_km: round(this.nearestPortKm(g, box[0], box[1]), 3),
      end_distance_from_port_km: round(this.nearestPortKm(g, box[2], box[3]), 3),
    };
  }

  /** The vessel's status at this row's position (the bodies it carries), from its listed authorizations. */
  authorizationStatus(v: DemoVessel, row: PublishedRow): string {
    return authorizationStatus((row['regions_mean_position'] as { rfmo: string[] }).rfmo, v.public_authorizations);
  }

  start(durationMs: number): number {
    return Math.floor(this.random.between(this.fromMs, this.toMs - durationMs) / 1000) * 1000;
  }
}

const inEez = (row: PublishedRow) => (row['regions_mean_position'] as { eez: string[] }).eez.length > 0;

function boxAround(lat: number, lon: number, half: () => number): Box {
  return [round(lon - half(), 4), round(lat - half(), 4), round(lon + half(), 4), round(lat + half(), 4)];
}

export function fishingRow(w: DemoWorld, v: DemoVessel, startMs?: number, g: Ground = v.ground): PublishedRow {
  const r = w.random;
  // Median about 8 h; the pipeline reports nothing shorter than 20 minutes.
  const durationMs = Math.max(20 * 60_000, r.logNormal(8 * HOUR, 0.8));
  const s = startMs ?? w.start(durationMs);
  const e = s + Math.round(durationMs / 1000) * 1000;
  const { lat, lon } = w.seaPosition(g);
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

export function portVisitRow(w: DemoWorld, v: DemoVessel, options: { startMs?: number; port?: Port; confidence?: number; id?: string } = {}): PublishedRow {
  const r = w.random;
  // Most visits last hours to days; a long tail lasts months.
  const durationMs = r.chance(0.03) ? r.between(30, 200) * DAY : Math.max(HOUR, r.logNormal(30 * HOUR, 0.9));
  const s = options.startMs ?? w.start(durationMs);
  const e = s + Math.round(durationMs / 1000) * 1000;
  const port = options.port ?? w.portFor(v);
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

export function gapRow(w: DemoWorld, v: DemoVessel, options: { startMs?: number; open?: boolean; intentional?: boolean } = {}): PublishedRow {
  const r = w.random;
  const intentional = options.intentional ?? r.chance(0.55);
  // Intentional disabling is only flagged for gaps of 12 h or more.
  const durationMs = intentional ? Math.max(12 * HOUR, r.logNormal(30 * HOUR, 0.7)) : Math.max(2 * HOUR, r.logNormal(9 * HOUR, 0.7));
  const open = options.open ?? r.chance(0.03);
  const s = options.startMs ?? (open ? Math.floor(r.between(w.toMs - 30 * DAY, w.toMs - HOUR) / 1000) * 1000 : w.start(durationMs));
  const e = open ? null : s + Math.round(durationMs / 1000) * 1000;
  const g = v.ground;
  const off = w.seaPosition(g, GAP_MIN_SHORE_KM);
  const hours = ((e ?? w.toMs) - s) / HOUR;
  // Where AIS came back: as far as the vessel went at the speed it kept while dark (a few knots,
  // a drifting or fishing vessel; above 30 knots about one gap in 250), at sea, with the mean
  // position between the two at sea too. An open gap has no such point yet.
  const on = open ? off : w.reachedAfter(off, Math.min(35, r.logNormal(5, 0.55)) * 1.852 * hours);
  const lat = round((off.lat + on.lat) / 2, 4);
  const lon = round((off.lon + on.lon) / 2, 4);
  const row = w.row('gap', v, g, s, e, lat, lon, [off.lon, off.lat, on.lon, on.lat], eventId('gap', v.id, s, e));
  if (open) {
    row['end_distance_from_shore_km'] = null;
    row['end_distance_from_port_km'] = null;
  }
  const distance = round(distanceKm(off.lon, off.lat, on.lon, on.lat), 6);
  row['event_info'] = {
    intentional_disabling: intentional,
    distance_km: open ? null : distance,
    duration_hours: round(hours, 2),
    implied_speed_knots: open ? null : round(distance / 1.852 / hours, 6),
    positions_12_hours_before_sat: r.int(3, 40),
    positions_per_day_sat_reception: round(r.between(20, 150), 6),
    off_position: off,
    on_position: open ? null : on,
  };
  row['event_vessels'] = [w.vesselJson(v, null)];
  return row;
}

/** The port visit an event's `vessel.nextPort` points at: the vessel's next visit, days later. */
function nextVisit(w: DemoWorld, v: DemoVessel, afterMs: number): { port: Port; row: PublishedRow } | undefined {
  const startMs = Math.floor((afterMs + w.random.between(1, 10) * DAY) / 1000) * 1000;
  if (startMs > w.toMs - 30 * DAY) return undefined;
  const port = w.portFor(v);
  return { port, row: portVisitRow(w, v, { startMs, port }) };
}

export function loiteringRows(w: DemoWorld, v: DemoVessel): PublishedRow[] {
  const r = w.random;
  const durationMs = Math.max(HOUR, r.logNormal(10 * HOUR, 0.9));
  const s = w.start(durationMs);
  const e = s + Math.round(durationMs / 1000) * 1000;
  const g = v.ground;
  const { lat, lon } = w.seaPosition(g, LOITERING_MIN_SHORE_KM);
  const row = w.row('loitering', v, g, s, e, lat, lon, boxAround(lat, lon, () => 0.02), eventId('loitering', v.id, s, e));
  const speed = round(r.between(0.05, 1.5), 6);
  row['event_info'] = {
    total_time_hours: round((e - s) / HOUR, 6),
    total_distance_km: round((speed * 1.852 * (e - s)) / HOUR, 6),
    average_speed_knots: speed,
    average_distance_from_shore_km: round(w.geo.land.distanceFromShoreKm(lon, lat), 3),
  };
  const next = nextVisit(w, v, e);
  row['event_vessels'] = [w.vesselJson(v, next?.port ?? null)];
  return next ? [row, next.row] : [row];
}

// Encounter types use the interface's vessel-class words (interface 4.2); other types are non-fishing.
function encounterSide(type: string): string {
  return ['fishing', 'carrier', 'support', 'bunker', 'research', 'tanker'].includes(type) ? type : 'non_fishing';
}

/** Two rows, `.1` and `.2`, each from its own vessel's point of view, then each vessel's next visit. */
export function encounterRows(w: DemoWorld, a: DemoVessel, b: DemoVessel, startMs?: number): PublishedRow[] {
  const r = w.random;
  const tenMinutes = 600_000;
  // At least 2 h, median about 5 h, on a 10-minute grid.
  const durationMs = Math.max(2 * HOUR, Math.round(r.logNormal(5 * HOUR, 0.5) / tenMinutes) * tenMinutes);
  const s = Math.floor((startMs ?? w.start(durationMs)) / tenMinutes) * tenMinutes;
  const e = s + durationMs;
  const g = a.ground;
  const { lat, lon } = w.seaPosition(g);
  const box = boxAround(lat, lon, () => 0.005);
  const baseId = eventId('encounter', a.id, s, e);
  const shared = { median_distance_kilometers: round(r.between(0.01, 0.49), 3), median_speed_knots: round(r.between(0.1, 1.9), 3) };
  const nextA = nextVisit(w, a, e);
  const nextB = nextVisit(w, b, e);
  const vessels = [w.vesselJson(a, nextA?.port ?? null), w.vesselJson(b, nextB?.port ?? null)];
  const entries = ([[a, b, 1], [b, a, 2]] as const).map(([main, other, n]) => {
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
  return [...entries, ...[nextA, nextB].filter((x) => x !== undefined).map((x) => x.row)];
}

/** A shard's seed: the demo's seed and the shard's number mixed (murmur3's finaliser). */
function shardSeed(seed: number, shard: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(shard, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Shard `shard`'s part of n, the parts of all shards adding up to n. */
function shareOf(n: number, shard: number, shards: number): number {
  return Math.floor((n * (shard + 1)) / shards) - Math.floor((n * shard) / shards);
}

export function generateDemoRows(options: DemoOptions): Generator<PublishedRow> {
  return demoRows(new DemoWorld(options), options);
}

/** Every row of the demo, shard after shard, in one thread. */
export function* demoRows(w: DemoWorld, options: DemoOptions): Generator<PublishedRow> {
  const shards = demoShardCount(options);
  for (let shard = 0; shard < shards; shard++) yield* demoShardRows(w, options, shard);
}

/** One shard's rows: the same whichever thread makes it, and whatever it made before. */
export function* demoShardRows(w: DemoWorld, options: DemoOptions, shard: number): Generator<PublishedRow> {
  const examples = w.exampleRows();
  w.startShard(shard);
  const shards = demoShardCount(options);
  const total = Object.values(KIND_MIX).reduce((x, y) => x + y, 0);
  const demoCount = (kind: EventKind) => Math.max(6, Math.round((options.events * KIND_MIX[kind]) / total));
  const count = (kind: EventKind) => shareOf(demoCount(kind), shard, shards);
  let portVisits = 0;
  const emit = function* (rows: PublishedRow[]) {
    for (const row of rows) {
      if (row['event_type'] === 'port_visit') portVisits++;
      yield row;
    }
  };
  if (shard === 0) yield* emit(examples);
  // Loitering is mostly carriers.
  for (let i = 0; i < count('loitering'); i++) {
    yield* emit(loiteringRows(w, w.pickVessel(w.random.chance(0.8) ? ['carrier', 'bunker', 'support'] : ['fishing'])));
  }
  // Each pair makes two encounter rows.
  const encounterPairs = shareOf(Math.ceil(demoCount('encounter') / 2), shard, shards);
  for (let i = 0; i < encounterPairs; i++) {
    const carrier = w.pickVessel(['carrier', 'support', 'bunker']);
    // A ground without fishing vessels falls back to the whole fleet, which holds the carrier too.
    let partner = w.pickVessel(['fishing'], carrier.ground);
    if (partner === carrier) partner = w.pickVessel(['fishing']);
    yield* emit(encounterRows(w, carrier, partner));
  }
  for (let i = 0; i < count('fishing'); i++) yield fishingRow(w, w.pickVessel(['fishing']));
  for (let i = 0; i < count('gap'); i++) yield gapRow(w, w.pickVessel(null));
  // Visits already emitted as next ports count towards the port-visit share.
  while (portVisits < count('port_visit')) yield* emit([portVisitRow(w, w.pickVessel(null))]);
}

/**
 * The demo's reference data, read after its rows (the client examples join the fleet as rows are
 * made): vessel groups, every port of the package, and region geometries of the layers it has.
 */
export interface DemoReferenceData {
  groups: GroupMember[];
  ports: PortRecord[];
  regions: Record<string, RegionGeometry[]>;
  iuu: IuuListing[];
  registry: RegistryRecord[];
}

/** A number drawn from the vessel's id, so that the registry leaves the events' random draws alone. */
function drawn(id: string, salt: string, modulo: number): number {
  return hash('sha256', `${salt}:${id}`, 'buffer').readUInt32BE(0) % modulo;
}

/** An IMO number: six digits and the check digit IMO defines (each digit times 7..2, summed, mod 10). */
function imoNumber(id: string): string {
  const digits = String(1_000_000 + drawn(id, 'imo', 9_000_000)).slice(0, 6).split('').map(Number);
  const check = digits.reduce((sum, d, i) => sum + d * (7 - i), 0) % 10;
  return `${digits.join('')}${check}`;
}

const OWNER_WORDS = ['OCEAN', 'PACIFIC', 'ATLANTIC', 'BLUE', 'NORTH', 'SOUTHERN', 'GOLDEN', 'STAR'];
const OWNER_KINDS = ['FISHERIES CO LTD', 'MARINE SA', 'SEAFOOD GROUP', 'SHIPPING INC', 'PESCA SL'];

/**
 * The registry of the demo's large vessels (carriers, and the busiest tenth of the fishing fleet):
 * IMO numbers, call signs, lengths and tonnage, an owner, and the authorizations their events list
 * as publicly listed. Drawn from each vessel's id, so the events do not change with it.
 */
function demoRegistry(w: DemoWorld): RegistryRecord[] {
  const fishing = w.fleet.filter((v) => v.type === 'fishing').sort((a, b) => b.activity - a.activity || (a.id < b.id ? -1 : 1));
  const large = [...w.fleet.filter((v) => v.type === 'carrier'), ...fishing.slice(0, Math.ceil(fishing.length / 10))];
  return large.map((v) => {
    const carrier = v.type === 'carrier';
    const lengthM = carrier ? 90 + drawn(v.id, 'length', 60) : 40 + drawn(v.id, 'length', 50);
    return {
      vesselId: v.id, ssvid: v.ssvid, imo: imoNumber(v.id),
      callsign: `${(v.flag ?? 'XX').slice(0, 1)}${String.fromCharCode(65 + drawn(v.id, 'cs', 26))}${String(1000 + drawn(v.id, 'csn', 9000))}`,
      shipname: v.name, flag: v.flag, geartypes: v.gear_type ? [v.gear_type.toUpperCase()] : [],
      lengthM, tonnageGt: Math.round(lengthM ** 2.6 / 40), sourceCode: ['DEMO-REGISTRY'],
      dateFrom: '2015-01-01', dateTo: null,
      owner: { name: `${OWNER_WORDS[drawn(v.id, 'ow', OWNER_WORDS.length)]} ${OWNER_KINDS[drawn(v.id, 'ok', OWNER_KINDS.length)]}`, flag: v.flag, dateFrom: '2015-01-01', dateTo: null },
      authorizations: v.public_authorizations.filter((a) => String(a.has_publicly_listed_authorization) === 'true').map((a) => ({ sourceCode: a.rfmo, dateFrom: '2017-01-01', dateTo: '2024-12-31' })),
    };
  });
}

/**
 * A few of the busiest fishing vessels on an IUU vessel list: listed by id or by MMSI, one twice,
 * some delisted since, so that the IUU insight has every case to show.
 */
function demoIuuList(w: DemoWorld): IuuListing[] {
  const busiest = w.fleet.filter((v) => v.type === 'fishing').sort((a, b) => b.activity - a.activity || (a.id < b.id ? -1 : 1));
  const listing = (v: DemoVessel | undefined, by: 'id' | 'ssvid', listedFrom: string, listedTo: string | null): IuuListing[] =>
    v ? [{ vesselId: by === 'id' ? v.id : null, ssvid: by === 'ssvid' ? v.ssvid : null, shipname: v.name, flag: v.flag, listedFrom, listedTo, source: 'demo IUU vessel list' }] : [];
  return [
    ...listing(busiest[1], 'id', '2016-01-01', '2017-06-30'),
    ...listing(busiest[1], 'id', '2019-03-01', null),
    ...listing(busiest[3], 'ssvid', '2018-06-15', '2021-12-31'),
    ...listing(busiest[5], 'id', '2020-01-10', '2022-05-01'),
    ...listing(busiest[7], 'id', '2023-02-01', null),
  ];
}
export function demoReferenceData(w: DemoWorld): DemoReferenceData {
  const members = (groupId: string, vessels: DemoVessel[]) => vessels.map((v) => ({ groupId, vesselId: v.id }));
  const chineseTrawlers = w.fleet.filter((v) => v.flag === 'CHN' && v.type === 'fishing');
  const groups = [
    // The group the Python client's documented example asks for.
    ...members('my-vessel-group', [...chineseTrawlers.filter((v) => v.id.startsWith('8c7304226')), ...chineseTrawlers.slice(0, 20)]),
    ...members('carriers', w.fleet.filter((v) => v.type === 'carrier')),
    ...members('rus-carriers', w.fleet.filter((v) => v.type === 'carrier' && v.flag === 'RUS')),
    ...members('chn-fishing', chineseTrawlers),
  ];
  const dedupe = [...new Map(groups.map((g) => [`${g.groupId}|${g.vesselId}`, g])).values()];
  const regions = (layer: 'eez' | 'fao' | 'rfmo' | 'mpa', keep: (id: string) => boolean = () => true): RegionGeometry[] =>
    mergeRegionParts(
      w.geo.layerFeatures(layer).filter((f) => keep(f.id)).map((f) => ({
        id: f.id, name: f.properties.name, iso3: layer === 'eez' ? w.geo.eezIso3(f.id) : null, geometry: JSON.stringify(f.geometry), bbox: bboxOf(f.geometry.coordinates),
      })),
    );
  return {
    iuu: demoIuuList(w),
    registry: demoRegistry(w),
    groups: dedupe,
    ports: w.geo.ports.map((p) => ({ id: p.id, name: p.name, flag: p.flag, lat: p.lat, lon: p.lon })),
    regions: {
      'public-eez-areas': regions('eez'),
      'public-fao-major': regions('fao'),
      'public-rfmo': regions('rfmo'),
      'public-mpa-all': regions('mpa'),
      // The same subsets the demo tags as no-take (geography.ts).
      'public-mpa-no-take': regions('mpa', (id) => Number(id) % 2 === 0),
      'public-mpa-no-take-partial': regions('mpa', (id) => Number(id) % 10 === 1),
    },
  };
}

