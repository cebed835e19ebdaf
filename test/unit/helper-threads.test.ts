// The event loop keeps its priority; every other thread of the process (engine, pool, workers),
// including one that starts later, runs at a lower one.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { yieldHelperThreads } from '../../src/cli/helper-threads.ts';

const threads = () => new Set(readdirSync('/proc/self/task').map(Number));

test('helper threads run below the event loop, later ones too', { skip: process.platform !== 'linux' }, async (t) => {
  const before = threads();
  const worker = new Worker('setInterval(() => {}, 1000)', { eval: true });
  t.after(() => worker.terminate());
  await new Promise((resolve) => worker.once('online', resolve));
  const started = [...threads()].filter((tid) => !before.has(tid));
  assert.ok(started.length > 0, 'the worker has a thread of its own');
  assert.ok(started.every((tid) => getPriority(tid) === 0), 'a new thread starts at the default priority');

  const stop = yieldHelperThreads();
  t.after(stop);
  assert.equal(getPriority(process.pid), 0, 'the event loop keeps its priority');
  for (const tid of threads()) if (tid !== process.pid) assert.equal(getPriority(tid), 10, `thread ${tid}`);

  // A thread that starts afterwards is lowered at the next look (every 2 s).
  const known = threads();
  const late = new Worker('setInterval(() => {}, 1000)', { eval: true });
  t.after(() => late.terminate());
  await new Promise((resolve) => late.once('online', resolve));
  const lateThreads = [...threads()].filter((tid) => !known.has(tid));
  assert.ok(lateThreads.length > 0);
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  for (const tid of lateThreads) if (threads().has(tid)) assert.equal(getPriority(tid), 10, `late thread ${tid}`);
});
