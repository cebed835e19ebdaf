// A streamed chunk's native memory is freed only when its wrapper is collected (chunk-memory.ts):
// counting chunks must run a minor collection every so often, whatever the JS heap holds.
import assert from 'node:assert/strict';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { test } from 'node:test';
import { chunkRead } from '../../src/store/duckdb/chunk-memory.ts';

test('chunks read run minor collections, about one per 64 chunks', async () => {
  let minor = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
  });
  observer.observe({ entryTypes: ['gc'] });
  for (let i = 0; i < 64 * 20; i++) chunkRead();
  // Entries are delivered on a later turn.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  assert.ok(minor >= 19, `${minor} minor collections for 1,280 chunks`);
  assert.ok(minor <= 40, `${minor} minor collections for 1,280 chunks: one per chunk would cost a millisecond each`);
});
