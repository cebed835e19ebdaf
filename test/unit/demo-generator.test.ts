import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateDemoRows } from '../../src/data/demo/generate.ts';
import { Random } from '../../src/data/demo/random.ts';
import { boxAround, inGlobe } from '../../src/data/demo/rows.ts';
import fc from 'fast-check';

test('the demo is deterministic for a seed, and another seed gives other data', () => {
  const a = JSON.stringify([...generateDemoRows({ events: 300, seed: 5 })]);
  const b = JSON.stringify([...generateDemoRows({ events: 300, seed: 5 })]);
  const c = JSON.stringify([...generateDemoRows({ events: 300, seed: 6 })]);
  assert.equal(a, b);
  assert.notEqual(a, c);
});

test('the seeded random source is uniform enough and repeatable', () => {
  const r = new Random(42);
  const xs = Array.from({ length: 20000 }, () => r.next());
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  assert.ok(Math.abs(mean - 0.5) < 0.01, `mean ${mean}`);
  assert.equal(new Random(42).next(), xs[0]);
});

test('an event box stays within the globe, even for an event at the antimeridian or a pole', () => {
  fc.assert(fc.property(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: 0, max: 0.05, noNaN: true }), (lat, lon, half) => {
    const [lonMin, latMin, lonMax, latMax] = boxAround(lat, lon, () => half);
    assert.ok(lonMin >= -180 && lonMax <= 180 && latMin >= -90 && latMax <= 90, `${[lonMin, latMin, lonMax, latMax]}`);
    assert.ok(lonMin <= lonMax && latMin <= latMax);
  }));
  // The generator drew such a box at 10 million events: lon_min -180.0348.
  assert.deepEqual(boxAround(10, -179.99, () => 0.0448), [-180, 9.9552, -179.9452, 10.0448]);
  // A port visit's box is its start and end anchorages, as given, within the globe.
  assert.deepEqual(inGlobe([179.9991, -16.5, -180.002, 90.01]), [179.9991, -16.5, -180, 90]);
});
