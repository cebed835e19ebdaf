import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateDemoRows } from '../../src/data/demo/generate.ts';
import { Random } from '../../src/data/demo/random.ts';

test('the demo is deterministic for a seed, and another seed gives other data', () => {
  const a = JSON.stringify([...generateDemoRows({ events: 300, seed: 5 })]);
  const b = JSON.stringify([...generateDemoRows({ events: 300, seed: 5 })]);
  const c = JSON.stringify([...generateDemoRows({ events: 300, seed: 6 })]);
  assert.equal(a, b);
  assert.notEqual(a, c);
});

test('the seeded random source is uniform enough and repeatable', () => {
  const r = new Random(42);
  const xs = Array.from({ length: 20000 }, () => r.next());
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  assert.ok(Math.abs(mean - 0.5) < 0.01, `mean ${mean}`);
  assert.equal(new Random(42).next(), xs[0]);
});
