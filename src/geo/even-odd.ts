// The exact point-in-polygon test, even-odd within each polygon, over its edges grouped in latitude
// bands (bands.ts): the one form DuckDB's SQL binds (src/store/duckdb/polygon-sql.ts) and
// TypeScript runs (the positions of edge cells in src/store/duckdb/spatial-table.ts). Both compute
// the same IEEE arithmetic in the same order, so a position on or a hair off an edge gets the same
// answer from either (test/integration/spatial-table.test.ts checks them against each other).
import { LatitudeBands, type Edge } from './bands.ts';
import { bboxOf, type Polygon } from './geojson.ts';

/** A polygon ready for the test: its bounding box and its edges by band. Field names are SQL's. */
export interface BandedPolygon {
  min_lon: number;
  min_lat: number;
  max_lon: number;
  max_lat: number;
  band_lat: number;
  band_height: number;
  bands: Edge[][];
}

/** About 8 edges per band, at most 1,024 bands: a buffered EEZ's thousands of edges, a few dozen per row. */
export function bandedPolygon(polygon: Polygon): BandedPolygon {
  const [minLon, minLat, maxLon, maxLat] = bboxOf(polygon);
  const edges: Edge[] = [];
  for (const ring of polygon) for (let i = 0; i + 1 < ring.length; i++) edges.push([ring[i]![0], ring[i]![1], ring[i + 1]![0], ring[i + 1]![1]]);
  const banded = new LatitudeBands(edges, 8, 1024);
  return { min_lon: minLon, min_lat: minLat, max_lon: maxLon, max_lat: maxLat, band_lat: banded.minLat, band_height: banded.height, bands: banded.bands };
}

/**
 * Whether the position passes: inside the bounding box (edges included), and a horizontal ray
 * eastwards from it crosses an odd number of its band's edges. An edge [x1, y1, x2, y2] is crossed
 * when `(y1 > lat) <> (y2 > lat) AND lon < (x2 - x1) * (lat - y1) / (y2 - y1) + x1`, the
 * expression polygon-sql.ts writes.
 */
export function passesEvenOdd(p: BandedPolygon, lat: number, lon: number): boolean {
  if (!(lon >= p.min_lon && lon <= p.max_lon && lat >= p.min_lat && lat <= p.max_lat)) return false;
  const band = p.bands[Math.min(p.bands.length - 1, Math.max(0, Math.floor((lat - p.band_lat) / p.band_height)))]!;
  let crossings = 0;
  // Indexed, not destructured: destructuring an edge runs the iterator protocol per edge.
  for (let i = 0; i < band.length; i++) {
    const e = band[i]!;
    if (e[1] > lat !== e[3] > lat && lon < ((e[2] - e[0]) * (lat - e[1])) / (e[3] - e[1]) + e[0]) crossings++;
  }
  return crossings % 2 === 1;
}
