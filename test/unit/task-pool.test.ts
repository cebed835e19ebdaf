// The writer's task pool (src/store/postgres/task-pool.ts): every task runs once, on a connection it
// may run on, the largest first; connections run at once; a failure stops the pool and is thrown,
// named, once every connection has finished its task. Connections here are tokens: the pool only
// hands each task the one it runs on (the PostgreSQL suites run it on real ones).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type pg from 'pg';
import { runTasks, type PoolTask } from '../../src/store/postgres/task-pool.ts';

const connection = (name: string) => ({ name }) as unknown as pg.ClientBase;
const nameOf = (c: pg.ClientBase) => (c as unknown as { name: string }).name;
const tick = () => new Promise((r) => setImmediate(r));

test('every task runs once, writer-only ones on the writer\'s connection, the largest first on each', async () => {
  await fc.assert(fc.asyncProperty(
    fc.array(fc.record({ weight: fc.nat(1000), writerOnly: fc.boolean(), ticks: fc.nat(3) }), { maxLength: 30 }),
    fc.integer({ min: 1, max: 3 }),
    async (specs, connections) => {
      const ran: { task: number; on: string; weight: number }[] = [];
      let running = 0;
      let most = 0;
      const tasks: PoolTask[] = specs.map((spec, i) => ({
        name: `task ${i}`, weight: spec.weight, writerOnly: spec.writerOnly,
        run: async (c) => {
          running++;
          most = Math.max(most, running);
          ran.push({ task: i, on: nameOf(c), weight: spec.weight });
          for (let t = 0; t < spec.ticks; t++) await tick();
          running--;
        },
      }));
      await runTasks(Array.from({ length: connections }, (_, i) => connection(`c${i}`)), tasks);
      assert.deepEqual(ran.map((r) => r.task).sort((a, b) => a - b), specs.map((_, i) => i));
      for (const r of ran) if (specs[r.task]!.writerOnly) assert.equal(r.on, 'c0');
      assert.ok(most <= connections);
      // Taken in order of weight: a task started before another weighs at least as much, unless it
      // was the writer's only to take then (the other connection skips writer-only tasks).
      const started = ran.map((r) => r.weight);
      const anyWriterOnly = specs.some((s) => s.writerOnly);
      if (!anyWriterOnly) for (let i = 1; i < started.length; i++) assert.ok(started[i - 1]! >= started[i]!);
    },
  ));
});

test('two connections run at once', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const started: string[] = [];
  const task = (name: string): PoolTask => ({ name, weight: 1, run: async (c) => { started.push(nameOf(c)); if (started.length === 2) release(); await gate; } });
  // Each task waits until both have started: on one connection at a time this never ends.
  await runTasks([connection('writer'), connection('second')], [task('a'), task('b')]);
  assert.deepEqual(started.sort(), ['second', 'writer']);
});

test('a failure stops the pool and is thrown, naming the task, once the other connection has finished its own', async () => {
  const ran: string[] = [];
  let otherFinished = false;
  const tasks: PoolTask[] = [
    { name: 'rows by region of version 3', weight: 10, run: async () => { await tick(); throw new Error('disk full'); } },
    { name: 'slow', weight: 9, run: async () => { for (let t = 0; t < 5; t++) await tick(); otherFinished = true; } },
    ...Array.from({ length: 5 }, (_, i): PoolTask => ({ name: `after ${i}`, weight: 1, run: async () => { ran.push(`after ${i}`); } })),
  ];
  await assert.rejects(runTasks([connection('writer'), connection('second')], tasks), (e: Error) => {
    assert.equal(e.message, 'rows by region of version 3: disk full');
    return true;
  });
  assert.ok(otherFinished, 'thrown before the other connection finished its task');
  assert.deepEqual(ran, []);
});
