// Positions at sea for the demo's voyages: on a fishing ground (along its axis, within its band of
// distance from shore), a short move from a point, far enough offshore, or where a vessel got to.
import type { Ground } from './fleet.ts';
import { KM_PER_DEGREE, type Land } from './land.ts';
import type { Random } from './random.ts';

export interface Position {
  lat: number;
  lon: number;
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** The point `km` from `from` on `bearing` (radians from north), on a local flat projection. */
export function moved(from: Position, km: number, bearing: number): Position {
  const lat = Math.max(-89, Math.min(89, from.lat + (km / KM_PER_DEGREE) * Math.cos(bearing)));
  const lon = from.lon + (km / (KM_PER_DEGREE * Math.cos((from.lat * Math.PI) / 180))) * Math.sin(bearing);
  return { lat: round4(lat), lon: round4(lon) };
}

/** The ground's axis cut into segments, with lengths in km, to draw points evenly along it. */
interface Segment { from: readonly [number, number]; to: readonly [number, number]; km: number }
const segmentsOf = new WeakMap<Ground, { segments: Segment[]; totalKm: number }>();

function axisOf(g: Ground): { segments: Segment[]; totalKm: number } {
  let axis = segmentsOf.get(g);
  if (!axis) {
    const segments = g.axis.slice(1).map((to, i) => {
      const from = g.axis[i]!;
      const cos = Math.cos((((from[1] + to[1]) / 2) * Math.PI) / 180);
      return { from, to, km: Math.hypot((to[0] - from[0]) * cos, to[1] - from[1]) * KM_PER_DEGREE };
    });
    axis = { segments, totalKm: segments.reduce((sum, s) => sum + s.km, 0) };
    segmentsOf.set(g, axis);
  }
  return axis;
}

export class Sea {
  constructor(private readonly land: Land) {}

  /** Whether a point is at sea, not across the antimeridian, within the shore band given. */
  fits(p: Position, [minKm, maxKm]: readonly [number, number]): boolean {
    if (Math.abs(p.lon) > 180 || this.land.isLand(p.lon, p.lat)) return false;
    const shore = this.land.distanceFromShoreKm(p.lon, p.lat);
    return shore >= minKm && shore <= maxKm;
  }

  /** A point of the ground: along its axis, up to its width either side, in its shore band. */
  onGround(g: Ground, random: Random): Position {
    const { segments, totalKm } = axisOf(g);
    let fallback: Position | undefined;
    for (let attempt = 0; attempt < 60; attempt++) {
      let along = random.between(0, totalKm);
      const segment = segments.find((s) => (along -= s.km) <= 0) ?? segments[segments.length - 1]!;
      const t = random.next();
      const base = { lon: segment.from[0] + t * (segment.to[0] - segment.from[0]), lat: segment.from[1] + t * (segment.to[1] - segment.from[1]) };
      const heading = Math.atan2((segment.to[0] - segment.from[0]) * Math.cos((base.lat * Math.PI) / 180), segment.to[1] - segment.from[1]);
      const p = moved(base, random.between(-g.widthKm, g.widthKm), heading + Math.PI / 2);
      if (this.fits(p, g.shoreKm)) return p;
      if (!fallback && this.fits(p, [1, Infinity])) fallback = p;
    }
    return fallback ?? { lat: g.lat, lon: g.lon };
  }

  /**
   * A point of the ground up to `km` from `from` (a vessel moving between hauls); `from` itself
   * when no draw lands on the ground, if it is on it, else anywhere on the ground.
   */
  nearOnGround(g: Ground, from: Position, km: number, random: Random): Position {
    for (let attempt = 0; attempt < 12; attempt++) {
      const p = moved(from, random.between(km / 5, km), random.between(0, 2 * Math.PI));
      if (this.fits(p, g.shoreKm)) return p;
    }
    return this.fits(from, g.shoreKm) ? from : this.onGround(g, random);
  }

  /** A point at least `minShoreKm` offshore, as near `from` as the draws find one. */
  offshore(from: Position, minShoreKm: number, random: Random): Position {
    if (this.fits(from, [minShoreKm, Infinity])) return from;
    for (const radius of [25, 50, 100, 200, 400, 800]) {
      for (let attempt = 0; attempt < 8; attempt++) {
        const p = moved(from, random.between(radius / 2, radius), random.between(0, 2 * Math.PI));
        if (this.fits(p, [minShoreKm, Infinity])) return p;
      }
    }
    return from;
  }

  /**
   * A point at sea about `km` from `from` in a random direction, with the midpoint at sea too; the
   * distance shrinks when no direction finds water (a vessel dark along a coast went less far).
   */
  reachedAfter(from: Position, km: number, random: Random): Position {
    for (let distance = km; distance > 0.5; distance /= 2) {
      for (let attempt = 0; attempt < 8; attempt++) {
        const p = moved(from, distance, random.between(0, 2 * Math.PI));
        // Not across the antimeridian: the mean position is the plain average of the two.
        if (Math.abs(p.lon) > 180) continue;
        if (!this.land.isLand(p.lon, p.lat) && !this.land.isLand((from.lon + p.lon) / 2, (from.lat + p.lat) / 2)) return p;
      }
    }
    return from;
  }
}
