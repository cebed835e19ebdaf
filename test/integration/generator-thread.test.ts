// The demo generator's worker thread yields the same rows, in the same order, as the in-process
// generator for a seed, then the same reference data; a consumer that stops early ends it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { demoReferenceData, demoRows, DemoWorld, serializeRow } from '../../src/data/demo/generate.ts';
import { GeneratorThread } from '../../src/data/demo/generator-thread.ts';

describe('demo generator thread', () => {
  const options = { events: 2500, seed: 9 };

  for (const form of ['row', 'published'] as const) {
    test(`yields the in-process rows in order (${form} form), then the reference data`, async () => {
      const world = new DemoWorld(options);
      const expected = [...demoRows(world, options)];
      const thread = new GeneratorThread(options, form);
      const docs: string[] = [];
      const kinds: string[] = [];
      for await (const batch of thread.batches()) {
        docs.push(...batch.docs);
        kinds.push(...batch.kinds);
      }
      assert.equal(docs.length, expected.length);
      assert.deepEqual(docs, expected.map((r) => serializeRow(r, form)));
      assert.deepEqual(kinds, expected.map((r) => r['event_type']));
      assert.deepEqual(thread.reference(), demoReferenceData(world));
    });
  }

  test('a consumer that stops after one batch ends the thread', async () => {
    const thread = new GeneratorThread({ events: 200_000, seed: 1 }, 'row');
    for await (const batch of thread.batches()) {
      assert.ok(batch.docs.length > 0);
      break;
    }
    assert.throws(() => thread.reference(), /after the last row/);
    await thread.close();
  });
});
