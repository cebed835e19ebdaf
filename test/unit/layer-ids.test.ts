// The layers' id filter (src/store/duckdb/layer-ids.ts): a sorted array of hashes holds exactly the
// values put in it, and an id's hash is the same whatever else is hashed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { holds, idHash } from '../../src/store/duckdb/layer-ids.ts';

test('a sorted array of hashes holds exactly the values put in it', () => {
  fc.assert(fc.property(fc.array(fc.nat({ max: 2 ** 32 - 1 }), { maxLength: 300 }), fc.nat({ max: 2 ** 32 - 1 }), (values, probe) => {
    const sorted = Uint32Array.from(values).sort();
    for (const v of values) assert.equal(holds(sorted, v), true);
    assert.equal(holds(sorted, probe), values.includes(probe));
  }));
});

test('an id hashes to one unsigned 32-bit value, and ids that differ mostly hash apart', () => {
  fc.assert(fc.property(fc.string(), (id) => {
    const h = idHash(id);
    assert.equal(h, idHash(id));
    assert.ok(Number.isInteger(h) && h >= 0 && h < 2 ** 32);
  }));
  const hashes = new Set(Array.from({ length: 10_000 }, (_, i) => idHash(`${i.toString(16)}-event`)));
  assert.ok(hashes.size > 9_990, `${hashes.size} distinct hashes of 10,000 ids`);
});
