// Each vessel of the demo sails voyages, one after another, from a random stream of its own: it
// leaves port, sails to its ground, fishes (or loiters, or meets a vessel, meetings.ts), and heads
// for port. Every event starts after the one before it ended, with the time to sail between them
// at cruising speed, so no vessel needs more than that speed between consecutive events.
import type { DemoVessel } from './fleet.ts';
import type { Port } from './geography.ts';
import { Random } from './random.ts';
import {
  DAY, durations, encounterRows, fishingRow, gapRow, HOUR, loiteringRow, portVisitRow, wholeSecond, withNextPort, type Meeting, type PublishedRow, type RowWorld, type Span,
} from './rows.ts';
import { distanceKm } from './geography.ts';
import type { Position, Sea } from './sea.ts';

/** What the voyages read of the demo's world (generate.ts, DemoWorld), besides what rows read. */
export interface VoyageWorld extends RowWorld {
  /** Set to each vessel's own stream while its voyages are made. */
  random: Random;
  readonly seed: number;
  readonly fromMs: number;
  readonly sea: Sea;
  portFor(v: DemoVessel, random?: Random): Port;
}

/** The speed voyages are planned at: a fishing vessel's or a reefer's economical speed. */
export const CRUISE_KNOTS = 10;
/** Loitering is reported more than 20 nautical miles (37 km) from shore, at each corner of its box too. */
const LOITERING_MIN_SHORE_KM = 40;
/** Gaps the pipeline flags start far from shore. */
const GAP_MIN_SHORE_KM = 50;
/** Share of vessels whose AIS went dark before the demo's end and stayed dark: an open gap. */
const OPEN_GAP_SHARE = 0.1;
/** Time kept in hand before a meeting, for the few km between a port and its anchorages. */
const MEETING_MARGIN_MS = 6 * HOUR;

/**
 * What a voyage holds by vessel type, set so that the demo's kinds come in the public data's mix
 * (generate.ts, KIND_MIX): fishing vessels haul several times a voyage; carriers, support and
 * bunker vessels loiter on the grounds; other vessels mostly sail from port to port.
 */
const HABITS = {
  fishing: { extraHauls: 3.3, gapPerHaul: 0.075, gapPerVoyage: 0, loitering: 0.03 },
  service: { extraHauls: 0, gapPerHaul: 0, gapPerVoyage: 0.25, loitering: 0.45 },
  other: { extraHauls: 0, gapPerHaul: 0, gapPerVoyage: 0.3, loitering: 0.03 },
};
type Habits = (typeof HABITS)[keyof typeof HABITS];

export function habitsOf(type: string): Habits {
  return type === 'fishing' ? HABITS.fishing : ['carrier', 'support', 'bunker'].includes(type) ? HABITS.service : HABITS.other;
}

/** Events of an average voyage: its hauls, gaps and loitering, and the port visit that ends it. */
export function eventsPerVoyage(type: string): number {
  const h = habitsOf(type);
  const hauls = type === 'fishing' ? 1 + h.extraHauls : 0;
  return hauls * (1 + h.gapPerHaul) + h.gapPerVoyage + h.loitering + 1;
}

/** Time to sail from a to b at cruising speed, plus an hour to get under way. */
export function sailMs(a: Position, b: Position): number {
  return Math.round((distanceKm(a.lon, a.lat, b.lon, b.lat) / (CRUISE_KNOTS * 1.852)) * HOUR) + HOUR;
}

