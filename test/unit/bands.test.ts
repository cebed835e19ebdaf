import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { LatitudeBands, type Edge } from '../../src/geo/bands.ts';

const coordinate = fc.double({ min: -80, max: 80, noNaN: true });
const edge = fc.tuple(coordinate, coordinate, coordinate, coordinate) as fc.Arbitrary<Edge>;

test('latitude bands: every edge a horizontal ray at a latitude can cross is in that latitude\'s band', () => {
  fc.assert(
    fc.property(fc.array(edge, { minLength: 1, maxLength: 200 }), fc.integer({ min: 1, max: 16 }), fc.array(fc.double({ min: -90, max: 90, noNaN: true }), { minLength: 1, maxLength: 20 }), (edges, perBand, lats) => {
      const banded = new LatitudeBands(edges, perBand, 64);
      assert.ok(banded.bands.length <= 64);
      for (const lat of lats) {
        const band = banded.bands[banded.bandOf(lat)]!;
        // The crossing rule of the even-odd test: one end above the latitude, the other not.
        for (const e of edges) if (e[1] > lat !== e[3] > lat) assert.ok(band.includes(e), `edge ${e} missing from the band of ${lat}`);
      }
    }),
  );
});
