// Updates (`load --update`) on the engine under test: after a seeded random sequence of updates and
// removals, every query class answers exactly as a fresh load of the same final rows; an update the
// loader refuses (a malformed row, an unknown id to remove, a row of another dataset) changes
// nothing and names file and line. Replay with UPDATE_TEST_SEED=<seed>.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Random } from '../../src/data/demo/random.ts';
import { demoReferenceData, demoRows, DemoWorld, type PublishedRow } from '../../src/data/demo/generate.ts';
import { loadFiles, loadRows } from '../../src/data/load-events.ts';
import type { EventKind } from '../../src/domain/kinds.ts';
import { compactDatabase, compactPostgresDatabase, copyDuckDbFiles, dropVersion, editDatabase, listVersions, type Database } from '../../src/store/engines.ts';
import { layerFiles } from '../../src/store/duckdb/layers.ts';
import { readOnly } from '../../src/store/duckdb/inspect.ts';
import { pointFolder } from '../../src/store/duckdb/point-file-catalog.ts';
import { LoadRefused, InvalidRows, type Removals } from '../../src/store/writer.ts';
import { newPostgresDatabase, readAllRecords, startTestApp, TEST_ENGINE, type Fixture, type TestApp } from '../helpers/fixture.ts';
import { generate, toRequest } from '../helpers/random-queries.ts';
import { caseCount, FULL, seedOf } from '../helpers/size.ts';

const SEED = seedOf('UPDATE_TEST_SEED', 5151);
const QUERIES = caseCount('UPDATE_TEST_QUERIES', 400, 60);
/** Updates in the sequence: each is a load, the most of this suite's time. */
const STEPS = caseCount('UPDATE_TEST_STEPS', 4, 2);
const dir = mkdtempSync(join(tmpdir(), 'vessel-events-updates-'));
const DATASET: Record<EventKind, string> = {
  fishing: 'public-global-fishing-events', encounter: 'public-global-encounters-events', loitering: 'public-global-loitering-events',
  port_visit: 'public-global-port-visits-events', gap: 'public-global-gaps-events',
};

/** A DuckDB database's events in stored order and its point files' bytes, by version. */
async function storedRows(path: string): Promise<{ events: unknown[][]; points: Record<string, string> }> {
  const events = await readOnly(path, async (c) => (await c.runAndReadAll(`SELECT version_id, id, entry FROM events ORDER BY rowid`)).getRowsJS());
  const folder = pointFolder(path);
  return { events, points: Object.fromEntries(readdirSync(folder).map((name) => [name.split('-')[0]!, readFileSync(join(folder, name)).toString('base64')])) };
}

const key = (row: PublishedRow) => `${row['event_type']}|${row['event_id']}`;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '.000Z');

/** A database of the engine under test, named for its role. */
async function newDatabase(name: string): Promise<Database> {
  return TEST_ENGINE === 'postgres' ? newPostgresDatabase() : { engine: 'duckdb', path: join(dir, `${name}.duckdb`) };
}

/** A row changed as a day's data changes it: an open event closes, a vessel's flag is corrected, an event ends later. */
function changed(r: Random, row: PublishedRow): PublishedRow {
  const next = { ...row };
  const start = Date.parse(String(row['event_start']));
  const choice = r.int(0, 2);
  if (choice === 0 || row['event_end'] == null) next['event_end'] = iso(start + r.int(1, 72) * 3_600_000);
  if (choice === 1) {
    const vessels = JSON.parse(typeof row['event_vessels'] === 'string' ? row['event_vessels'] : JSON.stringify(row['event_vessels'])) as Record<string, unknown>[];
    next['event_vessels'] = JSON.stringify(vessels.map((v) => (v['id'] === row['entity_id'] ? { ...v, flag: r.pick(['ESP', 'CHN', 'TWN', 'PER']) } : v)));
  }
  if (choice === 2) next['lat_mean'] = Math.max(-89, Math.min(89, Number(row['lat_mean']) + r.int(-20, 20) / 100));
  return next;
}

interface Step {
  rows: PublishedRow[];
  removals: Removals[];
}

