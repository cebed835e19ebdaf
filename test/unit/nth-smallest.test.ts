// nthSmallest (src/store/duckdb/spatial-table.ts) places a polygon page's last start: the value at
// index k of the sorted values, ties and all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { nthSmallest } from '../../src/store/duckdb/spatial-table.ts';

test('nthSmallest is the value a sort puts at index k, with many ties, and leaves its input alone', () => {
  fc.assert(fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 60 }), fc.nat(), (values, pick) => {
    const k = pick % values.length;
    const input = Float64Array.from(values);
    assert.equal(nthSmallest(input, k), [...values].sort((a, b) => a - b)[k]);
    assert.deepEqual([...input], values);
  }), { numRuns: 3000 });
});
