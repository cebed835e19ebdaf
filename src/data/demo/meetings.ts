// Encounters need two vessels in one place at one time, while each vessel's voyages are planned on
// its own (voyages.ts). So the meetings are planned first, for the whole fleet, from a random
// stream of their own: which carrier meets which fishing vessel of its ground, when, where, and the
// port each heads for afterwards. Both vessels' voyages then sail to the meeting and on to that port.
import type { DemoVessel } from './fleet.ts';
import type { Port } from './geography.ts';
import type { Random } from './random.ts';
import { DAY, durations, onTenMinutes, type Meeting } from './rows.ts';
import type { Sea } from './sea.ts';

export type { Meeting };

/** Days between two meetings of one vessel: time to reach the first, land its catch and reach the next. */
const MEETING_SPACING_DAYS = 25;
/** Meetings keep this far from the demo's edges, so that the voyages around them fit in it. */
const LEAD_DAYS = 15;
const TRAIL_DAYS = 35;

/** Weighted choice among vessels, by activity: a few vessels are very active. */
export class VesselPicker {
  private readonly cumulative: number[] = [];
  constructor(readonly vessels: readonly DemoVessel[]) {
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

export interface MeetingPlanContext {
  fleet: readonly DemoVessel[];
  fromMs: number;
  toMs: number;
  sea: Sea;
  portFor(v: DemoVessel, random: Random): Port;
}

/**
 * About `pairs` meetings: carriers, support and bunker vessels (by activity) with fishing vessels
 * of their ground (by activity), at least MEETING_SPACING_DAYS apart for either vessel. Each
 * vessel's meetings come sorted by time.
 */
export function planMeetings(context: MeetingPlanContext, pairs: number, random: Random): Map<DemoVessel, Meeting[]> {
  const byVessel = new Map<DemoVessel, Meeting[]>();
  const first = context.fromMs + LEAD_DAYS * DAY;
  const last = context.toMs - TRAIL_DAYS * DAY;
  if (last <= first) return byVessel;
  const fishingOf = new Map<DemoVessel['ground'], DemoVessel[]>();
  for (const v of context.fleet) if (v.type === 'fishing') (fishingOf.get(v.ground) ?? fishingOf.set(v.ground, []).get(v.ground)!).push(v);
  const carriers = context.fleet.filter((v) => ['carrier', 'support', 'bunker'].includes(v.type) && fishingOf.has(v.ground));
  if (carriers.length === 0) return byVessel;
  const carrierPicker = new VesselPicker(carriers);
  const partnerPickers = new Map([...fishingOf].map(([g, vessels]) => [g, new VesselPicker(vessels)]));
  const free = (v: DemoVessel, startMs: number) => (byVessel.get(v) ?? []).every((m) => Math.abs(m.startMs - startMs) >= MEETING_SPACING_DAYS * DAY);
  for (let i = 0; i < pairs; i++) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const carrier = carrierPicker.pick(random);
      const partner = partnerPickers.get(carrier.ground)!.pick(random);
      const startMs = onTenMinutes(random.between(first, last));
      if (!free(carrier, startMs) || !free(partner, startMs)) continue;
      const meeting: Meeting = {
        carrier, partner, startMs, endMs: startMs + durations.encounter(random), at: context.sea.onGround(carrier.ground, random),
        carrierPort: context.portFor(carrier, random), partnerPort: context.portFor(partner, random),
      };
      for (const v of [carrier, partner]) (byVessel.get(v) ?? byVessel.set(v, []).get(v)!).push(meeting);
      break;
    }
  }
  for (const list of byVessel.values()) list.sort((a, b) => a.startMs - b.startMs);
  return byVessel;
}
