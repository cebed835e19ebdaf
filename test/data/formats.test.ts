import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { writeDemoFiles } from '../../src/data/demo/files.ts';
import { loadFiles } from '../../src/data/load-events.ts';
import { editDatabase } from '../../src/store/engines.ts';
import { readGroups, readPorts, readRegions } from '../../src/data/reference-files.ts';
import { readAllRecords } from '../helpers/fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'vessel-events-formats-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('NDJSON, CSV and Parquet of the same generated events load to identical records', async () => {
  const loaded = [];
  for (const format of ['ndjson', 'csv', 'parquet'] as const) {
    const out = join(dir, format);
    const { files } = await writeDemoFiles({ events: 1500, seed: 8, out, format });
    assert.equal(files.length, 5);
    const dbPath = join(dir, `${format}.duckdb`);
    await loadFiles(files.map((path) => ({ path, format })), { database: { engine: 'duckdb', path: dbPath }, version: 'v1', source: format });
    loaded.push((await readAllRecords(dbPath)).sort((a, b) => (a.id < b.id ? -1 : 1)));
  }
  assert.ok(loaded[0]!.length > 1400, `${loaded[0]!.length} records`);
  assert.deepEqual(loaded[1], loaded[0], 'CSV differs from NDJSON');
  assert.deepEqual(loaded[2], loaded[0], 'Parquet differs from NDJSON');
});

test('a kind with more rows than a part is written in parts, which load to the records of one whole file', async () => {
  const out = join(dir, 'parts');
  // Fishing's 1,000 or so rows in parts of 400; encounters, a few dozen, in one.
  const { files, rows } = await writeDemoFiles({ events: 1500, seed: 8, out, format: 'parquet', partRows: 400 });
  const names = files.map((f) => basename(f)).sort();
  const fishingParts = names.filter((n) => /^fishing-\d+\.parquet$/.test(n));
  assert.equal(fishingParts.length, Math.ceil(rows.fishing / 400), names.join(' '));
  assert.ok(!names.includes('fishing.parquet'), 'a kind in parts has no whole file');
  assert.ok(names.includes('encounter.parquet'), 'a kind in one part keeps its plain name');
  assert.deepEqual(readdirSync(out).filter((n) => n.endsWith('.part') || n.endsWith('.ndjson')), [], 'no NDJSON is left');
  const dbPath = join(dir, 'parts.duckdb');
  await loadFiles(files.map((path) => ({ path, format: 'parquet' as const })), { database: { engine: 'duckdb', path: dbPath }, version: 'v1', source: 'parts' });
  const records = (await readAllRecords(dbPath)).sort((a, b) => (a.id < b.id ? -1 : 1));
  assert.equal(records.length, Object.values(rows).reduce((a, b) => a + b, 0));
  const whole = (await readAllRecords(join(dir, 'ndjson.duckdb'))).sort((a, b) => (a.id < b.id ? -1 : 1));
  assert.deepEqual(records, whole);
});

test('the generated vessel groups, ports and region geometries load', async () => {
  const out = join(dir, 'ndjson');
  const dbPath = join(dir, 'ndjson.duckdb');
  const groups = readGroups(join(out, 'vessel-groups.csv'));
  const ports = readPorts(join(out, 'ports.json'));
  const eez = readRegions(join(out, 'regions', 'public-eez-areas.geojson'), 'public-eez-areas');
  await editDatabase({ engine: 'duckdb', path: dbPath }, async (w) => {
    await w.replaceGroups(groups);
    await w.upsertPorts(ports);
    await w.replaceRegions('public-eez-areas', eez);
  });
  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
  const c = await instance.connect();
  const count = async (sql: string) => (await c.runAndReadAll(sql)).getRowsJS()[0]![0];
  assert.equal(await count(`SELECT count(*)::INTEGER FROM vessel_groups WHERE group_id = 'my-vessel-group' AND vessel_id = '8c7304226-6c71-edbe-0b63-c246734b3c01'`), 1);
  assert.equal(await count(`SELECT count(*)::INTEGER FROM ports`), ports.length);
  assert.equal(await count(`SELECT name FROM region_geometries WHERE dataset = 'public-eez-areas' AND id = '8371'`), 'Senegal');
  c.closeSync();
  instance.closeSync();
});

test('a bad row deep in a large CSV or Parquet file is reported at its own line, and nothing loads', async () => {
  const out = join(dir, 'large');
  const { files } = await writeDemoFiles({ events: 20000, seed: 9, out, format: 'csv' });
  const fishing = files.find((f) => f.endsWith('fishing.csv'))!;
  const { readFileSync, writeFileSync } = await import('node:fs');
  const lines = readFileSync(fishing, 'utf8').split('\n');
  const target = 12_345;
  // Line numbers count the header as line 1; the bad row is the file's line `target`.
  lines[target - 1] = lines[target - 1]!.replace(/^([^,]*),fishing,/, '$1,whaling,');
  writeFileSync(fishing, lines.join('\n'));
  const dbPath = join(dir, 'large.duckdb');
  await assert.rejects(loadFiles([{ path: fishing, format: 'csv' }], { database: { engine: 'duckdb', path: dbPath }, version: 'v1', source: 'csv' }), (e: unknown) => {
    const first = (e as { first?: { line: number; problem: string } }).first;
    return first?.line === target && /^event_type: must be one of/.test(first.problem);
  });
});
