// Real demo geography from @globalfishingwatch/ocean-areas (its JSON files are read directly: the
// package's main entry is missing): EEZ polygons with Marine Regions ids, FAO major areas, RFMO
// areas, MPAs and ports; land from world-atlas. A position is tagged with every layer that
// contains it, as the pipeline tags `regions` at the mean position.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Regions } from '../../domain/regions.ts';
import { Land } from './land.ts';
import { LatitudeBands, type Edge } from '../../geo/bands.ts';
import { bodiesOfFaoArea, FISHERY_BODIES } from './fishery-bodies.ts';

type Ring = [number, number][];
export interface Area {
  id: string;
  name: string;
  polygons: Ring[][];
  bbox: [number, number, number, number];
}
export interface Port {
  id: string;
  name: string;
  flag: string;
  lat: number;
  lon: number;
}
interface Feature {
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates: unknown } | null;
}

const sourceDir = join(dirname(createRequire(import.meta.url).resolve('@globalfishingwatch/ocean-areas/package.json')), 'src/data/source');

function readFeatures(file: string): Feature[] {
  return JSON.parse(readFileSync(join(sourceDir, file), 'utf8'));
}

/** [west, south, east, north] of the polygons' outer rings. */
export function bboxOf(polygons: Ring[][]): [number, number, number, number] {
  let bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const poly of polygons) for (const [x, y] of poly[0]!) bbox = [Math.min(bbox[0], x), Math.min(bbox[1], y), Math.max(bbox[2], x), Math.max(bbox[3], y)];
  return bbox;
}

function toArea(f: Feature): Area {
  const g = f.geometry!;
  const polygons = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as Ring[][];
  return { id: String(f.properties['area']), name: String(f.properties['name']), polygons, bbox: bboxOf(polygons) };
}

/** A ring with its edges in latitude bands, each band flattened for a fast loop. */
class BandedRing {
  private readonly index: LatitudeBands;
  private readonly flat: Float64Array[];
  constructor(ring: Ring) {
    const edges: Edge[] = [];
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) edges.push([ring[i]![0], ring[i]![1], ring[j]![0], ring[j]![1]]);
    this.index = new LatitudeBands(edges, 4, 4096);
    this.flat = this.index.bands.map((band) => Float64Array.from(band.flat()));
  }
  contains(lon: number, lat: number): boolean {
    const band = this.flat[this.index.bandOf(lat)]!;
    let inside = false;
    for (let k = 0; k < band.length; k += 4) {
      const xi = band[k]!, yi = band[k + 1]!, xj = band[k + 2]!, yj = band[k + 3]!;
      if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  }
}

const bandedRings = new WeakMap<Area, BandedRing[][]>();

export function areaContains(a: Area, lon: number, lat: number): boolean {
  if (lon < a.bbox[0] || lon > a.bbox[2] || lat < a.bbox[1] || lat > a.bbox[3]) return false;
  let polygons = bandedRings.get(a);
  if (!polygons) bandedRings.set(a, (polygons = a.polygons.map((poly) => poly.map((ring) => new BandedRing(ring)))));
  // Plain loops: this runs several times per generated row, and closures cost here.
  for (const rings of polygons) {
    if (!rings[0]!.contains(lon, lat)) continue;
    let inHole = false;
    for (let h = 1; h < rings.length && !inHole; h++) inHole = rings[h]!.contains(lon, lat);
    if (!inHole) return true;
  }
  return false;
}

/** Areas indexed by the 1-degree cells their boxes cover, so a point tests only its candidates. */
class AreaLayer {
  private readonly cells = new Map<number, Area[]>();
  constructor(readonly areas: Area[]) {
    for (const a of areas) {
      for (let x = Math.floor(a.bbox[0]); x <= Math.floor(a.bbox[2]); x++) {
        for (let y = Math.floor(a.bbox[1]); y <= Math.floor(a.bbox[3]); y++) {
          const key = (x + 180) * 1000 + (y + 90);
          const list = this.cells.get(key);
          if (list) list.push(a);
          else this.cells.set(key, [a]);
        }
      }
    }
  }
  containing(lon: number, lat: number): Area[] {
    const found: Area[] = [];
    for (const a of this.cells.get((Math.floor(lon) + 180) * 1000 + (Math.floor(lat) + 90)) ?? []) if (areaContains(a, lon, lat)) found.push(a);
    return found;
  }
}

const boxArea = (a: Area) => (a.bbox[2] - a.bbox[0]) * (a.bbox[3] - a.bbox[1]);

/**
 * The package draws the four FAO areas that cross the antimeridian as boxes around the whole
 * globe (area 61 from 180°W to 180°E), so an Atlantic position fell inside the Northwest Pacific.
 * These follow FAO's boundaries (CWP Handbook, "FAO major fishing areas") to the degree, cut at
 * 180°: [west, south, east, north] boxes.
 */
const ANTIMERIDIAN_FAO_AREAS: Record<string, [number, number, number, number][]> = {
  '61': [[105, 20, 180, 66.39], [-180, 20, -175, 66.39]],
  '71': [[99, -28.15, 180, 20], [-180, -28.15, -175, 20]],
  '81': [[150, -60, 180, -25], [-180, -60, -120, -25]],
  '88': [[150, -85.58, 180, -60], [-180, -85.58, -70, -60]],
};

