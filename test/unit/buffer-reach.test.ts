// The box a buffer can reach (src/geo/buffer-reach.ts) holds every vertex of turf's buffered shape
// (and so the shape, whose edges are straight between them): a box too small would answer an area
// with events as empty. Random convex shapes, stars with holes and far-apart parts, from a few
// hundred metres to a quarter of the globe across, boxes whose edges run along parallels, at every
// latitude, with buffers in every unit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { bufferReach } from '../../src/geo/buffer-reach.ts';
import { geoAzimuthalEquidistant } from 'd3-geo';
import { earthRadius, lengthToRadians, radiansToLength } from '@turf/helpers';
import { BUFFER_UNITS, bufferPolygons, TURF_UNITS, type BufferUnit } from '../../src/geo/buffer.ts';
import type { Polygon, Ring } from '../../src/geo/geojson.ts';
import { boxMeetsCells, cellKeyOf, cellOfKey } from '../../src/geo/grid.ts';
import { caseCount } from '../helpers/size.ts';

function regular(lon: number, lat: number, radius: number, sides: number, inner: number, reversed = false): Ring {
  const ring: Ring = [];
  for (let i = 0; i < sides; i++) {
    const angle = (2 * Math.PI * i) / sides;
    const r = i % 2 ? radius * inner : radius;
    ring.push([lon + r * Math.cos(angle), Math.max(-90, Math.min(90, lat + r * Math.sin(angle)))]);
  }
  if (reversed) ring.reverse();
  ring.push([...ring[0]!]);
  return ring;
}

/** Roughly 20 km in each unit, times the factor drawn. */
const UNIT_SCALE: Record<BufferUnit, number> = { MILES: 12, NAUTICALMILES: 11, KILOMETERS: 20, RADIANS: 0.003, DEGREES: 0.18 };

const shapes = fc.record({
  lon: fc.double({ min: -179, max: 179, noNaN: true }),
  lat: fc.double({ min: -89, max: 89, noNaN: true }),
  radius: fc.oneof(fc.double({ min: 0.005, max: 1, noNaN: true }), fc.double({ min: 1, max: 25, noNaN: true })),
  sides: fc.integer({ min: 3, max: 14 }),
  inner: fc.oneof(fc.constant(1), fc.double({ min: 0.2, max: 0.9, noNaN: true })),
  kind: fc.constantFrom('plain', 'hole', 'parts', 'box'),
  unit: fc.constantFrom(...BUFFER_UNITS),
  factor: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 3, noNaN: true }), fc.double({ min: 3, max: 60, noNaN: true })),
});

function polygonsOf(s: { lon: number; lat: number; radius: number; sides: number; inner: number; kind: string }): Polygon[] {
  const outer = regular(s.lon, s.lat, s.radius, s.sides * (s.inner === 1 ? 1 : 2), s.inner);
  if (s.kind === 'hole') return [[outer, regular(s.lon, s.lat, s.radius * 0.15, 6, 1, true)]];
  // Edges along parallels, whose projected straight lines bow poleward of the corners' latitudes.
  if (s.kind === 'box') {
    const half = Math.max(s.radius, 8);
    const [w, e, lo, hi] = [Math.max(-179, s.lon - half), Math.min(179, s.lon + half), Math.max(-89, s.lat - half / 4), Math.min(89, s.lat + half / 4)];
    return [[[[w, lo], [e, lo], [e, hi], [w, hi], [w, lo]]]];
  }
  if (s.kind === 'parts') return [[outer], [regular(s.lon + s.radius * 2.5, s.lat - s.radius * 0.5, s.radius * 0.4, 5, 1)]];
  return [[outer]];
}

test('the box a buffer can reach holds every vertex of turf\'s buffered shape, and is given for most shapes (property)', () => {
  let given = 0;
  let runs = 0;
  fc.assert(fc.property(shapes, (s) => {
    runs++;
    const polygons = polygonsOf(s);
    const value = UNIT_SCALE[s.unit] * s.factor;
    const box = bufferReach(polygons, value, s.unit);
    if (!box) return true;
    given++;
    const [minLon, minLat, maxLon, maxLat] = box;
    for (const operation of ['DISSOLVE', 'DIFFERENCE'] as const) {
      let buffered: Polygon[];
      try {
        buffered = bufferPolygons(polygons, value, s.unit, operation);
      } catch {
        // turf's difference fails on some degenerate rings (a buffer of 0): the service answers
        // 422 there when it computes the buffer, and nothing matches where it need not.
        continue;
      }
      for (const polygon of buffered) for (const ring of polygon) for (const [lon, lat] of ring) {
        if (lon < minLon || lon > maxLon || lat < minLat || lat > maxLat) throw new Error(`${operation}: [${lon}, ${lat}] is outside [${box.join(', ')}]`);
      }
    }
    return true;
  }), { numRuns: caseCount('BUFFER_REACH_RUNS', 400, 100) });
  assert.ok(given > runs / 2, `a box for only ${given} of ${runs} shapes`);
});

