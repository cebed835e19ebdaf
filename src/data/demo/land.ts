// Land from world-atlas (Natural Earth 1:50m): whether a point is on land, and its distance from
// the coast. Coast edges are indexed by 1-degree latitude band (ray casting) and by 0.25-degree
// cell (local crossing counts, and the nearest-coast search outward from the point's cell).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

type Edge = [number, number, number, number];
/** Kilometres per degree of latitude (of longitude at the equator), on the mean Earth radius. */
export const KM_PER_DEGREE = 111.195;

function landRings(): [number, number][][] {
  const require = createRequire(import.meta.url);
  const topo = JSON.parse(readFileSync(require.resolve('world-atlas/land-50m.json'), 'utf8')) as Topology<{ land: GeometryCollection }>;
  const land = feature(topo, topo.objects.land);
  const rings: [number, number][][] = [];
  for (const f of land.features) {
    const g = f.geometry;
    const polygons = g.type === 'MultiPolygon' ? g.coordinates : g.type === 'Polygon' ? [g.coordinates] : [];
    for (const polygon of polygons) for (const ring of polygon) rings.push(ring as [number, number][]);
  }
  return rings;
}

const CELL = 0.25;

export class Land {
  private readonly bands = new Map<number, Edge[]>();
  private readonly cells = new Map<number, Edge[]>();
  /** 1-degree cells for the nearest-coast search: far from land, fewer rings to look through. */
  private readonly coarse = new Map<number, Edge[]>();
  private readonly centreIsLand = new Map<number, boolean>();
  private readonly shoreCache = new Map<number, number>();
  private readonly coarseCache = new Map<number, number>();

  constructor() {
    for (const ring of landRings()) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const [x1, y1] = ring[i]!;
        const [x2, y2] = ring[i + 1]!;
        // Edges along the antimeridian seam are not coast.
        if (Math.abs(x1 - x2) > 180 || (Math.abs(x1) === 180 && x1 === x2)) continue;
        const edge: Edge = [x1, y1, x2, y2];
        for (let b = Math.floor(Math.min(y1, y2)); b <= Math.floor(Math.max(y1, y2)); b++) push(this.bands, b, edge);
        for (let cx = cellIndex(Math.min(x1, x2)); cx <= cellIndex(Math.max(x1, x2)); cx++) {
          for (let cy = cellIndex(Math.min(y1, y2)); cy <= cellIndex(Math.max(y1, y2)); cy++) push(this.cells, cellKey(cx, cy), edge);
        }
        for (let cx = Math.floor(Math.min(x1, x2)); cx <= Math.floor(Math.max(x1, x2)); cx++) {
          for (let cy = Math.floor(Math.min(y1, y2)); cy <= Math.floor(Math.max(y1, y2)); cy++) push(this.coarse, cellKey(cx + 180, cy + 180), edge);
        }
      }
    }
  }

  /**
   * Whether the point is on land. Each 0.25-degree cell's centre is classified once by ray casting
   * along its latitude band; a point then only counts the coast edges of its own cell crossed by
   * the short segment to that centre (each crossing flips land and sea).
   */
  isLand(lon: number, lat: number): boolean {
    const cx = cellIndex(lon);
    const cy = cellIndex(lat);
    const key = cellKey(cx, cy);
    const centreLon = (cx + 0.5) * CELL - 180;
    const centreLat = (cy + 0.5) * CELL - 180;
    let inside = this.centreIsLand.get(key);
    if (inside === undefined) {
      inside = this.rayCast(centreLon, centreLat);
      this.centreIsLand.set(key, inside);
    }
    for (const e of this.cells.get(key) ?? []) if (segmentsCross(lon, lat, centreLon, centreLat, e)) inside = !inside;
    return inside;
  }

  private rayCast(lon: number, lat: number): boolean {
    let inside = false;
    for (const [x1, y1, x2, y2] of this.bands.get(Math.floor(lat)) ?? []) {
      if (y1 > lat !== y2 > lat && lon < ((x2 - x1) * (lat - y1)) / (y2 - y1) + x1) inside = !inside;
    }
    return inside;
  }

  /**
   * Distance to the nearest coast, km (the pipeline reports whole km). Far from land the distance
   * field is smooth, so it is interpolated between exact values on a 0.1-degree grid; within
   * 50 km of a coast it is the exact distance at the nearest point of a 0.02-degree grid.
   */
  distanceFromShoreKm(lon: number, lat: number): number {
    const gx = (lon + 180) * 10;
    const gy = (lat + 90) * 10;
    const x0 = Math.floor(gx);
    const y0 = Math.floor(gy);
    const a = this.corner(x0, y0);
    const b = this.corner(x0 + 1, y0);
    const c = this.corner(x0, y0 + 1);
    const d = this.corner(x0 + 1, y0 + 1);
    if (Math.min(a, b, c, d) > 50) {
      const fx = gx - x0;
      const fy = gy - y0;
      return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
    }
    // Small integer keys: a Map hashes them much faster than large ones. The distance is the one at
    // the grid point, so it does not depend on which position asked first (the demo's shards are
    // made in any order, generate.ts).
    const x = Math.round((lon + 180) * 50);
    const y = Math.round((lat + 90) * 50);
    return this.cached(this.shoreCache, x * 10_000 + y, x / 50 - 180, y / 50 - 90);
  }

  /** The exact distance at a corner of the 0.1-degree grid. */
  private corner(x: number, y: number): number {
    return this.cached(this.coarseCache, x * 10_000 + y, x / 10 - 180, y / 10 - 90);
  }

  private cached(cache: Map<number, number>, key: number, lon: number, lat: number): number {
    let d = cache.get(key);
    if (d === undefined) {
      d = this.nearestCoastKm(lon, lat);
      cache.set(key, d);
    }
    return d;
  }

  private nearestCoastKm(lon: number, lat: number): number {
    const cos = Math.max(0.05, Math.cos((lat * Math.PI) / 180));
    const cx = Math.floor(lon) + 180;
    const cy = Math.floor(lat) + 180;
    const ringKm = KM_PER_DEGREE * cos;
    let best = Infinity;
    for (let r = 0; r < 180; r++) {
      // Every cell of ring r is at least (r - 1) degrees away.
      if (best < (r - 1) * ringKm) break;
      for (let dx = -r; dx <= r; dx++) {
        // The ring's cells only: whole columns at its left and right edges, two cells elsewhere.
        const step = Math.abs(dx) === r || r === 0 ? 1 : 2 * r;
        for (let dy = -r; dy <= r; dy += step) {
          const edges = this.coarse.get(cellKey((cx + dx + 360) % 360, cy + dy));
          if (edges) for (const e of edges) best = Math.min(best, segmentKm(lon, lat, cos, e));
        }
      }
    }
    return best;
  }
}

