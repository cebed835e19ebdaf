// Web Mercator tiles (src/geo/tiles.ts): the tile tileOf names for a point holds it by tileBounds'
// own rule, at every zoom, for points anywhere, on tile edges and beyond Mercator's limit, so the
// tiles of a zoom together hold every event once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { isTile, MAX_TILE_ZOOM, tileBounds, tileOf } from '../../src/geo/tiles.ts';
import { caseCount } from '../helpers/size.ts';

// Positions as events carry them: to 1e-7 degree (about a centimetre).
const degrees = (min: number, max: number) => fc.double({ min, max, noNaN: true }).map((v) => Math.round(v * 1e7) / 1e7);
const holds = (t: ReturnType<typeof tileBounds>, lon: number, lat: number) =>
  lon >= t.west && (lon < t.east || (t.lastColumn && lon <= t.east)) &&
  (lat < t.north || t.topRow) && (lat >= t.south || t.bottomRow);

test('the tile of a point holds it, and is a tile of that zoom', () => {
  // Points exactly on tile edges of some zoom, in longitude and in latitude.
  const someTile = fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 4095 })).map(([z, i]) => tileBounds(z, i % 2 ** z, i % 2 ** z));
  const lon = fc.oneof(degrees(-180, 180), someTile.map((t) => t.west), fc.constantFrom(-180, 180, 0));
  const lat = fc.oneof(degrees(-90, 90), someTile.map((t) => t.south), someTile.map((t) => t.north), fc.constantFrom(-90, 90, 0, 85.0511287798066, -85.0511287798066, 85.06, -85.06));
  fc.assert(fc.property(fc.integer({ min: 0, max: MAX_TILE_ZOOM }), lon, lat, (z, x, y) => {
    const [tx, ty] = tileOf(z, x, y);
    assert.ok(isTile(z, tx, ty), `${z}/${tx}/${ty}`);
    assert.ok(holds(tileBounds(z, tx, ty), x, y), `${x}, ${y} in ${z}/${tx}/${ty}`);
  }), { numRuns: caseCount('TILE_CASES', 5000, 1000) });
});

test('a tile holds its own south-west corner', () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: 16 }), fc.nat(), fc.nat(), (z, i, j) => {
    const n = 2 ** z;
    const t = tileBounds(z, i % n, j % n);
    // The south-west corner belongs to the tile: its west and south edges are its own.
    assert.deepEqual(tileOf(z, t.west, t.south), [t.x, t.y]);
  }), { numRuns: caseCount('TILE_CASES', 2000, 400) });
});
