// A load's --memory-limit is the process's: DuckDB gets two thirds of it (src/store/writer.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadEngineMemoryLimit } from '../../src/store/writer.ts';

test("a load's DuckDB gets two thirds of its memory, in each unit --memory-limit takes", () => {
  assert.equal(loadEngineMemoryLimit('2GB'), '1333MB');
  assert.equal(loadEngineMemoryLimit('1GiB'), '715MB');
  assert.equal(loadEngineMemoryLimit(' 512 MB '), '341MB');
  assert.equal(loadEngineMemoryLimit('1.5TB'), '1000000MB');
  assert.equal(loadEngineMemoryLimit('3000KiB'), '2MB');
  assert.throws(() => loadEngineMemoryLimit('lots'), /2GB/);
});