function push(map: Map<number, Edge[]>, key: number, edge: Edge): void {
  const list = map.get(key);
  if (list) list.push(edge);
  else map.set(key, [edge]);
}

// Both axes use the same offset, so latitude cells share the longitude arithmetic.
function cellIndex(degrees: number): number {
  return Math.floor((degrees + 180) / CELL);
}

function cellKey(x: number, y: number): number {
  return x * 1000 + y;
}

function segmentsCross(ax: number, ay: number, bx: number, by: number, [x1, y1, x2, y2]: Edge): boolean {
  const d1 = (x2 - x1) * (ay - y1) - (y2 - y1) * (ax - x1);
  const d2 = (x2 - x1) * (by - y1) - (y2 - y1) * (bx - x1);
  const d3 = (bx - ax) * (y1 - ay) - (by - ay) * (x1 - ax);
  const d4 = (bx - ax) * (y2 - ay) - (by - ay) * (x2 - ax);
  return d1 > 0 !== d2 > 0 && d3 > 0 !== d4 > 0;
}

function unwrapLon(x: number, lon: number): number {
  return x - lon > 180 ? x - 360 : x - lon < -180 ? x + 360 : x;
}

/** Point-segment distance on a local equirectangular projection (accurate near the point). */
function segmentKm(lon: number, lat: number, cos: number, e: Edge): number {
  const ax = (unwrapLon(e[0], lon) - lon) * cos;
  const ay = e[1] - lat;
  const bx = (unwrapLon(e[2], lon) - lon) * cos;
  const by = e[3] - lat;
  const dx = bx - ax;
  const dy = by - ay;
  const t = dx === 0 && dy === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy)));
  return Math.hypot(ax + t * dx, ay + t * dy) * KM_PER_DEGREE;
}
