// A load sorts each version in ranges (src/store/duckdb/sort-ranges.ts): the events by ranges of
// start, the point files by ranges of the vessel key. Sorted in many small ranges, a load writes
// the same database and the same point files as in one sort; the key ranges cover every key once.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { DuckDBInstance } from '@duckdb/node-api';
import { generateDemoRows } from '../../src/data/demo/generate.ts';
import { loadRows } from '../../src/data/load-events.ts';
import { readOnly } from '../../src/store/duckdb/inspect.ts';
import { pointFolder } from '../../src/store/duckdb/point-file-catalog.ts';
import { keyRanges, sortRanges } from '../../src/store/duckdb/sort-ranges.ts';

const dir = mkdtempSync(join(tmpdir(), 'vessel-events-sort-ranges-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the ranges of a key hold every key exactly once, the bounds included', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 9 }), fc.array(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { minLength: 1, maxLength: 40 }), async (ranges, keys) => {
        // Every bound is a key too: each belongs to the range it opens.
        const bounds = Array.from({ length: ranges + 1 }, (_, j) => (2n ** 64n * BigInt(j)) / BigInt(ranges)).filter((b) => b < 2n ** 64n);
        const all = [...keys, ...bounds, 2n ** 64n - 1n];
        const values = all.map((k) => `(${k}::UBIGINT)`).join(', ');
        const counts = keyRanges('k', ranges).map((range) => `(${range})::INTEGER`).join(' + ');
        const rows = (await c.runAndReadAll(`SELECT k::VARCHAR, ${counts} FROM (VALUES ${values}) t(k)`)).getRowsJS();
        for (const [key, holding] of rows) assert.equal(holding, 1, `key ${key} is in ${holding} of ${ranges} ranges`);
      }),
      { numRuns: 60 },
    );
  } finally {
    c.closeSync();
    instance.closeSync();
  }
  assert.equal(sortRanges(0), 1);
  assert.equal(sortRanges(10, 10), 1);
  assert.equal(sortRanges(11, 10), 2);
});

/** What a load wrote: its events and vessel rows in stored order, and its point files' bytes by version. */
async function written(path: string): Promise<{ events: unknown[][]; vessels: unknown[][]; points: Record<string, string> }> {
  const [events, vessels] = await readOnly(path, async (c) => [
    (await c.runAndReadAll(`SELECT version_id, id, start_ts::VARCHAR, entry FROM events ORDER BY rowid`)).getRowsJS(),
    (await c.runAndReadAll(`SELECT version_id, vessel_key::VARCHAR, id FROM vessel_events ORDER BY rowid`)).getRowsJS(),
  ]);
  const folder = pointFolder(path);
  const points = Object.fromEntries(readdirSync(folder).map((name) => [name.split('-')[0]!, readFileSync(join(folder, name)).toString('base64')]));
  return { events: events!, vessels: vessels!, points };
}

test('a load sorted in ranges of a few hundred rows writes what one sort writes', async () => {
  // Half the fishing events start at one of four instants: the ranges' bounds fall on starts that
  // many rows share, and each must be in one range alone.
  const instants = ['2019-03-01T00:00:00.000Z', '2020-07-15T06:00:00.000Z', '2021-11-30T12:00:00.000Z', '2023-05-05T18:00:00.000Z'];
  const rows = [...generateDemoRows({ events: 4000, seed: 17 })].map((row, i) => {
    if (row['event_type'] !== 'fishing' || i % 2 === 0) return row;
    const start = instants[i % instants.length]!;
    return { ...row, event_start: start, event_end: new Date(Date.parse(start) + 3_600_000).toISOString() };
  });
  const whole = join(dir, 'whole.duckdb');
  const ranged = join(dir, 'ranged.duckdb');
  await loadRows(rows, 'demo', { database: { engine: 'duckdb', path: whole }, version: 'v1', source: 'test' });
  await loadRows(rows, 'demo', { database: { engine: 'duckdb', path: ranged }, version: 'v1', source: 'test', sortRangeRows: 173 });
  const [a, b] = [await written(whole), await written(ranged)];
  assert.ok(a.events.length > 3900, `${a.events.length} events`);
  // Fishing's rows, some 2,800, were sorted in 17 ranges or so; port visits' in 4 or so.
  const perVersion = new Map<unknown, number>();
  for (const [version] of a.events) perVersion.set(version, (perVersion.get(version) ?? 0) + 1);
  assert.ok(Math.max(...perVersion.values()) > 173 * 10, [...perVersion.values()].join(' '));
  assert.deepEqual(b.events, a.events);
  assert.deepEqual(b.vessels, a.vessels);
  assert.equal(Object.keys(a.points).length, 5);
  assert.deepEqual(b.points, a.points);
});
