// Result columns read as typed arrays (src/store/duckdb/chunk-columns.ts): the values DuckDB returned, read
// from the driver's own arrays (the fast path a driver upgrade could take away), and the same values
// through getItem when a vector has no such array.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { blobColumnValues, float64Column, heldArray, int32Column, uint32Column } from '../../src/store/duckdb/chunk-columns.ts';

test('INTEGER, UINTEGER and DOUBLE columns come out as the driver\'s typed arrays, chunk by chunk, with every value', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    const result = await c.stream(`SELECT (i - 5000)::INTEGER, (i * 3)::UINTEGER, i / 8 FROM range(5000) t(i)`);
    let row = 0;
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const [ints, uints, doubles] = [int32Column(chunk, 0), uint32Column(chunk, 1), float64Column(chunk, 2)];
      assert.equal((chunk.getColumnVector(2) as unknown as { items: unknown }).items, doubles, 'the driver\'s own array, not a copy');
      assert.equal((chunk.getColumnVector(0) as unknown as { items: unknown }).items, ints);
      for (let i = 0; i < ints.length; i++, row++) {
        assert.equal(ints[i], row - 5000);
        assert.equal(uints[i], row * 3);
        assert.equal(doubles[i], row / 8);
      }
    }
    assert.equal(row, 5000);
    const chunk = (await (await c.stream(`SELECT 1.5`)).fetchChunk())!;
    assert.throws(() => int32Column(chunk, 0), /column 0 is not of type INTEGER/);
  } finally {
    c.closeSync();
    instance.closeSync();
  }
});

test('a vector without the driver\'s array is read through getItem', () => {
  const values = [3, -1, 7.25];
  const vector = { itemCount: values.length, getItem: (i: number) => values[i]! } as unknown as Parameters<typeof heldArray>[0];
  assert.deepEqual([...heldArray(vector, Float64Array)], values);
});

test('BLOB values come out in runs of adjacent values, every value whole, short (inline) and long alike', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    // Lengths from 0 to about 1,500 bytes, the short ones (12 bytes or fewer) held inside the vector.
    const text = (i: number) => `${i}:${'x'.repeat((i * 37) % 1500 < 200 ? i % 13 : (i * 37) % 1500)}`;
    const result = await c.stream(`SELECT encode(i::VARCHAR || ':' || repeat('x', CASE WHEN (i * 37) % 1500 < 200 THEN i % 13 ELSE (i * 37) % 1500 END)) FROM range(6000) t(i)`);
    let row = 0;
    let pieces = 0;
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const values = blobColumnValues(chunk, 0);
      assert.equal(values.lengths.length, chunk.rowCount);
      pieces += values.pieces.length;
      let value = 0;
      values.pieces.forEach((piece, p) => {
        for (let k = 0, at = 0; k < values.counts[p]!; k++, value++) {
          assert.equal(Buffer.from(piece.buffer, piece.byteOffset + at, values.lengths[value]).toString('utf8'), text(row++));
          at += values.lengths[value]!;
        }
      });
      assert.equal(value, chunk.rowCount);
    }
    assert.equal(row, 6000);
    // Runs, not a copy per value: the driver's view of the vector is there to read.
    assert.ok(pieces < 6000 / 2, `${pieces} pieces for 6,000 values`);
    const chunk = (await (await c.stream(`SELECT 1.5`)).fetchChunk())!;
    assert.throws(() => blobColumnValues(chunk, 0), /column 0 is not of type BLOB/);
  } finally {
    c.closeSync();
    instance.closeSync();
  }
});