/** A seeded sequence of updates over `initial`, and the rows it leaves. */
function updateSequence(r: Random, initial: PublishedRow[], steps: number): { sequence: Step[]; final: PublishedRow[] } {
  const current = new Map(initial.map((row) => [key(row), row]));
  const sequence: Step[] = [];
  let added = 0;
  for (let s = 0; s < steps; s++) {
    const present = [...current.values()];
    const rows: PublishedRow[] = [];
    const taken = new Set<string>();
    for (let i = 0; i < r.int(20, 80); i++) {
      const row = r.pick(present);
      if (taken.has(key(row))) continue;
      taken.add(key(row));
      rows.push(changed(r, row));
    }
    for (let i = 0; i < r.int(10, 40); i++) {
      const model = r.pick(present);
      const shift = r.int(1, 30) * 86_400_000;
      const start = Date.parse(String(model['event_start'])) + shift;
      const end = model['event_end'] == null ? null : Date.parse(String(model['event_end'])) + shift;
      // Encounters keep their pair's suffix rule: the new id is a new pair's, written in full.
      const suffix = model['event_type'] === 'encounter' ? `.${String(model['event_id']).split('.').at(-1)}` : '';
      const row: PublishedRow = { ...model, event_id: `new${s}-${added++}${suffix}`, event_start: iso(start), event_end: end === null ? null : iso(end) };
      // Some are a vessel's first events: a vessel that only the updates know.
      if (i % 4 === 0) {
        const vessel = `vessel-new${s}-${i}`;
        const vessels = JSON.parse(typeof model['event_vessels'] === 'string' ? model['event_vessels'] : JSON.stringify(model['event_vessels'])) as Record<string, unknown>[];
        Object.assign(row, { entity_id: vessel, event_vessels: JSON.stringify(vessels.map((v) => (v['id'] === model['entity_id'] ? { ...v, id: vessel } : v))) });
      }
      rows.push(row);
    }
    // Removals: one dataset per step (a removal file is one dataset's), never of a row this step gives.
    const kind = r.pick(['fishing', 'loitering', 'port_visit', 'gap'] as const);
    const candidates = present.filter((row) => row['event_type'] === kind && !taken.has(key(row)));
    const ids = [...new Set(Array.from({ length: Math.min(candidates.length - 1, r.int(5, 30)) }, () => String(r.pick(candidates)['event_id'])))];
    const removals: Removals[] = ids.length ? [{ kind, file: `remove-${s}.txt`, ids: ids.map((id, i) => ({ line: i + 1, id })) }] : [];
    for (const row of rows) current.set(key(row), row);
    for (const id of ids) current.delete(`${kind}|${id}`);
    sequence.push({ rows, removals });
  }
  return { sequence, final: [...current.values()] };
}

