// Point files (src/store/duckdb/point-file-format.ts): every event found by id with exactly the entry the
// events table stores, nothing found that is not there, and the files kept in step with the
// database through loads, drops, failed loads and migrate.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { existsSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import fc from 'fast-check';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadRows } from '../../src/data/load-events.ts';
import { idKey, PointFile, PointFileWriter, sortByKey, type PointRow } from '../../src/store/duckdb/point-file-format.ts';
import { pointFolder } from '../../src/store/duckdb/point-file-catalog.ts';
import { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import { cleanStaleWork, copyDuckDbFiles, editDatabase, migrateDatabase } from '../../src/store/engines.ts';
import { normalizeListQuery, normalizeSingleDataset } from '../../src/query/normalize.ts';
import { DATASET_ID_BY_KIND } from '../../src/domain/kinds.ts';
import type { EventKind } from '../../src/domain/kinds.ts';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';
import { caseCount } from '../helpers/size.ts';

let fixture: Fixture;
let scratch: string;
before(async () => {
  fixture = await buildFixtureDb({ events: 1500, seed: 21 });
  scratch = mkdtempSync(join(tmpdir(), 'vessel-events-points-'));
});
after(async () => {
  await fixture.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** Writes a point file from rows in vessel-key order; resolves to the records written. */
async function writePointFile(path: string, versionId: number, rows: AsyncIterable<readonly PointRow[]>): Promise<number> {
  const writer = await PointFileWriter.create(path, versionId);
  try {
    for await (const chunk of rows) await writer.add(chunk);
  } catch (e) {
    await writer.close();
    throw e;
  }
  return writer.finish();
}

/** Rows of a point file from [id, entry, vessel?] triples, in the writer's order (vessel key, then as given). */
function rowsOf(entries: [string, string, string?][]): PointRow[] {
  const rows = entries.map(([id, entry, vessel = `vessel of ${id}`], i): PointRow => [...idKey(id), id, ...idKey(vessel), vessel, 1e15 + i * 1000, i % 5 === 0 ? null : 1e15 + i * 1001, entry]);
  const key = (r: PointRow) => BigInt(r[3]) * 2n ** 32n + BigInt(r[4]);
  return rows.map((r, i) => [r, i] as const).sort(([a, i], [b, j]) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : i - j)).map(([r]) => r);
}

async function* inChunks(entries: [string, string, string?][], size: number): AsyncGenerator<PointRow[]> {
  const rows = rowsOf(entries);
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

async function sql(path: string, statement: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  try {
    const c = await instance.connect();
    const rows = (await c.runAndReadAll(statement)).getRowsJS();
    c.closeSync();
    return rows;
  } finally {
    instance.closeSync();
  }
}

const datasetOf = (store: DuckDbStore, kind: EventKind, version = 'latest') =>
  normalizeSingleDataset(`${DATASET_ID_BY_KIND[kind]}:${version}`, { catalog: store, access: { canRead: () => true } });

test('the radix sort orders index entries as a comparison sort of their 64-bit keys does', () => {
  fc.assert(fc.property(fc.array(fc.tuple(fc.nat({ max: 0xffffffff }), fc.nat({ max: 0xffffffff })), { maxLength: 300 }), (keys) => {
    const words = new Uint32Array(keys.flatMap(([high, low], i) => [high, low, i, 0]));
    const sorted = sortByKey(words, keys.length);
    const key = (high: number, low: number) => BigInt(high) * 2n ** 32n + BigInt(low);
    const got = Array.from({ length: keys.length }, (_, i) => key(sorted[4 * i]!, sorted[4 * i + 1]!));
    const expected = keys.map(([h, l]) => key(h, l)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    assert.deepEqual(got, expected);
    // Sorted in place: no copy of a 36M-entry index beside it.
    assert.equal(sorted.buffer, words.buffer);
    // Every entry's payload travels with its key.
    for (let i = 0; i < keys.length; i++) assert.deepEqual(keys[sorted[4 * i + 2]!], [sorted[4 * i]!, sorted[4 * i + 1]!]);
  }), { seed: 7, numRuns: caseCount('RADIX_TEST_RUNS', 200, 50) });
});

test('a point file finds every id it holds, with its entry, and nothing else', async () => {
  let run = 0;
  await fc.assert(fc.asyncProperty(
    fc.uniqueArray(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), { maxLength: 400 }),
    fc.array(fc.string({ unit: 'binary', maxLength: 3000 }), { minLength: 1, maxLength: 20 }),
    fc.array(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), { maxLength: 20 }),
    fc.array(fc.string({ unit: 'binary', maxLength: 12 }), { minLength: 1, maxLength: 30 }),
    async (ids, texts, others, vessels) => {
      const entries = ids.map((id, i): [string, string, string] => [id, `${texts[i % texts.length]}${i}`, vessels[(i * 7) % vessels.length]!]);
      const path = join(scratch, `property-${run++}.points`);
      assert.equal(await writePointFile(path, 3, inChunks(entries, 97)), entries.length);
      const file = await PointFile.open(path, 3);
      try {
        for (const [id, entry] of entries) assert.equal(await file.entry(id), entry);
        for (const other of others) if (!ids.includes(other)) assert.equal(await file.entry(other), undefined);
        // Each vessel's records, exactly, in the order written.
        const rows = rowsOf(entries);
        for (const vessel of new Set([...vessels, ...others])) {
          const got = (await file.vesselRecords(vessel)).map((r) => [r.id, r.vessel, r.startUs, r.endUs, r.entry()]);
          assert.deepEqual(got, rows.filter((r) => r[5] === vessel).map((r) => [r[2], r[5], r[6], r[7], r[8]]));
        }
      } finally {
        await file.close();
        rmSync(path);
      }
    },
  ), { seed: 11, numRuns: 60 });
});

/** The first `pairs` pairs of ids `id-<n>` whose keys share the high half (a birthday search, about 77,000 ids a pair). */
function idsSharingHighHalf(pairs: number): [string, string][] {
  const seen = new Map<number, string>();
  const found: [string, string][] = [];
  for (let n = 0; found.length < pairs; n++) {
    const id = `id-${n}`;
    const [high] = idKey(id);
    const other = seen.get(high);
    if (other === undefined) seen.set(high, id);
    else found.push([other, id]);
  }
  return found;
}

test('a file of many runs of the index finds every id, first and last of each run included, and no other', async () => {
  // 2,600 ids: eleven runs of 256 keys (the fence's step), the last one short.
  const entries = Array.from({ length: 2600 }, (_, i): [string, string, string] => [`run-${i}`, `{"n":${i}}`, `v${i % 40}`]);
  const path = join(scratch, 'many-runs.points');
  await writePointFile(path, 6, inChunks(entries, 500));
  const file = await PointFile.open(path, 6);
  try {
    for (const [id, entry] of entries) assert.equal(await file.entry(id), entry, id);
    for (let i = 0; i < 300; i++) assert.equal(await file.entry(`absent-${i}`), undefined);
  } finally {
    await file.close();
  }
});

test('ids whose keys share the high half are told apart, in the same block or in others', async () => {
  const [[a, b], [c, absent]] = idsSharingHighHalf(2) as [[string, string], [string, string]];
  assert.equal(idKey(a)[0], idKey(b)[0]);
  assert.notEqual(idKey(a)[1], idKey(b)[1]);
  // Entries of 70 KB (a block holds 64 KB) put every record of a different vessel in a block of its own; a pair on one vessel shares a block.
  for (const [label, vessels] of [['apart', ['v1', 'v2', 'v3']], ['together', ['v1', 'v1', 'v1']]] as const) {
    const path = join(scratch, `shared-high-${label}.points`);
    const big = (x: string) => `${x}:${'x'.repeat(label === 'apart' ? 70_000 : 10)}`;
    await writePointFile(path, 4, inChunks([[a, big(a), vessels[0]], [b, big(b), vessels[1]], [c, big(c), vessels[2]]], 2));
    const file = await PointFile.open(path, 4);
    try {
      assert.equal(await file.entry(a), big(a));
      assert.equal(await file.entry(b), big(b));
      assert.equal(await file.entry(c), big(c));
      assert.equal(await file.entry(absent), undefined);
    } finally {
      await file.close();
    }
  }
});

test('entries larger than a block, and vessels whose records span many blocks, are read back whole', async () => {
  const entries = Array.from({ length: 3000 }, (_, i): [string, string, string] => [`id-${i}`, `{"n":${i},"text":"${'é€x'.repeat(i % 7 === 0 ? 40000 : 50)}"}`, `v${i % 3}`]);
  const path = join(scratch, 'large.points');
  await writePointFile(path, 1, inChunks(entries, 2048));
  const file = await PointFile.open(path, 1);
  try {
    for (const [id, entry] of entries) assert.equal(await file.entry(id), entry);
    for (const vessel of ['v0', 'v1', 'v2']) {
      assert.deepEqual((await file.vesselRecords(vessel)).map((r) => r.entry()), rowsOf(entries).filter((r) => r[5] === vessel).map((r) => r[8]));
    }
  } finally {
    await file.close();
  }
});

test('a file whose compressed blocks take several MiB, written a MiB at a time, reads back whole', async () => {
  // Hex digits of digests compress to about half: some 4 MiB of blocks, so several writes of
  // WRITE_BYTES, with blocks across their boundaries.
  const hex = (i: number) => Array.from({ length: 32 }, (_, k) => createHash('sha256').update(`${i}:${k}`).digest('hex')).join('');
  const entries = Array.from({ length: 4000 }, (_, i): [string, string, string] => [`id-${i}`, `{"n":${i},"x":"${hex(i)}"}`, `v${i % 97}`]);
  const path = join(scratch, 'several-writes.points');
  await writePointFile(path, 2, inChunks(entries, 2048));
  assert.ok(statSync(path).size > 3 * 2 ** 20, `${statSync(path).size} bytes`);
  const file = await PointFile.open(path, 2);
  try {
    for (const [id, entry] of entries) assert.equal(await file.entry(id), entry);
    for (const vessel of ['v0', 'v13', 'v96']) {
      assert.deepEqual((await file.vesselRecords(vessel)).map((r) => r.entry()), rowsOf(entries).filter((r) => r[5] === vessel).map((r) => r[8]));
    }
  } finally {
    await file.close();
  }
});

test('a damaged, foreign or older point file is refused when opened, and rows out of vessel order are refused when written', async () => {
  const path = join(scratch, 'damaged.points');
  await writePointFile(path, 5, inChunks([['a', '{"id":"a"}'], ['b', '{"id":"b"}']], 10));
  await assert.rejects(PointFile.open(path, 6), /holds version 5, not 6/);
  truncateSync(path, statSync(path).size - 1);
  await assert.rejects(PointFile.open(path, 5), /cut short or damaged/);
  writeFileSync(path, 'not a point file at all, but long enough to have a footer of 64 bytes, or nearly so');
  await assert.rejects(PointFile.open(path, 5), /not a point file/);
  // The first format's 48-byte footer.
  writeFileSync(path, Buffer.concat([Buffer.alloc(100), Buffer.from('VEPOINT1'), Buffer.alloc(40)]));
  await assert.rejects(PointFile.open(path, 5), /older format \(VEPOINT1\); run "vessel-events migrate"/);
  rmSync(path);
  const rows = rowsOf([['a', 'x', 'v1'], ['b', 'y', 'v2']]);
  await assert.rejects(writePointFile(path, 5, (async function* () { yield rows.reverse(); })()), /grouped by vessel key/);
});

test('the store finds every loaded event by id through its point file, with the stored entry and record', async () => {
  const named = await sql(fixture.dbPath, `SELECT key, value FROM meta WHERE key LIKE 'point_file:%' ORDER BY key`);
  const versions = await sql(fixture.dbPath, `SELECT version_id::INTEGER FROM dataset_versions`);
  assert.equal(named.length, versions.length, 'one point file per version');
  assert.deepEqual(readdirSync(pointFolder(fixture.dbPath)).sort(), named.map((r) => r[1]).sort());
  assert.deepEqual(await sql(fixture.dbPath, `SELECT index_name FROM duckdb_indexes() WHERE table_name = 'events'`), [], 'the id index is gone');

  const stored = await sql(fixture.dbPath, `SELECT kind, id, entry FROM events`) as [EventKind, string, string][];
  const store = await DuckDbStore.open({ path: fixture.dbPath });
  try {
    for (const [kind, id, entry] of stored) assert.equal(await store.getEntry(datasetOf(store, kind), id), entry);
    for (const record of fixture.records.filter((_, i) => i % 25 === 0)) {
      assert.deepEqual(await store.getRecord(datasetOf(store, record.kind), record.id), record);
    }
    const fishing = stored.find(([kind]) => kind === 'fishing')!;
    assert.equal(await store.getEntry(datasetOf(store, 'encounter'), fishing[1]), undefined, 'another dataset\'s id');
    assert.equal(await store.getEntry(datasetOf(store, 'fishing'), 'no-such-event'), undefined);
    assert.equal(await store.getRecord(datasetOf(store, 'fishing'), 'no-such-event'), undefined);
  } finally {
    await store.close();
  }
});

test('loads, drops and failed loads keep the point files in step with the database', async () => {
  const dir = mkdtempSync(join(scratch, 'lifecycle-'));
  const path = join(dir, 'events.duckdb');
  copyDuckDbFiles(fixture.dbPath, path);
  const database = { engine: 'duckdb' as const, path };
  const fishing = fixture.rows.filter((r) => r['event_type'] === 'fishing').slice(0, 40);
  const filesNow = () => readdirSync(pointFolder(path)).sort();
  const before = filesNow();

  await loadRows(fishing, 'v2.ndjson', { database, version: 'v2', source: 'test' });
  const withV2 = filesNow();
  assert.equal(withV2.length, before.length + 1);
  let store = await DuckDbStore.open({ path });
  try {
    const v2 = datasetOf(store, 'fishing', 'v2');
    const original = datasetOf(store, 'fishing', 'v20240101');
    for (const row of fishing) {
      const entry = await store.getEntry(v2, row['event_id'] as string);
      assert.equal(entry, await store.getEntry(original, row['event_id'] as string), 'the same event in both versions');
      assert.ok(entry);
    }
  } finally {
    await store.close();
  }

  // A load refused for invalid rows leaves no file behind.
  await assert.rejects(loadRows([{ ...fishing[0]!, event_start: 'not a time' }], 'bad.ndjson', { database, version: 'v3', source: 'test' }));
  assert.deepEqual(filesNow(), withV2);

  // A dropped version's file goes with the commit.
  await editDatabase(database, (w) => w.dropVersion(DATASET_ID_BY_KIND.fishing, 'fishing', 'v2'));
  assert.deepEqual(filesNow(), before);

  // A file left by a killed load (named by no database) is removed by `clean`, and by the next commit.
  writeFileSync(join(pointFolder(path), '98-deadbeef.points'), 'left behind');
  assert.deepEqual((await cleanStaleWork(path)).map((r) => r.path), [join(pointFolder(path), '98-deadbeef.points')]);
  assert.deepEqual(filesNow(), before);
  writeFileSync(join(pointFolder(path), '99-deadbeef.points'), 'left behind');
  await loadRows(fishing, 'v4.ndjson', { database, version: 'v4', source: 'test' });
  assert.ok(!filesNow().includes('99-deadbeef.points'));
  assert.equal(filesNow().length, before.length + 1);
});

test('a database whose point files are missing answers the same from the events table, and migrate writes them', async () => {
  const dir = mkdtempSync(join(scratch, 'missing-'));
  const path = join(dir, 'events.duckdb');
  copyDuckDbFiles(fixture.dbPath, path);
  // A file of this layout from before point files: the id index, nothing named in meta, and the
  // entries in vessel_events.
  const instance = await DuckDBInstance.create(path);
  const c = await instance.connect();
  for (const statement of [
    `DELETE FROM meta WHERE key LIKE 'point_file:%'`, 'CREATE INDEX events_id_idx ON events (id)',
    'ALTER TABLE vessel_events ADD COLUMN entry VARCHAR', 'UPDATE vessel_events v SET entry = e.entry FROM events e WHERE e.version_id = v.version_id AND e.id = v.id', 'CHECKPOINT',
  ]) await c.run(statement);
  c.closeSync();
  instance.closeSync();
  rmSync(pointFolder(path), { recursive: true });

  const sample = fixture.records.filter((_, i) => i % 30 === 0);
  /** What the store opened last said of its point files (storageWarnings). */
  let warnings: readonly string[] = [];
  const answers = async () => {
    const store = await DuckDbStore.open({ path });
    warnings = store.storageWarnings();
    try {
      const byId = await Promise.all(sample.map(async (r) => [await store.getEntry(datasetOf(store, r.kind), r.id), await store.getRecord(datasetOf(store, r.kind), r.id)]));
      // Vessel histories: from the point files, or from vessel_events for a version without one.
      const histories = [];
      for (const r of sample.slice(0, 10)) {
        const query = await normalizeListQuery({ datasets: Object.values(DATASET_ID_BY_KIND).map((d) => `${d}:latest`), vessels: [r.vessel.id] }, { limit: 50, offset: 0, sort: '-start' }, { catalog: store, access: { canRead: () => true } });
        const page: string[] = [];
        for await (const chunk of await store.search(query)) page.push(...chunk);
        histories.push([await store.count(query), page]);
      }
      return [byId, histories];
    } finally {
      await store.close();
    }
  };
  const withoutFiles = await answers();
  const { from, to, pointFiles } = await migrateDatabase(path);
  assert.equal(from, to);
  assert.equal(pointFiles, (await sql(path, `SELECT count(*)::INTEGER FROM dataset_versions`))[0]![0]);
  assert.ok(existsSync(pointFolder(path)));
  assert.deepEqual(await sql(path, `SELECT index_name FROM duckdb_indexes() WHERE table_name = 'events'`), []);
  assert.deepEqual(await sql(path, `SELECT column_name FROM information_schema.columns WHERE table_name = 'vessel_events' AND column_name = 'entry'`), [], 'the point files hold the entries now');
  assert.deepEqual(await answers(), withoutFiles);
  assert.deepEqual(withoutFiles[0]!.map(([, record]) => record), sample);
  await assert.rejects(migrateDatabase(path), /already has this version's storage layout \(3\), its point files, its spatial, region, vessel identity and monthly statistics tables/);

  // A file the database names but that is gone: the version is answered from the events table,
  // and the store says so with the command that writes it again.
  const [name] = readdirSync(pointFolder(path));
  rmSync(join(pointFolder(path), name!));
  assert.deepEqual(await answers(), withoutFiles);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /^public-global-[a-z-]+-events:v\d+: its point file .* is missing, so its lookups by id and vessel histories read the tables, many times slower; write its point files again with "vessel-events migrate --db /);

  // migrate rewrites a named file that is gone or of an older format; the older file goes.
  writeFileSync(join(pointFolder(path), name!), Buffer.concat([Buffer.alloc(100), Buffer.from('VEPOINT1'), Buffer.alloc(40)]));
  assert.equal((await migrateDatabase(path)).pointFiles, 1);
  assert.ok(!existsSync(join(pointFolder(path), name!)));
  assert.deepEqual(await answers(), withoutFiles);
  assert.deepEqual(warnings, []);
});