/** The point `metres` from (lon, lat) on turf's sphere, heading `bearing` radians from north. */
function destination([lon, lat]: [number, number], metres: number, bearing: number): [number, number] {
  const [d, phi, lambda] = [metres / earthRadius, lat / DEG, lon / DEG];
  const phi2 = Math.asin(Math.sin(phi) * Math.cos(d) + Math.cos(phi) * Math.sin(d) * Math.cos(bearing));
  const lambda2 = lambda + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(phi), Math.cos(d) - Math.sin(phi) * Math.sin(phi2));
  return [lambda2 * DEG, phi2 * DEG];
}
const DEG = 180 / Math.PI;

test('the box holds every point within the buffer distance of the outline as turf projects it, between the vertices too (property)', () => {
  // What the box rests on: turf's buffer reaches the buffer distance from any point of the outline
  // drawn straight in its projection, whose preimage bows away from the straight line in degrees.
  fc.assert(fc.property(shapes, fc.double({ min: 0, max: 1, noNaN: true }), (s, along) => {
    const polygons = polygonsOf(s);
    const value = UNIT_SCALE[s.unit] * s.factor;
    const box = bufferReach(polygons, value, s.unit);
    if (!box) return true;
    const all = polygons.flat(2);
    const [west, east] = [Math.min(...all.map((p) => p[0])), Math.max(...all.map((p) => p[0]))];
    const [south, north] = [Math.min(...all.map((p) => p[1])), Math.max(...all.map((p) => p[1]))];
    const projection = geoAzimuthalEquidistant().rotate([-(west + east) / 2, -(south + north) / 2]).scale(earthRadius);
    const metres = radiansToLength(lengthToRadians(value, TURF_UNITS[s.unit]), 'meters');
    for (const polygon of polygons) for (const ring of polygon) for (let i = 0; i + 1 < ring.length; i++) {
      const [a, b] = [projection(ring[i]!)!, projection(ring[i + 1]!)!];
      for (const t of [along, 0.5]) for (let k = 0; k < 8; k++) {
        const point = projection.invert!([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t])! as [number, number];
        const [lon, lat] = destination(point, metres, (k * Math.PI) / 4);
        if (lon < box[0] || lon > box[2] || lat < box[1] || lat > box[3]) throw new Error(`[${lon}, ${lat}], ${metres} m from [${point}], is outside [${box.join(', ')}]`);
      }
    }
    return true;
  }), { numRuns: caseCount('BUFFER_REACH_RUNS', 300, 100) });
});

test('a box hugs a small shape: 10 nautical miles around a square of 1 degree at 60 north', () => {
  const box = bufferReach([[[[10, 60], [11, 60], [11, 61], [10, 61], [10, 60]]]], 10, 'NAUTICALMILES')!;
  // 10 nm is 1/6 degree of latitude; with 20 km samples, within 0.2 degrees more.
  assert.ok(box[1] < 60 - 1 / 6 && box[1] > 60 - 0.4 && box[3] > 61 + 1 / 6 && box[3] < 61.4, `latitudes ${box}`);
  // At 61 north a degree of longitude is about 29 nm: 10 nm is about 0.35 degrees.
  assert.ok(box[0] < 10 - 0.34 && box[0] > 9 && box[2] > 11 + 0.34 && box[2] < 12, `longitudes ${box}`);
});

test('no box where the buffer shrinks, or reaches a pole or the antimeridian', () => {
  const square = (lon: number, lat: number): Polygon[] => [[[[lon, lat], [lon + 1, lat], [lon + 1, lat + 1], [lon, lat + 1], [lon, lat]]]];
  assert.equal(bufferReach(square(0, 0), -5, 'KILOMETERS'), undefined);
  assert.equal(bufferReach(square(0, 88.5), 100, 'KILOMETERS'), undefined);
  assert.equal(bufferReach(square(178.9, 0), 20, 'NAUTICALMILES'), undefined);
  assert.equal(bufferReach(square(-179.95, 0), 1, 'KILOMETERS'), undefined);
  assert.ok(bufferReach(square(170, 0), 20, 'NAUTICALMILES'));
});

test('a cell\'s key read backwards gives its row and column, and a box meets the cells it should', () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: 359 }), fc.integer({ min: 0, max: 719 }), (row, column) => {
    assert.deepEqual(cellOfKey(cellKeyOf(row, column)), { row, column });
    const lat = row / 2 - 90 + 0.25, lon = column / 2 - 180 + 0.25;
    const key = cellKeyOf(row, column);
    assert.equal(boxMeetsCells([lon - 0.1, lat - 0.1, lon + 0.1, lat + 0.1], [key]), true);
    // A box a whole cell away meets nothing; one touching the cell's edge meets it.
    assert.equal(boxMeetsCells([lon - 0.6, lat + 0.5, lon - 0.5, lat + 0.6], [key]), row === 359 && column === 0);
    assert.equal(boxMeetsCells([lon - 0.6, lat - 0.1, lon - 0.25, lat + 0.1], [key]), true);
  }), { numRuns: caseCount('BUFFER_REACH_RUNS', 300, 100) });
});
