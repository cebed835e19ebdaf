// The demo data generator: published-events rows (docs/data-format.md, "Columns") for all five kinds, every
// field filled, identical for a seed. Each vessel sails voyages of its own (voyages.ts) around the
// meetings planned for the fleet (meetings.ts); the rows go through the same loader as real data.
import type { EventKind } from '../../domain/kinds.ts';
import { Geography, haversine, haversineKm, type Port } from './geography.ts';
import { GROUNDS, makeFleet, type DemoVessel, type Ground } from './fleet.ts';
import { authorizationStatus, authorizingBodiesOfFaoArea } from './fishery-bodies.ts';
import { Random } from './random.ts';
import { clientExampleRows } from './client-examples.ts';
import { planMeetings } from './meetings.ts';
import { streamSeed, vesselRows } from './voyages.ts';
import { DAY, inGlobe, isoTime, round, type Box, type Meeting, type PublishedRow } from './rows.ts';
import { Sea, type Position } from './sea.ts';

export { demoReferenceData, type DemoReferenceData } from './reference.ts';
export { eventId, type PublishedRow } from './rows.ts';

export interface DemoOptions {
  events: number;
  seed: number;
  fromMs?: number;
  toMs?: number;
  /** Events per shard (SHARD_EVENTS unless a test asks for small shards); part of what a seed makes. */
  shardEvents?: number;
}

/**
 * The demo is made in shards of about this many events, each a run of the fleet's vessels, so
 * that threads can make shards at once (generator-pool.ts). Every vessel's rows come from its own
 * random stream, so they are the same whatever the shards and threads. A shard's rows are held
 * until the shards before it are taken, so its size bounds that memory (about 65 MB of JSON for
 * 50,000 rows).
 */
export const SHARD_EVENTS = 50_000;

/** How many shards the demo of these options has: one up to SHARD_EVENTS events. */
export function demoShardCount(options: DemoOptions): number {
  return Math.max(1, Math.ceil(options.events / (options.shardEvents ?? SHARD_EVENTS)));
}

/** Kind mix of the public data: fishing : port visits : gaps : encounter entries : loitering. */
export const KIND_MIX: Record<EventKind, number> = { fishing: 100, port_visit: 25, gap: 8, encounter: 1.5, loitering: 1 };
/** Non-fishing vessels make few events (port visits, some gaps and loitering) against a fishing vessel's hauls. */
const NON_FISHING_WEIGHT = 0.1;
/** Rows the client examples add (client-examples.ts), left out of the fleet's quotas. */
const EXAMPLE_ROWS = 60;

/**
 * How a row is written as a JSON document: `row` as made (nested values as JSON), `published` as
 * in the published tables, where event_info and event_vessels are JSON strings.
 */
export type RowForm = 'row' | 'published';
export function serializeRow(row: PublishedRow, form: RowForm): string {
  if (form === 'row') return JSON.stringify(row);
  return JSON.stringify({ ...row, event_info: JSON.stringify(row['event_info']), event_vessels: JSON.stringify(row['event_vessels']) });
}

/**
 * Integer shares of `total` in proportion to the weights, none above `cap` (what a vessel can do
 * in the period): shares over it are capped and the rest shared again, remainders by size.
 */
function allocate(total: number, weights: number[], cap: number): number[] {
  const capped = new Array<boolean>(weights.length).fill(false);
  let exact: number[] = [];
  for (let pass = 0; pass < 8; pass++) {
    const cappedCount = capped.filter(Boolean).length;
    const free = Math.max(0, total - cappedCount * cap);
    const sum = weights.reduce((s, x, i) => (capped[i] ? s : s + x), 0);
    exact = weights.map((x, i) => (capped[i] ? cap : sum > 0 ? (free * x) / sum : 0));
    const over = exact.map((x, i) => !capped[i] && x > cap);
    if (!over.some(Boolean)) break;
    over.forEach((o, i) => o && (capped[i] = true));
  }
  const shares = exact.map(Math.floor);
  let left = Math.min(total, exact.reduce((s, x) => s + x, 0)) - shares.reduce((s, x) => s + x, 0);
  const byRemainder = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of byRemainder) {
    if (left-- < 1) break;
    shares[i]! += 1;
  }
  return shares;
}

export class DemoWorld {
  readonly geo = new Geography();
  readonly sea = new Sea(this.geo.land);
  /** The stream row details are drawn from: the examples' first, then each vessel's own (voyages.ts). */
  random: Random;
  readonly fleet: DemoVessel[];
  readonly seed: number;
  readonly fromMs: number;
  readonly toMs: number;
  /** Events each vessel of the fleet makes, besides its meetings (by fleet index). */
  private readonly quotas: number[];
  private readonly meetings: Map<DemoVessel, Meeting[]>;
  /** The first vessel of each shard, and the end of the fleet. */
  private readonly shardStarts: number[];
  private examples: PublishedRow[] | undefined;
  private readonly groundPorts = new Map<Ground, Port[]>();

