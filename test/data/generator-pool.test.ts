// The demo generator's threads yield the same rows, in the same order, as the in-process generator
// for a seed, whatever the number of threads, then the same reference data; a consumer that stops
// early ends them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { demoReferenceData, demoRows, demoShardCount, DemoWorld, serializeRow, type DemoOptions } from '../../src/data/demo/generate.ts';
import { GeneratorPool } from '../../src/data/demo/generator-pool.ts';

async function drain(pool: GeneratorPool): Promise<{ docs: string[]; kinds: string[] }> {
  const docs: string[] = [];
  const kinds: string[] = [];
  for await (const batch of pool.batches()) {
    docs.push(...batch.docs);
    kinds.push(...batch.kinds);
  }
  return { docs, kinds };
}

describe('demo generator threads', () => {
  // Small shards, so that three threads each make several (the demo's own are 50,000 events).
  const options: DemoOptions = { events: 2500, seed: 9, shardEvents: 300 };

  test('the demo of these options has several shards', () => {
    assert.equal(demoShardCount(options), 9);
    assert.equal(demoShardCount({ events: 2500, seed: 9 }), 1);
  });

  for (const form of ['row', 'published'] as const) {
    for (const threads of [1, 3]) {
      test(`yields the in-process rows in order (${form} form, ${threads} thread${threads > 1 ? 's' : ''}), then the reference data`, async () => {
        const world = new DemoWorld(options);
        const expected = [...demoRows(world, options)];
        const pool = new GeneratorPool(options, form, { threads });
        const { docs, kinds } = await drain(pool);
        assert.equal(docs.length, expected.length);
        assert.deepEqual(docs, expected.map((r) => serializeRow(r, form)));
        assert.deepEqual(kinds, expected.map((r) => r['event_type']));
        assert.deepEqual(pool.reference(), demoReferenceData(world));
      });
    }
  }

  test('NDJSON batches hold each kind\'s documents, one per line, in the same order', async () => {
    const expected = [...demoRows(new DemoWorld(options), options)];
    const pool = new GeneratorPool(options, 'published', { threads: 2, output: 'ndjson' });
    const text: Record<string, string> = {};
    const counts: Record<string, number> = {};
    let rows = 0;
    const decoder = new TextDecoder();
    for await (const batch of pool.ndjsonBatches()) {
      rows += batch.rows;
      for (const [kind, bytes] of Object.entries(batch.lines)) text[kind] = (text[kind] ?? '') + decoder.decode(bytes);
      for (const [kind, n] of Object.entries(batch.counts)) counts[kind] = (counts[kind] ?? 0) + n;
    }
    assert.equal(rows, expected.length);
    for (const kind of ['fishing', 'port_visit', 'gap', 'encounter', 'loitering']) {
      const own = expected.filter((r) => r['event_type'] === kind);
      assert.equal(counts[kind], own.length);
      assert.equal(text[kind], own.map((r) => `${serializeRow(r, 'published')}\n`).join(''));
    }
    await assert.rejects(async () => {
      for await (const batch of new GeneratorPool(options, 'row', { output: 'ndjson' }).batches()) assert.fail(`got ${batch.docs.length} documents`);
    }, /started for NDJSON/);
  });

  test('shards are runs of the fleet: the rows are those of one shard, in the same order, with ids of their own', () => {
    const rows = [...demoRows(new DemoWorld(options), options)];
    assert.equal(new Set(rows.map((r) => r['event_id'])).size, rows.length);
    const single = [...demoRows(new DemoWorld({ events: 2500, seed: 9 }), { events: 2500, seed: 9 })];
    assert.equal(rows.length, single.length);
    assert.ok(rows.every((row, i) => JSON.stringify(row) === JSON.stringify(single[i])), 'the same rows');
  });

  test('a consumer that stops after one batch ends the threads', async () => {
    const pool = new GeneratorPool({ events: 200_000, seed: 1 }, 'row', { threads: 2 });
    for await (const batch of pool.batches()) {
      assert.ok(batch.docs.length > 0);
      break;
    }
    assert.throws(() => pool.reference(), /after the last row/);
    await pool.close();
  });
});