/** A vessel's random stream: the demo's seed and its place in the fleet mixed (murmur3's finaliser). */
export function streamSeed(seed: number, n: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(n, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** One vessel's rows over the demo's period, in time order: about `quota` events and its meetings. */
export function* vesselRows(w: VoyageWorld, v: DemoVessel, quota: number, meetings: readonly Meeting[]): Generator<PublishedRow> {
  if (quota <= 0 && meetings.length === 0) return;
  yield* new VesselVoyages(w, v, quota, meetings).rows();
}

class VesselVoyages {
  private readonly r: Random;
  private readonly pending: Meeting[];
  private readonly habits: Habits;
  /** Where the vessel fishes by habit; most voyages go near it. */
  private readonly favourite: Position;
  /** About how many events and how long a voyage takes, to spread the quota over the period. */
  private readonly perVoyage: number;
  private readonly typicalMs: number;
  private t: number;
  private at: Position;
  private remaining: number;
  /** Set when a voyage could not start before the next meeting: the next one goes to it. */
  private meetingNext = false;

  constructor(private readonly w: VoyageWorld, private readonly v: DemoVessel, quota: number, meetings: readonly Meeting[]) {
    this.r = w.random = new Random(streamSeed(w.seed, v.index));
    this.pending = [...meetings];
    this.habits = habitsOf(v.type);
    this.remaining = quota;
    const home = w.portFor(v);
    this.at = { lat: home.lat, lon: home.lon };
    this.t = w.fromMs;
    this.favourite = w.sea.onGround(v.ground, this.r);
    this.perVoyage = eventsPerVoyage(v.type);
    this.typicalMs = 2 * sailMs(this.at, this.favourite) + this.perVoyage * 12 * HOUR + 30 * HOUR;
  }

  *rows(): Generator<PublishedRow> {
    while (this.remaining > 0 || this.pending.length > 0) {
      const voyage = this.voyage();
      if (!voyage) break;
      yield* voyage;
    }
    const open = this.openGap();
    if (open) yield open;
  }

  private voyage(): PublishedRow[] | undefined {
    const { w, v, r } = this;
    const meeting = this.pending[0];
    // Time in port between voyages spreads the vessel's events over the whole period.
    const voyagesLeft = Math.max(1, Math.ceil(this.remaining / this.perVoyage));
    const idleMean = Math.max(0, (w.toMs - this.t) / voyagesLeft - this.typicalMs);
    // Never so long that the voyages left no longer fit before the end.
    let depart = this.t + Math.min(3 * idleMean, r.exponential(idleMean), Math.max(0, w.toMs - this.t - voyagesLeft * this.typicalMs));
    const withMeeting = meeting !== undefined && (this.remaining <= 0 || this.meetingNext || meeting.startMs - depart < this.typicalMs + 3 * DAY);
    if (withMeeting) depart = Math.max(this.t, Math.min(depart, meeting.startMs - sailMs(this.at, meeting.at) - r.between(0.5, 3) * DAY));
    depart = wholeSecond(depart);
    if (!withMeeting && depart + 2 * DAY > w.toMs) return undefined;
    const port = withMeeting ? (meeting.carrier === v ? meeting.carrierPort : meeting.partnerPort) : w.portFor(v);
    const portAt = { lat: port.lat, lon: port.lon };
    // The latest a stop at sea may end at p: in time for this voyage's meeting, or for the port
    // visit before the next one, and for a visit before the demo ends.
    const latestEnd = (p: Position) => {
      let limit = w.toMs - sailMs(p, portAt) - HOUR;
      if (meeting) {
        limit = Math.min(limit, withMeeting
          ? meeting.startMs - sailMs(p, meeting.at)
          : meeting.startMs - MEETING_MARGIN_MS - sailMs(portAt, meeting.at) - HOUR - sailMs(p, portAt));
      }
      return limit;
    };
    const rows: PublishedRow[] = [];
    const loitering: PublishedRow[] = [];
    let here = this.at;
    let now = depart;
    /** The span of a stop from `from` to `to` (the same place but for gaps), if it fits. */
    const fit = (from: Position, to: Position, durationMs: number): Span | undefined => {
      const startMs = wholeSecond(now + sailMs(here, from) + r.between(0, 3) * HOUR);
      const endMs = startMs + Math.round(durationMs / 1000) * 1000;
      return endMs <= latestEnd(to) ? { startMs, endMs } : undefined;
    };
    const made = (row: PublishedRow, to: Position, span: Span) => {
      rows.push(row);
      here = to;
      now = span.endMs;
      this.remaining--;
    };
    const gap = (): boolean => {
      const intentional = r.chance(0.55);
      const durationMs = durations.gap(r, intentional);
      const off = w.sea.offshore(here, GAP_MIN_SHORE_KM, r);
      // Where AIS came back: as far as the vessel went at the speed it kept while dark (a few
      // knots, a drifting or fishing vessel; above 30 knots about one gap in 250).
      const on = w.sea.reachedAfter(off, Math.min(35, r.logNormal(5, 0.55)) * 1.852 * (Math.round(durationMs / 1000) / 3600), r);
      const span = fit(off, on, durationMs);
      if (span) made(gapRow(w, v, span.startMs, span.endMs, off, on, intentional), on, span);
      return span !== undefined;
    };
    const loiter = (): boolean => {
      const p = w.sea.offshore(v.type === 'fishing' ? here : w.sea.onGround(v.ground, r), LOITERING_MIN_SHORE_KM, r);
      const span = fit(p, p, durations.loitering(r));
      if (span) {
        const row = loiteringRow(w, v, span, p);
        loitering.push(row);
        made(row, p, span);
      }
      return span !== undefined;
    };

    const h = this.habits;
    if (v.type === 'fishing') {
      const hauls = Math.min(1 + r.poisson(h.extraHauls), this.remaining - 1);
      // Each haul near the one before (a gap between them takes the vessel away, not the fish).
      let last: Position | undefined;
      const near = withMeeting ? meeting.at : r.chance(0.7) ? this.favourite : undefined;
      for (let i = 0; i < hauls; i++) {
        if (r.chance(h.gapPerHaul) && !gap()) break;
        const p = last ? w.sea.nearOnGround(v.ground, last, 30, r) : near ? w.sea.nearOnGround(v.ground, near, 60, r) : w.sea.onGround(v.ground, r);
        const span = fit(p, p, durations.fishing(r));
        if (!span) break;
        made(fishingRow(w, v, span, p), p, span);
        last = p;
      }
      if (this.remaining > 1 && r.chance(h.loitering)) loiter();
    } else {
      if (this.remaining > 1 && r.chance(h.gapPerVoyage)) gap();
      if (this.remaining > 1 && r.chance(h.loitering)) loiter();
    }
    if (withMeeting) {
      // Every stop before it was checked against it, so the vessel is there in time.
      if (v === meeting.carrier) rows.push(...encounterRows(w, meeting));
      here = meeting.at;
      now = meeting.endMs;
      this.pending.shift();
      this.meetingNext = false;
    }

    const arrive = wholeSecond(now + sailMs(here, portAt));
    const next = this.pending[0];
    const leaveBy = Math.min(w.toMs, next ? next.startMs - MEETING_MARGIN_MS - sailMs(portAt, next.at) : Infinity);
    if (arrive + HOUR > leaveBy) {
      if (arrive + HOUR > w.toMs) {
        // The demo ends at sea: no next port is known yet.
        this.remaining = 0;
        this.pending.length = 0;
        return rows;
      }
      if (rows.length === 0) {
        // Too close to the next meeting for a voyage of its own: sail to the meeting instead.
        this.meetingNext = true;
        return [];
      }
    }
    const endMs = Math.max(arrive + HOUR, Math.floor(Math.min(arrive + durations.portVisit(r), leaveBy) / 1000) * 1000);
    const visit = portVisitRow(w, v, { startMs: arrive, endMs }, port);
    rows.push(visit);
    this.remaining--;
    for (const row of loitering) withNextPort(w, row, v, port);
    this.t = endMs;
    this.at = { lat: visit['lat_mean'] as number, lon: visit['lon_mean'] as number };
    return rows;
  }

  /** For a few vessels, a last gap that has not ended by the demo's end. */
  private openGap(): PublishedRow | undefined {
    const { w, v, r } = this;
    if (!r.chance(OPEN_GAP_SHARE)) return undefined;
    const off = w.sea.offshore(w.sea.onGround(v.ground, r), GAP_MIN_SHORE_KM, r);
    const startMs = wholeSecond(Math.max(this.t + sailMs(this.at, off), r.between(w.toMs - 30 * DAY, w.toMs - 2 * HOUR)));
    return startMs > w.toMs - HOUR ? undefined : gapRow(w, v, startMs, null, off, null, r.chance(0.55));
  }
}