  constructor(options: DemoOptions) {
    this.seed = options.seed;
    this.random = new Random(options.seed);
    this.fromMs = options.fromMs ?? Date.UTC(2017, 0, 1);
    this.toMs = options.toMs ?? Date.UTC(2025, 0, 1);
    this.fleet = makeFleet(this.random, Math.max(60, Math.round(options.events / 60)), (g) => authorizingBodiesOfFaoArea(this.geo.faoMajorAt(g.lon, g.lat)));
    // River ports are inland at this coastline's resolution; visits are placed at coastal ports only.
    const coastal = (p: Port) => [-0.15, -0.05, 0.05, 0.15].some((dx) => [-0.15, -0.05, 0.05, 0.15].some((dy) => !this.geo.land.isLand(p.lon + dx, p.lat + dy)));
    for (const g of GROUNDS) this.groundPorts.set(g, this.geo.portsNear(g.lon, g.lat, 40).filter(coastal).slice(0, 25));

    const total = Object.values(KIND_MIX).reduce((x, y) => x + y, 0);
    const pairs = Math.max(3, Math.round((options.events * KIND_MIX.encounter) / total / 2));
    this.meetings = planMeetings(
      { fleet: this.fleet, fromMs: this.fromMs, toMs: this.toMs, sea: this.sea, portFor: (v, r) => this.portFor(v, r) },
      pairs, new Random(streamSeed(options.seed, 0x6d656574)),
    );
    const meetingRows = [...this.meetings.values()].reduce((s, list) => s + list.length, 0);
    // A busy vessel makes about one event every two or three days, with its time at sea and in port.
    const cap = Math.max(6, Math.floor((0.4 * (this.toMs - this.fromMs)) / DAY));
    this.quotas = allocate(Math.max(0, options.events - EXAMPLE_ROWS - meetingRows), this.fleet.map((v) => v.activity * (v.type === 'fishing' ? 1 : NON_FISHING_WEIGHT)), cap);

    const shards = demoShardCount(options);
    const weight = (i: number) => this.quotas[i]! + (this.meetings.get(this.fleet[i]!)?.length ?? 0);
    const sum = this.quotas.reduce((s, _, i) => s + weight(i), 0);
    this.shardStarts = [0];
    let done = 0;
    for (let i = 0; i < this.fleet.length; i++) {
      while (this.shardStarts.length < shards && done >= (sum * this.shardStarts.length) / shards) this.shardStarts.push(i);
      done += weight(i);
    }
    while (this.shardStarts.length < shards) this.shardStarts.push(this.fleet.length);
    this.shardStarts.push(this.fleet.length);
  }

  ports(g: Ground): Port[] {
    return this.groundPorts.get(g)!;
  }

  /**
   * The client examples' rows, made once and first: they add their vessels to the fleet (after the
   * vessels that sail voyages), so a thread making any shard makes them first.
   */
  exampleRows(): PublishedRow[] {
    return (this.examples ??= [...clientExampleRows(this)]);
  }

  /** The vessels of one shard, each with its quota and its meetings. */
  *shardVessels(shard: number): Generator<{ vessel: DemoVessel; quota: number; meetings: Meeting[] }> {
    for (let i = this.shardStarts[shard]!; i < this.shardStarts[shard + 1]!; i++) {
      const vessel = this.fleet[i]!;
      yield { vessel, quota: this.quotas[i]!, meetings: this.meetings.get(vessel) ?? [] };
    }
  }

  /**
   * A port the vessel would call at: mostly one of its own flag among its ground's ports (a
   * Spanish trawler in Biscay lands in Spain), else one of the ground's eight nearest ports (a
   * distant-water vessel off Senegal lands in Dakar).
   */
  portFor(v: DemoVessel, random: Random = this.random): Port {
    const own = this.ports(v.ground).filter((p) => p.flag === v.flag);
    return own.length > 0 && random.chance(0.8) ? random.pick(own.slice(0, 5)) : random.pick(this.ports(v.ground).slice(0, 8));
  }

  /** A point near a port but off the land polygons (ports sit on the coastline). */
  nearPort(p: Port): Position {
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
  row(kind: EventKind, v: DemoVessel, g: Ground, startMs: number, endMs: number | null, lat: number, lon: number, given: Box, id: string): PublishedRow {
    // Port visits and gaps give their start and end positions as the box: near the antimeridian
    // an anchorage's jitter can fall past it.
    const box = inGlobe(given);
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
export function* demoShardRows(w: DemoWorld, _options: DemoOptions, shard: number): Generator<PublishedRow> {
  const examples = w.exampleRows();
  if (shard === 0) yield* examples;
  for (const { vessel, quota, meetings } of w.shardVessels(shard)) yield* vesselRows(w, vessel, quota, meetings);
}
