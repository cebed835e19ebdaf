// The polygon condition in DuckDB's SQL: a bounding-box cut first (cheap, and on the stored
// columns so zone maps prune), then the exact even-odd test over the polygon's edges.
import type { Polygon } from '../../geo/geojson.ts';
import { bandedPolygon, type BandedPolygon } from '../../geo/even-odd.ts';
import type { SqlBuilder } from './sql-builder.ts';

/** Up to this many polygons, each is one OR term of the condition; beyond it, a join (see below). */
export const POLYGON_TERMS_LIMIT = 16;

// Each polygon's edges are grouped in latitude bands (src/geo/even-odd.ts), so a row tests only
// its own band's edges: a buffered EEZ has thousands of edges, a band a few dozen.
export function compilePolygons(b: SqlBuilder, polygons: readonly Polygon[]): string {
  const tested = polygons.map(bandedPolygon);
  if (tested.length <= POLYGON_TERMS_LIMIT) return `(${tested.map((p) => compilePolygonTerm(b, p)).join(' OR ')})`;
  return compilePolygonJoin(b, tested);
}

// A horizontal ray from the point crosses the edge e = [x1, y1, x2, y2] when (passesEvenOdd in
// src/geo/even-odd.ts is the same test in TypeScript):
const CROSSING = `(e[2] > lat) <> (e[4] > lat) AND lon < (e[3] - e[1]) * (lat - e[2]) / (e[4] - e[2]) + e[1]`;

// Bands are bound as JSON text and cast: a list value would take its element type from the first
// number (INTEGER for 170) and reject the decimals after it.
function compilePolygonTerm(b: SqlBuilder, p: BandedPolygon): string {
  const band = `(${b.param(JSON.stringify(p.bands))}::DOUBLE[][][])[least(${p.bands.length - 1}, greatest(0, floor((lat - ${b.param(p.band_lat)}) / ${b.param(p.band_height)})))::INTEGER + 1]`;
  return `(lon BETWEEN ${b.param(p.min_lon)} AND ${b.param(p.max_lon)} AND lat BETWEEN ${b.param(p.min_lat)} AND ${b.param(p.max_lat)} AND len(list_filter(${band}, e -> ${CROSSING})) % 2 = 1)`;
}

// Many polygons (a FeatureCollection of small areas) are bound as one list and joined: as one OR
// term each, DuckDB's expression rewriter took 1.2 s to plan 266 polygons and 1.7 s in all on
// 20,000 events (2026-11-23; the fuzz's FeatureCollections answered in 12 s under load); joined,
// 0.1 s. A lambda over the list copied the whole list for every row (3.7 s); a grid of cells
// joined by hash probed every row (10M events: 2.6 s for one polygon). Up to 16 polygons stay
// terms, where planning is still short: the benchmark's buffered polygon (10M events) took 140 ms
// p50 as a term and 205 as a join; 4 small polygons 800 ms as terms and 1,700 as a join (2 of
// them: 600 and 160; the crossing is not clean, 16 is where planning terms passes ~50 ms).
const POLYGON_LIST = 'STRUCT(min_lon DOUBLE, min_lat DOUBLE, max_lon DOUBLE, max_lat DOUBLE, band_lat DOUBLE, band_height DOUBLE, bands DOUBLE[][][])[]';
function compilePolygonJoin(b: SqlBuilder, tested: readonly BandedPolygon[]): string {
  let [minLon, minLat, maxLon, maxLat] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of tested) [minLon, minLat, maxLon, maxLat] = [Math.min(minLon, p.min_lon), Math.min(minLat, p.min_lat), Math.max(maxLon, p.max_lon), Math.max(maxLat, p.max_lat)];
  const band = `p.bands[least(len(p.bands) - 1, greatest(0, floor((lat - p.band_lat) / p.band_height)))::INTEGER + 1]`;
  const inside = `lon BETWEEN p.min_lon AND p.max_lon AND lat BETWEEN p.min_lat AND p.max_lat AND len(list_filter(${band}, e -> ${CROSSING})) % 2 = 1`;
  const polygons = `(SELECT unnest(${b.param(JSON.stringify(tested))}::${POLYGON_LIST}) AS p)`;
  return `(lon BETWEEN ${b.param(minLon)} AND ${b.param(maxLon)} AND lat BETWEEN ${b.param(minLat)} AND ${b.param(maxLat)} AND EXISTS (SELECT 1 FROM ${polygons} WHERE ${inside}))`;
}
