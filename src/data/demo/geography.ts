// Real demo geography from @globalfishingwatch/ocean-areas (its JSON files are read directly: the
// package's main entry is missing): EEZ polygons with Marine Regions ids, FAO major areas, RFMO
// areas, MPA boxes and ports. A position is tagged with every layer that contains it, as the
// pipeline tags `regions` at the mean position.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Regions } from '../record.ts';

type Ring = [number, number][];
interface Area {
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

const sourceDir = join(dirname(createRequire(import.meta.url).resolve('@globalfishingwatch/ocean-areas/package.json')), 'src/data/source');

function readFeatures(file: string): { properties: Record<string, unknown>; geometry: { type: string; coordinates: unknown } }[] {
  return JSON.parse(readFileSync(join(sourceDir, file), 'utf8'));
}

function toArea(f: ReturnType<typeof readFeatures>[number]): Area {
  const polygons = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates) as Ring[][];
  const points = polygons.flat(2);
  const lons = points.map((p) => p[0]);
  const lats = points.map((p) => p[1]);
  return {
    id: String(f.properties['area']),
    name: String(f.properties['name']),
    polygons,
    bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)],
  };
}

function ringContains(ring: Ring, lon: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function areaContains(a: Area, lon: number, lat: number): boolean {
  if (lon < a.bbox[0] || lon > a.bbox[2] || lat < a.bbox[1] || lat > a.bbox[3]) return false;
  return a.polygons.some((poly) => ringContains(poly[0]!, lon, lat) && !poly.slice(1).some((hole) => ringContains(hole, lon, lat)));
}

export class Geography {
  readonly eezs = readFeatures('eezs.json').filter((f) => f.geometry).map(toArea);
  readonly fao = readFeatures('fao.json').map(toArea);
  readonly rfmos = readFeatures('rfmos.json').map(toArea);
  readonly mpas = readFeatures('mpas.json').filter((f) => f.geometry).map(toArea);
  readonly ports: Port[] = readFeatures('ports.json').map((f) => {
    const [lon, lat] = f.geometry.coordinates as [number, number];
    const id = String(f.properties['area']);
    return { id, name: String(f.properties['name']), flag: id.slice(0, 3).toUpperCase(), lat, lon };
  });

  regionsAt(lon: number, lat: number, distanceFromShoreKm: number): Regions {
    const ids = (areas: Area[]) => areas.filter((a) => areaContains(a, lon, lat)).map((a) => a.id);
    const eez = ids(this.eezs);
    const majorFao = ids(this.fao);
    const mpa = ids(this.mpas);
    return {
      eez,
      // The 12 nm band is 22.2 km from the baseline.
      eez12Nm: distanceFromShoreKm <= 22 ? eez : [],
      fao: majorFao,
      majorFao,
      // Outside every EEZ: the demo names the high-seas area by the FAO major area it lies in.
      highSeas: eez.length === 0 ? majorFao : [],
      mpa,
      // The demo tags the smaller half of its MPAs as no-take, a tenth as partially no-take.
      mpaNoTake: mpa.filter((id) => Number(id) % 2 === 0),
      mpaNoTakePartial: mpa.filter((id) => Number(id) % 10 === 1),
      rfmo: ids(this.rfmos),
    };
  }

  portsNear(lon: number, lat: number, count: number): Port[] {
    return this.ports
      .map((p) => ({ p, d: distanceKm(lon, lat, p.lon, p.lat) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, count)
      .map((x) => x.p);
  }
}

export function distanceKm(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}
