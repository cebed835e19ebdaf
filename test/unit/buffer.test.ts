// Buffers of shapes cut at the antimeridian (src/geo/antimeridian.ts): the buffer of Kiribati's EEZ,
// which the data cuts at 180°, once came back as a ring spanning the globe the other way round, so
// a region filter with a buffer left out the events inside the region itself.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { bufferPolygons } from '../../src/geo/buffer.ts';
import { splitAtAntimeridian } from '../../src/geo/antimeridian.ts';
import type { Polygon } from '../../src/geo/geojson.ts';

const inside = (polygons: Polygon[], lon: number, lat: number) => polygons.some((p) => booleanPointInPolygon([lon, lat], { type: 'Polygon', coordinates: p }));
const withinRange = (polygons: Polygon[]) => polygons.every((p) => p.every((ring) => ring.every(([lon]) => lon! >= -180 && lon! <= 180)));

/** A box from `west` to 180°, as region layers cut shapes at the antimeridian. */
const boxToAntimeridian = (west: number, south: number, north: number): Polygon => [[[west, south], [180, south], [180, north], [west, north], [west, south]]];

/** Antarctica's EEZ (8489) as the region layers hold it: a ring round the South Pole, cut at 180°. */
const ANTARCTICA: Polygon = [[[180, -84.36], [180, -70.32], [173.5, -68.19], [165.34, -63.23], [147.25, -63.53], [120.04, -63.49], [90.91, -62.41],
  [75.27, -65.24], [45.04, -63.72], [22.86, -67.09], [7.27, -66.86], [-3.25, -66.98], [-30.41, -72.13], [-52.92, -67.37], [-57.86, -57.94],
  [-76.44, -65.8], [-99.73, -68.33], [-128.63, -69.72], [-165.75, -74.43], [-176.11, -76.8], [-180, -70.32], [-180, -84.36], [-180, -90], [180, -84.36]]];

describe('buffers at the antimeridian', () => {
  test('the buffer of a shape round a pole (Antarctica) is that cap grown, not an error', () => {
    for (const operation of ['DISSOLVE', 'DIFFERENCE'] as const) {
      const buffered = bufferPolygons([ANTARCTICA], 10, 'NAUTICALMILES', operation);
      assert.ok(withinRange(buffered), operation);
      assert.equal(inside(buffered, 0, -75), operation === 'DISSOLVE', `${operation}: inside the shape`);
      assert.equal(inside(buffered, 179.5, -80), operation === 'DISSOLVE', `${operation}: inside, by the antimeridian`);
      assert.equal(inside(buffered, 0, -55), false, `${operation}: far north of the shape`);
      // 10 nautical miles north of the ring at 7.27° E (1/6° of latitude), not 20.
      assert.equal(inside(buffered, 7.27, -66.75), true, `${operation}: within the buffer, north of the ring`);
      assert.equal(inside(buffered, 7.27, -66.5), false, `${operation}: beyond the buffer`);
    }
  });

  test('the buffer of a shape cut at 180° holds the shape, reaches across, and stays within [-180, 180]', () => {
    const box = boxToAntimeridian(170, -5, 5);
    for (const operation of ['DISSOLVE', 'DIFFERENCE'] as const) {
      const buffered = bufferPolygons([box], 10, 'NAUTICALMILES', operation);
      assert.ok(withinRange(buffered), operation);
      // 10 nautical miles is about 0.167° of longitude at the equator.
      assert.equal(inside(buffered, -179.9, 0), true, `${operation}: just across the antimeridian, within the buffer`);
      assert.equal(inside(buffered, -179.7, 0), false, `${operation}: across the antimeridian, beyond the buffer`);
      assert.equal(inside(buffered, 0, 0), false, `${operation}: the other side of the globe`);
      assert.equal(inside(buffered, 169.9, 0), true, `${operation}: west of the shape, within the buffer`);
      assert.equal(inside(buffered, 175, 0), operation === 'DISSOLVE', `${operation}: inside the shape`);
    }
  });

  test('every point of the shape is inside its grown buffer (property)', () => {
    fc.assert(fc.property(
      fc.double({ min: 150, max: 179, noNaN: true }), fc.double({ min: -60, max: 50, noNaN: true }), fc.double({ min: 1, max: 10, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }),
      (west, south, height, u, v) => {
        const box = boxToAntimeridian(west, south, south + height);
        const buffered = bufferPolygons([box], 5, 'KILOMETERS', 'DISSOLVE');
        const lon = west + 0.001 + u * (179.998 - west), lat = south + 0.001 + v * (height - 0.002);
        return withinRange(buffered) && inside(buffered, lon, lat);
      },
    ), { numRuns: 60 });
  });

  test('shapes that do not cross it are left as they are', () => {
    const box: Polygon = [[[10, 10], [20, 10], [20, 20], [10, 20], [10, 10]]];
    assert.deepEqual(splitAtAntimeridian([box]), [box]);
  });

  test('a ring that jumps across 180° becomes two pieces, one on each side', () => {
    const jumping: Polygon = [[[179, -1], [-179, -1], [-179, 1], [179, 1], [179, -1]]];
    const pieces = splitAtAntimeridian([jumping]);
    assert.equal(pieces.length, 2);
    assert.ok(withinRange(pieces));
    assert.equal(inside(pieces, 179.5, 0), true);
    assert.equal(inside(pieces, -179.5, 0), true);
    assert.equal(inside(pieces, 0, 0), false);
  });
});
