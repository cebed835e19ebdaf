// Where a buffered area can lie, found without computing the buffer. turf's buffer (buffer.ts)
// takes a millisecond or more for an EEZ, and a worker thread's hand-off more again; when no event
// of the queried datasets lies anywhere the buffer could reach, the answer is empty and the buffer
// need not be computed at all (src/query/area.ts). In the peers benchmark's polygon class, nine EEZ
// years in ten are such areas (docs/performance.md, "Polygons: areas out of reach").
//
// Why the box holds the whole buffered area. turf projects the shape with d3's azimuthal
// equidistant projection centred on the middle of its bounding box, buffers it there in metres
// (jsts), and takes each vertex back. That projection stretches distances, never shrinks them
// (radially it keeps them; across, by rho / sin(rho) >= 1), so going back shrinks them: two points
// of the plane at most r apart go back to points at most r apart on the sphere. Every vertex of the
// buffered shape lies within the buffer distance (jsts may cut a concave vertex within 1% of it) of
// the projected shape's edges, so within that distance plus half the spacing of points sampled
// along those edges from one of the samples, in the plane; and so within it on the sphere of the
// sample taken back. A ball of that radius fits in a box of latitudes and longitudes, and the
// buffered shape, whose edges are straight between its vertices, in the box around all of them.
// Where that box reaches a pole, crosses the antimeridian or spans half the globe (turf's shape
// would be split or wrapped there), no box is given.
import { geoAzimuthalEquidistant } from 'd3-geo';
import { earthRadius, lengthToRadians, radiansToLength } from '@turf/helpers';
import { TURF_UNITS, type BufferUnit } from './buffer.ts';
import type { Polygon } from './geojson.ts';
import type { Box } from './grid.ts';

/** Spacing of the points sampled along each projected edge, in metres. */
const SPACING_M = 20_000;
/**
 * Past this many vertices or samples, no box (the buffer is computed): the check runs on the event
 * loop, where the buffer itself runs in its worker thread. A ring of 9,999 vertices took 3.0-5.4 ms
 * once compiled (10-20 ms the first two times); one of 99,999, without the limit, 44-102 ms.
 */
const MAX_SAMPLES = 10_000;
/** jsts's simplification of the input may move the buffer's edge out by 1% of its distance; 5% is kept. */
const DISTANCE_SLACK = 1.05;
const DEGREES = 180 / Math.PI;
/** The highest latitude a box may reach, in radians: past it, a ball round a point may hold a pole. */
const HIGHEST = (89.9 / 180) * Math.PI;

/**
 * A box of [minLon, minLat, maxLon, maxLat] that holds every point of the buffered polygons (the
 * DISSOLVE shape, and so the DIFFERENCE ring), or undefined where none is given: a shrinking
 * buffer, longitudes past ±180, a box reaching a pole or the antimeridian, or too long an outline.
 */
export function bufferReach(polygons: readonly Polygon[], value: number, unit: BufferUnit): Box | undefined {
  if (!(value >= 0) || !Number.isFinite(value)) return undefined;
  const distanceM = radiansToLength(lengthToRadians(value, TURF_UNITS[unit]), 'meters');
  // turf's centre: the middle of the bounding box of every position.
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  let vertices = 0;
  for (const polygon of polygons) for (const ring of polygon) {
    vertices += ring.length;
    for (const [lon, lat] of ring) {
      west = Math.min(west, lon);
      east = Math.max(east, lon);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
  }
  // Longitudes past ±180 (a ring drawn across the antimeridian) come back wrapped: no box.
  if (!(west <= east) || west < -180 || east > 180 || vertices > MAX_SAMPLES) return undefined;
  const projection = geoAzimuthalEquidistant().rotate([-(west + east) / 2, -(south + north) / 2]).scale(earthRadius);
  const [cx, cy] = projection.translate();
  // Each vertex of the buffer lies within this many metres of a sample, on the sphere (1 m for rounding).
  const reachM = distanceM * DISTANCE_SLACK + SPACING_M / 2 + 1;
  const reach = reachM / earthRadius;
  const sinReach = Math.sin(reach);
  // The projection stretches (and so its inverse shrinks) within the hemisphere round its centre; keep inside it.
  const farthest = (Math.PI / 2) * earthRadius - reachM;
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  /** Widens the box by the ball of radius `reach` round a sample; false where that ball comes near a pole. */
  const widen = (lon: number, lat: number): boolean => {
    const latitude = Math.abs(lat) / DEGREES + reach;
    if (latitude >= HIGHEST) return false;
    // The widest the ball is in longitude, at any latitude it spans.
    const across = Math.asin(Math.min(1, sinReach / Math.cos(latitude))) * DEGREES;
    box[0] = Math.min(box[0]!, lon - across);
    box[2] = Math.max(box[2]!, lon + across);
    box[1] = Math.min(box[1]!, lat - reach * DEGREES);
    box[3] = Math.max(box[3]!, lat + reach * DEGREES);
    return true;
  };
  let samples = 0;
  for (const polygon of polygons) for (const ring of polygon) {
    let a = projection(ring[0]!)!;
    if (Math.hypot(a[0] - cx, a[1] - cy) > farthest) return undefined;
    for (let i = 0; i + 1 < ring.length; i++) {
      const b = projection(ring[i + 1]!)!;
      if (Math.hypot(b[0] - cx, b[1] - cy) > farthest) return undefined;
      // Points along the edge no more than SPACING_M apart (the next edge starts at b). The first is
      // the vertex itself, which the inverse gives back.
      const steps = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / SPACING_M));
      if ((samples += steps) > MAX_SAMPLES) return undefined;
      if (!widen(ring[i]![0], ring[i]![1])) return undefined;
      for (let k = 1; k < steps; k++) {
        const [lon, lat] = projection.invert!([a[0] + ((b[0] - a[0]) * k) / steps, a[1] + ((b[1] - a[1]) * k) / steps])!;
        if (!widen(lon, lat)) return undefined;
      }
      a = b;
    }
  }
  // A hair more, for the rounding of the degrees computed above and of a vertex taken back.
  const [minLon, minLat, maxLon, maxLat] = [box[0]! - 1e-9, box[1]! - 1e-9, box[2]! + 1e-9, box[3]! + 1e-9];
  if (!(minLon > -180 && maxLon < 180 && maxLon - minLon < 180)) return undefined;
  return [minLon, minLat, maxLon, maxLat];
}