/** Requests of every class: random lists, ids, vessels, regions, a polygon, statistics, deep pages. */
function requests(r: Random, fixture: Fixture, final: PublishedRow[], gone: PublishedRow[]): { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> }[] {
  const all = Object.values(DATASET).map((d) => `${d}:latest`);
  const out: { method: 'GET' | 'POST'; url: string; payload?: Record<string, unknown> }[] = [];
  // The generator names version v20240101 at times: here every dataset is read at its latest.
  const latest = (text: string) => text.replaceAll(':v20240101', ':latest').replaceAll('%3Av20240101', '%3Alatest');
  for (let i = 0; i < QUERIES; i++) {
    const req = toRequest(generate(r, fixture), r);
    out.push({ method: req.method, url: latest(req.url), ...(req.payload ? { payload: JSON.parse(latest(JSON.stringify(req.payload))) as Record<string, unknown> } : {}) });
  }
  for (let i = 0; i < 20; i++) {
    const record = r.pick(fixture.records);
    out.push({ method: 'GET', url: `/v3/events/${encodeURIComponent(record.id)}?dataset=${DATASET[record.kind]}:latest` });
    out.push({ method: 'GET', url: `/v3/events?datasets[0]=${all.join('&datasets[0]=')}&vessels[0]=${record.vessel.id}&limit=200&offset=0` });
    out.push({
      method: 'POST', url: '/v3/events?limit=50&offset=0',
      payload: { datasets: all, geometry: { type: 'Polygon', coordinates: [[[record.lon - 3, record.lat - 3], [record.lon + 3, record.lat - 3], [record.lon + 3, record.lat + 3], [record.lon - 3, record.lat + 3], [record.lon - 3, record.lat - 3]]] } },
    });
    const eez = record.regions['eez']?.[0];
    if (eez) out.push({ method: 'POST', url: '/v3/events?limit=20&offset=5', payload: { datasets: all, region: { dataset: 'public-eez-areas', id: eez } } });
    // The vessels the latest versions describe: identities, first and last seen, as a fresh load's.
    out.push({ method: 'GET', url: `/v3/vessels/${encodeURIComponent(record.vessel.id)}` });
    if (record.vessel.flag) out.push({ method: 'GET', url: `/v3/vessels/search?where=${encodeURIComponent(`flag = '${record.vessel.flag}'`)}&limit=50` });
    if (record.vessel.name && record.vessel.name.length >= 3) out.push({ method: 'GET', url: `/v3/vessels/search?query=${encodeURIComponent(record.vessel.name.slice(0, 4))}` });
  }
  // Lists made of the updates' rows alone, and of them among stored ones, paged.
  const fresh = final.filter((row) => String(row['event_id']).startsWith('new') && row['event_type'] === 'fishing').map((row) => String(row['event_id']));
  const kept = final.filter((row) => row['event_type'] === 'fishing').slice(0, 6).map((row) => String(row['event_id']));
  for (const [ids, offset] of [[fresh.slice(0, 8), 2], [[...fresh.slice(0, 5), ...kept], 3]] as const) {
    for (const sort of ['+start', '-end']) out.push({ method: 'GET', url: `/v3/events?datasets[0]=${DATASET.fishing}:latest&ids=${ids.map(encodeURIComponent).join(',')}&limit=4&offset=${offset}&sort=${sort}` });
  }
  // Removed events are not found, by id or in a list of ids.
  for (const row of gone.slice(0, 10)) {
    const dataset = `${DATASET[row['event_type'] as EventKind]}:latest`;
    out.push({ method: 'GET', url: `/v3/events/${encodeURIComponent(String(row['event_id']))}?dataset=${dataset}` });
    out.push({ method: 'GET', url: `/v3/events?datasets[0]=${dataset}&ids=${encodeURIComponent(String(row['event_id']))}&limit=5&offset=0` });
  }
  for (const interval of ['DAY', 'MONTH', 'YEAR']) {
    for (const groupBy of ['FLAG', 'GEARTYPE', 'VESSEL_TYPE']) {
      out.push({ method: 'POST', url: '/v3/events/stats', payload: { datasets: all.slice(0, 2 + r.int(0, 3)), startDate: '2017-01-01', endDate: '2025-01-01', timeseriesInterval: interval, groupBy, includes: ['TOTAL_COUNT', 'TIME_SERIES'] } });
    }
  }
  // Windows with partial months at both edges, by start and by overlap (the monthly counts' edges).
  for (const timeFilterMode of ['START-DATE', 'OVERLAP']) {
    out.push({ method: 'POST', url: '/v3/events/stats', payload: { datasets: all, startDate: '2018-03-15', endDate: '2023-07-20', timeFilterMode, timeseriesInterval: 'MONTH', groupBy: 'FLAG', includes: ['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED'] } });
  }
  const fishing = final.filter((row) => row['event_type'] === 'fishing').length;
  for (const offset of [0, Math.floor(fishing / 3), Math.max(0, fishing - 7)]) {
    out.push({ method: 'GET', url: `/v3/events?datasets[0]=${DATASET.fishing}:latest&limit=25&offset=${offset}&sort=-start` });
  }
  return out;
}