function faoArea(f: Feature): Area {
  const boxes = ANTIMERIDIAN_FAO_AREAS[String(f.properties['area'])];
  if (!boxes) return toArea(f);
  const polygons = boxes.map(([w, s, e, n]): Ring[] => [[[w, s], [e, s], [e, n], [w, n], [w, s]]]);
  return { id: String(f.properties['area']), name: String(f.properties['name']), polygons, bbox: bboxOf(polygons) };
}

/** A fisheries body's area: the FAO major areas it lies in (src/data/demo/fishery-bodies.ts). */
function bodyArea(id: string, fao: readonly string[], areas: Area[]): Area | undefined {
  const parts = areas.filter((a) => fao.includes(a.id));
  if (parts.length === 0) return undefined;
  const polygons = parts.flatMap((a) => a.polygons);
  return { id, name: id, polygons, bbox: bboxOf(polygons) };
}

export class Geography {
  readonly land = new Land();
  readonly eezs = new AreaLayer(readFeatures('eezs.json').filter((f) => f.geometry).map(toArea));
  readonly fao = new AreaLayer(readFeatures('fao.json').map(faoArea));
  readonly rfmos = new AreaLayer(FISHERY_BODIES.map((b) => bodyArea(b.id, b.fao, this.fao.areas)).filter((a): a is Area => a !== undefined));
  readonly mpas = new AreaLayer(readFeatures('mpas.json').filter((f) => f.geometry).map(toArea));
  /** EEZ id -> country (ISO3), from the package's copy of GFW's EEZ list (`{id, label, iso3}`). */
  private readonly eezCountries = new Map(
    (JSON.parse(readFileSync(join(sourceDir, 'eezs-gfw.json'), 'utf8')) as { id: number; iso3: string | null }[]).map((e) => [String(e.id), e.iso3]),
  );
  readonly ports: Port[] = readFeatures('ports.json').map((f) => {
    const [lon, lat] = f.geometry!.coordinates as [number, number];
    const id = String(f.properties['area']);
    return { id, name: String(f.properties['name']), flag: id.slice(0, 3).toUpperCase(), lat, lon };
  });

  /**
   * Regions at a position. The package's FAO areas are boxes that overlap; a point takes the
   * smallest box that holds it as its one major area, plus the sub-area codes given for it.
   */
  regionsAt(lon: number, lat: number, distanceFromShoreKm: number, faoSubAreas: Record<string, string[]> = {}): Regions {
    const eez = this.eezs.containing(lon, lat).map((a) => a.id);
    const major = this.faoMajorAt(lon, lat);
    const majorFao = major ? [major] : [];
    const mpa = this.mpas.containing(lon, lat).map((a) => a.id);
    return {
      eez,
      // The 12-nautical-mile band: within 22.2 km of the coast.
      eez12Nm: distanceFromShoreKm <= 22.2 ? eez : [],
      fao: major ? [...(faoSubAreas[major] ?? []), major] : [],
      majorFao,
      // Outside every EEZ: the demo names the high-seas area by its FAO major area.
      highSeas: eez.length === 0 ? majorFao : [],
      mpa,
      // The package does not say which MPAs are no-take; the demo marks a fixed subset.
      mpaNoTake: mpa.filter((id) => Number(id) % 2 === 0),
      mpaNoTakePartial: mpa.filter((id) => Number(id) % 10 === 1),
      // The bodies of the position's one major area, so that tags and areas agree by construction.
      rfmo: bodiesOfFaoArea(major),
    };
  }

  /** The FAO major area of a position: the smallest of the package's boxes that holds it. */
  faoMajorAt(lon: number, lat: number): string | undefined {
    return this.fao.containing(lon, lat).sort((a, b) => boxArea(a) - boxArea(b))[0]?.id;
  }

  eezIso3(id: string): string | null {
    return this.eezCountries.get(id) || null;
  }

  portsNear(lon: number, lat: number, count: number): Port[] {
    return this.ports
      .map((p) => ({ p, d: distanceKm(lon, lat, p.lon, p.lat) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, count)
      .map((x) => x.p);
  }

  /** Region geometries of a layer as GeoJSON features with their region ids (for loading). */
  layerFeatures(layer: 'eez' | 'fao' | 'rfmo' | 'mpa'): { type: 'Feature'; id: string; properties: { id: string; name: string }; geometry: { type: 'MultiPolygon'; coordinates: Ring[][] } }[] {
    const source = { eez: this.eezs, fao: this.fao, rfmo: this.rfmos, mpa: this.mpas }[layer];
    return source.areas.map((a) => ({ type: 'Feature', id: a.id, properties: { id: a.id, name: a.name }, geometry: { type: 'MultiPolygon', coordinates: a.polygons } }));
  }
}

export function distanceKm(lon1: number, lat1: number, lon2: number, lat2: number): number {
  return haversineKm(haversine(lon1, lat1, lon2, lat2));
}

/**
 * The haversine of the central angle between two points. The distance grows with it, so the
 * nearest of many points can be found on it alone, with one asin for the winner.
 */
export function haversine(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  return Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
}

export function haversineKm(h: number): number {
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}
