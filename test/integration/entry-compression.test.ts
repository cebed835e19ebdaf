// A new DuckDB file stores its entries in FSST, or in zstd when the load asks (`load
// --entry-compression`, WriterOptions.entryCompression). The same rows, loaded and updated either
// way, give the same answers byte for byte on every access path; a file keeps the compression it was
// created with, and a load that asks for another is refused without changing it.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { generateDemoRows } from '../../src/data/demo/generate.ts';
import { loadRows } from '../../src/data/load-events.ts';
import { normalizeListQuery } from '../../src/query/normalize.ts';
import type { EventFilters, Paging } from '../../src/query/schema.ts';
import { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import { readOnly } from '../../src/store/duckdb/inspect.ts';
import { layersFolder } from '../../src/store/duckdb/layers.ts';
import { LoadRefused, type EntryCompression } from '../../src/store/writer.ts';
import { writing } from '../helpers/store-answers.ts';

const FISHING = 'public-global-fishing-events:latest';
const GAPS = 'public-global-gaps-events:latest';

const dir = mkdtempSync(join(tmpdir(), 'vessel-events-entry-compression-'));
const rows = [...generateDemoRows({ events: 3000, seed: 23 })];
const paths: Record<EntryCompression, string> = { fsst: join(dir, 'fsst.duckdb'), zstd: join(dir, 'zstd.duckdb') };
let sample: { vessel: string; lat: number; lon: number; eez: string };

/** An update of the loaded rows: a fishing event in ten ends an hour later, and one new id. */
function updateRows(): Record<string, unknown>[] {
  const fishing = rows.filter((r) => r['event_type'] === 'fishing');
  const moved = fishing.filter((_, i) => i % 10 === 0).map((r) => ({ ...r, event_end: new Date(Date.parse(String(r['event_end'])) + 3_600_000).toISOString() }));
  return [...moved, { ...fishing[1]!, event_id: 'entry-compression-new-event' }];
}

before(async () => {
  await loadRows(rows, 'demo', { database: { engine: 'duckdb', path: paths.fsst }, version: 'v1', source: 'test' });
  await loadRows(rows, 'demo', { database: { engine: 'duckdb', path: paths.zstd }, version: 'v1', source: 'test', entryCompression: 'zstd' });
  await readOnly(paths.fsst, async (c) => {
    const [row] = (await c.runAndReadAll(`SELECT vessel_id, lat, lon, eez[1] FROM events WHERE kind = 'fishing' AND len(eez) > 0 ORDER BY id LIMIT 1`)).getRowsJS();
    sample = { vessel: row![0] as string, lat: row![1] as number, lon: row![2] as number, eez: row![3] as string };
  });
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The compression of every stored segment of the entry column, and what meta records. */
async function storedAs(path: string): Promise<{ segments: string[]; recorded: string | undefined }> {
  return (await readOnly(path, async (c) => ({
    segments: (await c.runAndReadAll(`SELECT DISTINCT compression FROM pragma_storage_info('events') WHERE column_name = 'entry' AND segment_type = 'VARCHAR' ORDER BY 1`)).getRowsJS().map((r) => r[0] as string),
    recorded: (await c.runAndReadAll(`SELECT value FROM meta WHERE key = 'entry_compression'`)).getRowsJS()[0]?.[0] as string | undefined,
  })))!;
}

const box = (lon: number, lat: number, half: number) => ({
  type: 'Polygon' as const,
  coordinates: [[[lon - half, lat - half], [lon + half, lat - half], [lon + half, lat + half], [lon - half, lat + half], [lon - half, lat - half]]],
});

/** Queries that take each access path that reads entries (access-path.ts). */
const QUERIES: [name: string, filters: () => EventFilters, paging?: Partial<Paging>][] = [
  ['one vessel\'s history', () => ({ datasets: [FISHING, GAPS], vessels: [sample.vessel] })],
  ['a polygon around a fishing position', () => ({ datasets: [FISHING], geometry: box(sample.lon, sample.lat, 3) }), { limit: 60, offset: 5 }],
  ['one EEZ, by start', () => ({ datasets: [FISHING], region: { dataset: 'public-eez-areas', id: sample.eez } })],
  ['one EEZ, descending', () => ({ datasets: [FISHING], region: { dataset: 'public-eez-areas', id: sample.eez } }), { sort: '-start', offset: 2 }],
  ['a flag, one dataset by start, deep', () => ({ datasets: [FISHING], flags: ['CHN', 'ESP', 'TWN'] }), { offset: 300 }],
  ['two datasets by end', () => ({ datasets: [FISHING, GAPS], startDate: '2019-01-01', endDate: '2021-01-01' }), { sort: '-end', offset: 40 }],
  ['a whole dataset in one page', () => ({ datasets: [FISHING] }), { limit: 5000 }],
];

/** Every query's total and page, entries whole, from a store on the file. */
async function answers(path: string): Promise<Record<string, { total: number; entries: string[] }>> {
  const store = await DuckDbStore.open({ path });
  const ctx = { catalog: store, access: { canRead: () => true } };
  try {
    const out: Record<string, { total: number; entries: string[] }> = {};
    for (const [name, filters, paging] of QUERIES) {
      const { total, page } = await store.listPage(await normalizeListQuery(filters(), { limit: 25, offset: 0, sort: '+start', ...paging }, ctx));
      const entries: string[] = [];
      if (page) for await (const chunk of page) entries.push(...chunk);
      out[name] = { total, entries };
    }
    return out;
  } finally {
    await store.close();
  }
}

test('a load asked for zstd stores every entry segment in zstd and says so in meta; the default is FSST', async () => {
  assert.deepEqual(await storedAs(paths.zstd), { segments: ['ZSTD'], recorded: 'zstd' });
  assert.deepEqual(await storedAs(paths.fsst), { segments: ['FSST'], recorded: 'fsst' });
});

test('both files answer every access path with the same totals and entries, before and after an update', async () => {
  const before = [await answers(paths.fsst), await answers(paths.zstd)];
  for (const [name] of QUERIES) assert.ok(before[0]![name]!.entries.length > 0, `${name} finds no event`);
  assert.deepEqual(before[1], before[0]);
  // An update is a layer beside the file (layers.ts): its rows are stored as the file's are.
  for (const compression of ['fsst', 'zstd'] as const) {
    await loadRows(updateRows(), 'update', { database: { engine: 'duckdb', path: paths[compression] }, version: 'v2', source: 'test', update: { removals: [] } });
  }
  const [layer] = readdirSync(layersFolder(paths.zstd)).filter((name) => name.endsWith('.duckdb'));
  assert.deepEqual(await storedAs(join(layersFolder(paths.zstd), layer!)), { segments: ['ZSTD'], recorded: 'zstd' });
  const updated = [await answers(paths.fsst), await answers(paths.zstd)];
  assert.notDeepEqual(updated[0], before[0], 'the update changes some answer');
  assert.deepEqual(updated[1], updated[0]);
});

test('a file keeps its compression: a load asking for another is refused and changes nothing, a load asking for none keeps it', async () => {
  const file = join(dir, 'kept.duckdb');
  await loadRows(rows.slice(0, 400), 'demo', { database: { engine: 'duckdb', path: file }, version: 'v1', source: 'test', entryCompression: 'zstd' });
  const written = statSync(file).mtimeMs;
  await assert.rejects(
    loadRows(rows.slice(400, 800), 'demo', { database: { engine: 'duckdb', path: file }, version: 'v2', source: 'test', entryCompression: 'fsst' }),
    (e: Error) => e instanceof LoadRefused && /--entry-compression fsst: .*kept\.duckdb stores its entries in zstd/.test(e.message),
  );
  assert.equal(statSync(file).mtimeMs, written);
  await loadRows(rows.slice(400, 800), 'demo', { database: { engine: 'duckdb', path: file }, version: 'v2', source: 'test' });
  assert.deepEqual(await storedAs(file), { segments: ['ZSTD'], recorded: 'zstd' });
  // A file from before the choice was recorded is FSST: asking for fsst is no change.
  const older = join(dir, 'older.duckdb');
  await loadRows(rows.slice(0, 400), 'demo', { database: { engine: 'duckdb', path: older }, version: 'v1', source: 'test' });
  await writing(older, async (c) => void (await c.run(`DELETE FROM meta WHERE key = 'entry_compression'`)));
  await loadRows(rows.slice(400, 800), 'demo', { database: { engine: 'duckdb', path: older }, version: 'v2', source: 'test', entryCompression: 'fsst' });
  await assert.rejects(
    loadRows(rows.slice(800, 900), 'demo', { database: { engine: 'duckdb', path: older }, version: 'v3', source: 'test', entryCompression: 'zstd' }),
    /stores its entries in fsst/,
  );
});