describe(`updates on ${TEST_ENGINE} (UPDATE_TEST_SEED=${SEED})`, () => {
  let updatedApp: TestApp;
  let freshApp: TestApp;
  let fixture: Fixture;
  let final: PublishedRow[];
  /** Rows of the first load that the updates removed. */
  let gone: PublishedRow[];
  let updated: Database;
  /** The versions there were when `updated` was compacted (PostgreSQL), if it was. */
  let compactedVersions = new Set<string>();

  before(async () => {
    const r = new Random(SEED);
    const demo = { events: FULL ? 3000 : 1500, seed: SEED % 97 };
    const world = new DemoWorld(demo);
    const initial = [...demoRows(world, demo)];
    const groups = demoReferenceData(world).groups;
    const plan = updateSequence(r, initial, STEPS);
    final = plan.final;
    const kept = new Set(final.map(key));
    gone = initial.filter((row) => !kept.has(key(row)));
    updated = await newDatabase('updated');
    await loadRows(initial, 'initial.ndjson', { database: updated, version: 'v1', source: 'initial' });
    for (const [s, step] of plan.sequence.entries()) {
      await loadRows(step.rows, `update-${s}.ndjson`, { database: updated, version: `u${s}`, source: `update ${s}`, update: { removals: step.removals } });
    }
    // The reference: one load of the final rows, read back as records for the query generator.
    const freshFile = join(dir, 'fresh-reference.duckdb');
    await loadRows(final, 'final.ndjson', { database: { engine: 'duckdb', path: freshFile }, version: 'v1', source: 'final' });
    const fresh = TEST_ENGINE === 'postgres' ? await newDatabase('fresh') : { engine: 'duckdb' as const, path: freshFile };
    if (fresh.engine === 'postgres') await loadRows(final, 'final.ndjson', { database: fresh, version: 'v1', source: 'final' });
    for (const database of new Set([updated, fresh])) await editDatabase(database, (w) => w.replaceGroups(groups));
    const records = await readAllRecords(freshFile);
    const groupMembers = new Map<string, Set<string>>();
    for (const g of groups) (groupMembers.get(g.groupId) ?? groupMembers.set(g.groupId, new Set()).get(g.groupId)!).add(g.vesselId);
    fixture = { dir, dbPath: freshFile, database: fresh, rows: final, records, groups: groupMembers, cleanup: async () => {} };
    freshApp = await startTestApp({ fixture });
    updatedApp = await startTestApp({ fixture: { ...fixture, database: updated } });
  });
  after(async () => {
    await updatedApp?.close();
    await freshApp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every query class on `app` answers as on a fresh load of the final rows. */
  async function answersAsFresh(app: TestApp): Promise<void> {
    const r = new Random(SEED + 1);
    let nonEmpty = 0;
    for (const req of requests(r, fixture, final, gone)) {
      const send = (t: TestApp) => t.app.inject({ method: req.method, url: req.url, headers: t.auth, ...(req.payload ? { payload: req.payload } : {}) });
      const [a, b] = await Promise.all([send(app), send(freshApp)]);
      const where = `UPDATE_TEST_SEED=${SEED}: ${req.method} ${req.url} ${req.payload ? JSON.stringify(req.payload) : ''}`;
      assert.equal(a.statusCode, b.statusCode, `${where}\n${a.body}\n${b.body}`);
      // The version tags differ (the updated database's latest is the last update's): all else is equal.
      const untagged = (body: string) => JSON.parse(body.replace(/(-events):(v1|u\d)\b/g, '$1:TAG')) as unknown;
      assert.deepEqual(untagged(a.body), untagged(b.body), where);
      if (a.statusCode === 200 && a.headers['x-total-count'] !== '0') nonEmpty++;
    }
    assert.ok(nonEmpty > QUERIES / 3, `only ${nonEmpty} requests found anything`);
  }

  test('every query class answers as a fresh load of the final rows', () => answersAsFresh(updatedApp));

  // Before the tests below update `updated` again: those then apply to a compacted lineage.
  test('compacted (PostgreSQL), every query class answers as before, and every earlier version too', { skip: TEST_ENGINE !== 'postgres' }, async () => {
    // Each version's vessel histories, regions and polygons: the paths the folded tables serve.
    const r = new Random(SEED + 2);
    const byVersion = (await listVersions(updated)).flatMap((v) => Array.from({ length: 4 }, () => {
      const record = r.pick(fixture.records.filter((x) => DATASET[x.kind] === v.datasetId));
      const dataset = `${v.datasetId}:${v.version}`;
      const box = [[record.lon - 4, record.lat - 4], [record.lon + 4, record.lat - 4], [record.lon + 4, record.lat + 4], [record.lon - 4, record.lat + 4], [record.lon - 4, record.lat - 4]];
      const eez = record.regions['eez']?.[0];
      return [
        { method: 'GET' as const, url: `/v3/events?datasets[0]=${dataset}&vessels[0]=${record.vessel.id}&limit=50&offset=0` },
        { method: 'POST' as const, url: '/v3/events?limit=30&offset=2', payload: { datasets: [dataset], geometry: { type: 'Polygon', coordinates: [box] } } },
        ...(eez ? [{ method: 'POST' as const, url: '/v3/events?limit=30&offset=1', payload: { datasets: [dataset], region: { dataset: 'public-eez-areas', id: eez } } }] : []),
      ];
    }).flat());
    // One at a time: all at once, they would be more than the server queues.
    const answers = async (app: TestApp) => {
      const out: string[] = [];
      for (const req of byVersion) {
        const res = await app.app.inject({ method: req.method, url: req.url, headers: app.auth, ...('payload' in req ? { payload: req.payload } : {}) });
        out.push(`${res.statusCode} ${res.headers['x-total-count']} ${res.body}`);
      }
      return out;
    };
    const before = await answers(updatedApp);
    const compacted = await compactPostgresDatabase((updated as { url: string }).url);
    compactedVersions = new Set((await listVersions(updated)).map((v) => `${v.datasetId}:${v.version}`));
    assert.ok(compacted.length > 0 && compacted.every((l) => l.updates > 0 && l.added + l.hidden > 0), JSON.stringify(compacted));
    // Served by a server that read the catalog before the compaction (the change tables then empty),
    // and by one started after it (the tables alone).
    const reopened = await startTestApp({ fixture: { ...fixture, database: updated } });
    try {
      for (const app of [updatedApp, reopened]) {
        await answersAsFresh(app);
        const after = await answers(app);
        for (const [i, req] of byVersion.entries()) assert.equal(after[i], before[i], `${req.method} ${req.url} ${JSON.stringify('payload' in req ? req.payload : '')}`);
      }
    } finally {
      await reopened.close();
    }
  });

  // A layered version's lists are merged in JS when short and found in SQL when long: each way alone.
  for (const [way, store] of [['merged in JS', { layered: { mergedMax: 1e9 } }], ['merged in JS, the stored entries read again, hidden ones asked for', { layered: { mergedMax: 1e9, mergedSlack: -1e9, hiddenRead: 0 } }], ['found in SQL, sorted with entries or not', { layered: { mergedMax: -1 }, sortedWithEntriesMax: 3 }], ['in parts of 7 entries', { layered: { pagePart: 7 } }]] as const) {
    test(`every query class answers as a fresh load of the final rows, lists over layers ${way}`, { skip: TEST_ENGINE !== 'duckdb' }, async () => {
      const app = await startTestApp({ fixture: { ...fixture, database: updated }, store });
      try {
        await answersAsFresh(app);
      } finally {
        await app.close();
      }
    });
  }

  test('compacted, the latest versions are written whole and answer as before; the older updates stay layers', { skip: TEST_ENGINE !== 'duckdb' }, async () => {
    const path = (updated as { path: string }).path;
    const copy = join(dir, 'compacted.duckdb');
    copyDuckDbFiles(path, copy);
    const compactedDb: Database = { engine: 'duckdb', path: copy };
    const versions = await listVersions(compactedDb);
    const latestLayered = new Set(Object.values(DATASET).map((d) => versions.filter((v) => v.datasetId === d).at(-1)!).filter((v) => v.version !== 'v1').map((v) => `${v.datasetId}:${v.version}`));
    const compacted = await compactDatabase(copy);
    assert.deepEqual(new Set(compacted.map((v) => `${v.datasetId}:${v.version}`)), latestLayered);
    // Sorted in ranges of a few dozen rows (src/store/duckdb/sort-ranges.ts), the same rows in the
    // same order, and the same point files.
    const ranged = join(dir, 'compacted-ranged.duckdb');
    copyDuckDbFiles(path, ranged);
    await compactDatabase(ranged, { sortRangeRows: 37 });
    assert.deepEqual(await storedRows(ranged), await storedRows(copy));
    assert.deepEqual(await listVersions(compactedDb), versions);
    // The files left hold older updates only.
    const stored = new Set(await readOnly(copy, async (c) => (await c.runAndReadAll(`SELECT version_id::INTEGER FROM dataset_versions`)).getRowsJS().map((row) => row[0] as number)));
    for (const v of versions) assert.equal(stored.has(v.versionId), v.version === 'v1' || latestLayered.has(`${v.datasetId}:${v.version}`), `${v.datasetId}:${v.version}`);
    const app = await startTestApp({ fixture: { ...fixture, database: compactedDb } });
    try {
      await answersAsFresh(app);
      // An older update, still a layer, is served by its tag.
      const older = versions.find((v) => !stored.has(v.versionId) && v.datasetId === DATASET.fishing);
      if (older) {
        const res = await app.app.inject({ method: 'GET', url: `/v3/events?datasets[0]=${DATASET.fishing}:${older.version}&limit=1&offset=0`, headers: app.auth });
        assert.equal(res.statusCode, 200);
        assert.equal(Number(res.headers['x-total-count']), older.rowCount);
      }
    } finally {
      await app.close();
    }
    await assert.rejects(compactDatabase(copy), (e) => e instanceof LoadRefused && /nothing to compact/.test(e.message));
  });

  test('a version an update applies to is dropped only after the update; a dropped update\'s file is removed, the database file left as it was', { skip: TEST_ENGINE !== 'duckdb' }, async () => {
    const db: Database = { engine: 'duckdb', path: join(dir, 'dropping.duckdb') };
    const fishing = final.filter((row) => row['event_type'] === 'fishing');
    const gaps = final.filter((row) => row['event_type'] === 'gap');
    await loadRows([...fishing.slice(1), ...gaps.slice(1)], 'initial.ndjson', { database: db, version: 'v1', source: 'initial' });
    await loadRows([fishing[0]!], 'one.ndjson', { database: db, version: 'u1', source: 'one', update: { removals: [] } });
    await loadRows([fishing[1]!, gaps[0]!], 'two.ndjson', { database: db, version: 'u2', source: 'two', update: { removals: [] } });
    const tags = async (dataset: string) => (await listVersions(db)).filter((v) => v.datasetId === dataset).map((v) => `${v.version}:${v.rowCount}`);
    assert.deepEqual(await tags(DATASET.fishing), [`v1:${fishing.length - 1}`, `u1:${fishing.length}`, `u2:${fishing.length}`]);
    assert.equal(layerFiles(db.path).size, 2);
    await assert.rejects(editDatabase(db, (w) => w.dropVersion(DATASET.fishing, 'fishing', 'u1')), (e) => e instanceof LoadRefused && /:u2 is an update of .*:u1; drop it first, or write it whole with "vessel-events compact"/.test(e.message));
    // Dropped beside it, the database file is neither copied nor written.
    const file = () => { const s = statSync(db.path); return `${s.ino}:${s.mtimeMs}:${s.size}`; };
    const before = file();
    // u2 of fishing and of gaps share one file: dropping one writes it again without it.
    await dropVersion(db, DATASET.gap, 'gap', 'u2');
    assert.equal(layerFiles(db.path).size, 2);
    assert.deepEqual(await tags(DATASET.gap), [`v1:${gaps.length - 1}`]);
    assert.deepEqual(await tags(DATASET.fishing), [`v1:${fishing.length - 1}`, `u1:${fishing.length}`, `u2:${fishing.length}`]);
    await dropVersion(db, DATASET.fishing, 'fishing', 'u2');
    assert.equal(layerFiles(db.path).size, 1);
    await dropVersion(db, DATASET.fishing, 'fishing', 'u1');
    assert.equal(layerFiles(db.path).size, 0);
    assert.equal(file(), before);
    assert.deepEqual(await tags(DATASET.fishing), [`v1:${fishing.length - 1}`]);
    assert.deepEqual(await tags(DATASET.gap), [`v1:${gaps.length - 1}`]);
  });

  test('each update is a new version; the versions it came from stay loaded', async () => {
    const versions = await listVersions(updated);
    for (const [kind, dataset] of Object.entries(DATASET)) {
      const tags = versions.filter((v) => v.datasetId === dataset).map((v) => v.version);
      assert.equal(tags[0], 'v1', `${kind}: ${tags.join(', ')}`);
      const latest = versions.filter((v) => v.datasetId === dataset).at(-1)!;
      assert.equal(latest.rowCount, final.filter((row) => row['event_type'] === kind).length, `${kind}'s latest version`);
    }
  });

  test('a refused update changes nothing and names the file and line', async () => {
    const before = await listVersions(updated);
    const row = final.find((x) => x['event_type'] === 'fishing')!;
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, `${JSON.stringify(row)}\n{"event_id": "x", broken\n`);
    await assert.rejects(loadFiles([{ path: bad, format: 'ndjson' }], { database: updated, version: 'bad1', source: bad, update: { removals: [] } }), (e) =>
      e instanceof InvalidRows && e.first.file === bad && e.first.line === 2);
    await assert.rejects(loadRows([row], 'rows.ndjson', { database: updated, version: 'bad2', source: 'x', update: { removals: [{ kind: 'gap', file: 'gone.txt', ids: [{ line: 3, id: 'no-such-event' }] }] } }), (e) =>
      e instanceof LoadRefused && /^gone\.txt:3: event id "no-such-event" is not in public-global-gaps-events:u\d, the version this update applies to$/.test(e.message));
    await assert.rejects(loadRows([row], 'other.ndjson', { database: updated, version: 'bad3', source: 'x', kind: 'gap', update: { removals: [] } }), (e) =>
      e instanceof InvalidRows && e.first.line === 1 && /event_type: is "fishing" but --dataset is gap/.test(e.first.problem));
    const gone = final.find((x) => x['event_type'] === 'gap')!;
    await assert.rejects(loadRows([gone], 'both.ndjson', { database: updated, version: 'bad4', source: 'x', update: { removals: [{ kind: 'gap', file: 'both.txt', ids: [{ line: 1, id: String(gone['event_id']) }] }] } }), (e) =>
      e instanceof LoadRefused && /^both\.txt:1: event id .* is to be removed and is also a row of the update$/.test(e.message));
    await assert.rejects(loadRows([], 'none.ndjson', { database: updated, version: 'bad5', source: 'x', update: { removals: [] } }), (e) =>
      e instanceof LoadRefused && /no valid rows and no ids to remove/.test(e.message));
    assert.deepEqual(await listVersions(updated), before);
  });

  test('entries saved from the API (--format gfw-json) update by id as published rows do', async () => {
    const id = fixture.records.find((x) => x.kind === 'fishing' && x.endMs !== null)!.id;
    const url = `/v3/events/${encodeURIComponent(id)}?dataset=${DATASET.fishing}:latest`;
    const saved = (await updatedApp.app.inject({ method: 'GET', url, headers: { ...updatedApp.auth, 'x-wire-format': 'gfw' } })).json() as { end: string };
    const later = new Date(Date.parse(saved.end) + 3_600_000).toISOString();
    const file = join(dir, 'saved.json');
    writeFileSync(file, JSON.stringify({ entries: [{ ...saved, end: later }] }));
    const from = (await listVersions(updated)).filter((v) => v.datasetId === DATASET.fishing).at(-1)!.version;
    // On DuckDB each update so far is a layer file holding a fishing version: this one is one more.
    // On PostgreSQL, each fishing update since the compaction (if it ran) has its rows beside the tables.
    const pending = (await listVersions(updated)).filter((v) => v.datasetId === DATASET.fishing && v.version !== 'v1' && !compactedVersions.has(`${v.datasetId}:${v.version}`)).length;
    const layers = { layers: updated.engine === 'duckdb' ? readdirSync(`${updated.path}.layers`).filter((f) => /^\d+\.duckdb$/.test(f)).length + 1 : pending + 1 };
    const result = await loadFiles([{ path: file, format: 'gfw-json' }], { database: updated, version: 'g1', source: file, update: { removals: [] } });
    assert.deepEqual(result.published.map((p) => [p.datasetId, p.version, p.change]), [[DATASET.fishing, 'g1', { from, replaced: 1, added: 0, removed: 0, ...layers }]]);
    const reopened = await startTestApp({ fixture: { ...fixture, database: updated } });
    try {
      const entry = (await reopened.app.inject({ method: 'GET', url, headers: reopened.auth })).json() as { end: string };
      assert.equal(entry.end, later);
    } finally {
      await reopened.close();
    }
  });
});
