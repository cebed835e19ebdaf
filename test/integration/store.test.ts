import { toEntry } from '../helpers/entry-oracle.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Random } from '../../src/data/demo/random.ts';
import { loadFiles } from '../../src/data/load-events.ts';
import { InvalidRows, LoadRefused } from '../../src/store/writer.ts';
import { EVENT_TYPE_FILTER_VALUES, SORT_VALUES, TIME_FILTER_MODES, VESSEL_TYPES } from '../../src/query/enumerations.ts';
import { normalizeListQuery } from '../../src/query/normalize.ts';
import type { EventFilters } from '../../src/query/schema.ts';
import { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import { inStoredOrder } from '../../src/store/duckdb/stored-order.ts';
import { VESSEL_KEY_SQL, vesselKey, vesselSource } from '../../src/store/duckdb/vessel-table.ts';
import { servedByVesselTable } from '../../src/store/vessel-plan.ts';
import { compileRows, compileSearch } from '../../src/store/duckdb/compile.ts';
import { LONG_LIST } from '../../src/store/duckdb/render-plan.ts';
import { DuckDBInstance } from '@duckdb/node-api';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';
import { fromEventQuery, referencePage } from "../helpers/reference.ts";

const ALL_DATASETS = [
  'public-global-fishing-events:latest', 'public-global-encounters-events:latest', 'public-global-loitering-events:latest',
  'public-global-port-visits-events:latest', 'public-global-gaps-events:latest',
];

describe('DuckDB store against the reference semantics', () => {
  let fixture: Fixture;
  let store: DuckDbStore;
  before(async () => {
    fixture = await buildFixtureDb({ events: 3000, seed: 11 });
    store = await DuckDbStore.open({ path: fixture.dbPath });
  });
  after(async () => {
    await store.close();
    await fixture.cleanup();
  });

  function randomFilters(r: Random): { filters: EventFilters; paging: { limit: number; offset: number; sort: (typeof SORT_VALUES)[number] } } {
    const records = fixture.records;
    const filters: EventFilters = { datasets: ALL_DATASETS.filter(() => r.chance(0.5)) };
    if (filters.datasets.length === 0) filters.datasets.push(r.pick(ALL_DATASETS));
    const op = () => r.pick(['INCLUDE', 'EXCLUDE'] as const);
    if (r.chance(0.3)) filters.vessels = Array.from({ length: r.int(1, 3) }, () => r.pick(records).vessel.id);
    if (r.chance(0.1)) filters.ids = Array.from({ length: r.int(1, 5) }, () => r.pick(records).id);
    if (r.chance(0.3)) { filters.types = Array.from({ length: r.int(1, 2) }, () => r.pick(EVENT_TYPE_FILTER_VALUES)); if (r.chance(0.5)) filters.typesOperator = op(); }
    if (r.chance(0.4)) { filters.flags = Array.from({ length: r.int(1, 3) }, () => r.pick(['CHN', 'ESP', 'TWN', 'RUS', 'KOR', 'USA', 'SEN'])); if (r.chance(0.5)) filters.flagsOperator = op(); }
    if (r.chance(0.3)) { filters.vesselTypes = Array.from({ length: r.int(1, 2) }, () => r.pick(VESSEL_TYPES)); if (r.chance(0.5)) filters.vesselTypesOperator = op(); }
    if (r.chance(0.7)) {
      const start = Date.UTC(2017, 0, 1) + Math.floor(r.next() * 7 * 365) * 86_400_000;
      if (r.chance(0.85)) filters.startDate = new Date(start).toISOString().slice(0, 10);
      if (r.chance(0.85)) filters.endDate = new Date(start + r.int(1, 400) * 86_400_000).toISOString().slice(0, 10);
      if (r.chance(0.6)) filters.timeFilterMode = r.pick(TIME_FILTER_MODES);
    }
    return { filters, paging: { limit: r.pick([1, 5, 20, 100, 5000]), offset: r.pick([0, 0, 3, 17, 200]), sort: r.pick(SORT_VALUES) } };
  }

  test('300 random queries: same total and same page of ids as the reference', async () => {
    const seed = Number(process.env['STORE_TEST_SEED'] ?? 20240101);
    const r = new Random(seed);
    const ctx = { catalog: store, access: { canRead: () => true } };
    let nonEmpty = 0;
    for (let i = 0; i < 300; i++) {
      const { filters, paging } = randomFilters(r);
      const query = await normalizeListQuery(filters, paging, ctx);
      const expected = referencePage(fixture, fromEventQuery(query));
      const total = await store.count(query);
      const ids: string[] = [];
      for await (const chunk of await store.search(query)) ids.push(...chunk.map((text) => (JSON.parse(text) as { id: string }).id));
      const where = `query ${i} (STORE_TEST_SEED=${seed}): ${JSON.stringify({ filters, paging })}`;
      assert.equal(total, expected.total, where);
      assert.deepEqual(ids, expected.ids, where);
      if (total > 0) nonEmpty++;
    }
    assert.ok(nonEmpty > 150, `only ${nonEmpty} of 300 queries found anything: the generator is too narrow`);
  });

  test('lists longer than LONG_LIST values (bound as one list) answer as the reference, included and excluded', async () => {
    const ctx = { catalog: store, access: { canRead: () => true } };
    const unknown = (prefix: string) => Array.from({ length: LONG_LIST + 1 }, (_, i) => `${prefix}-${i}`);
    const fishing = fixture.records.filter((x) => x.kind === 'fishing');
    const cases: EventFilters[] = [
      { datasets: ALL_DATASETS, vessels: [...unknown('vessel'), fishing[0]!.vessel.id, fishing[9]!.vessel.id] },
      { datasets: ALL_DATASETS, ids: [...unknown('id'), ...fishing.slice(0, 30).map((x) => x.id)] },
      { datasets: ALL_DATASETS, flags: [...unknown('X'), 'CHN', 'ESP'], flagsOperator: 'EXCLUDE' },
      { datasets: ALL_DATASETS, flags: [...unknown('X'), 'CHN'], flagsOperator: 'INCLUDE' },
    ];
    for (const filters of cases) {
      const query = await normalizeListQuery(filters, { limit: 50, offset: 3, sort: '+start' }, ctx);
      const expected = referencePage(fixture, fromEventQuery(query));
      const ids: string[] = [];
      for await (const chunk of await store.search(query)) ids.push(...chunk.map((text) => (JSON.parse(text) as { id: string }).id));
      const where = JSON.stringify(filters).slice(0, 80);
      assert.ok(expected.total > 0, where);
      assert.equal(await store.count(query), expected.total, where);
      assert.deepEqual(ids, expected.ids, where);
    }
  });

  test('vessel histories (from the point files, and in SQL on vessel_events): same totals and pages as the reference', async () => {
    const r = new Random(7);
    const ctx = { catalog: store, access: { canRead: () => true } };
    const instance = await DuckDBInstance.create(fixture.dbPath, { access_mode: 'READ_ONLY' });
    const c = await instance.connect();
    const allVessels = [...new Set(fixture.records.map((x) => x.vessel.id))];
    try {
      for (let i = 0; i < 120; i++) {
        // Every tenth names 20 vessels in five datasets: more runs than the point files take on
        // (vessel-history.ts), so vessel_events counts and events pages.
        const many = i % 10 === 9;
        const filters: EventFilters = { datasets: many ? [...ALL_DATASETS] : ALL_DATASETS.filter(() => r.chance(0.7)), vessels: many ? allVessels.slice(i % 7, i % 7 + 20) : Array.from({ length: r.int(1, 3) }, () => r.pick(fixture.records).vessel.id) };
        if (filters.datasets.length === 0) filters.datasets.push(r.pick(ALL_DATASETS));
        if (r.chance(0.5)) filters.startDate = r.pick(['2017-01-01', '2019-06-01', '2021-01-01']);
        if (r.chance(0.5)) filters.endDate = r.pick(['2021-06-01', '2023-03-15', '2025-01-01']);
        if (r.chance(0.3)) filters.timeFilterMode = r.pick(TIME_FILTER_MODES);
        if (r.chance(0.3)) filters.types = [r.pick(EVENT_TYPE_FILTER_VALUES)];
        if (r.chance(0.2)) filters.typesOperator = 'EXCLUDE';
        if (r.chance(0.3)) filters.duration = r.int(0, 600);
        if (r.chance(0.2)) filters.maxDuration = r.pick([1, 5, 24]);
        if (r.chance(0.2)) filters.ids = fixture.records.filter((x) => filters.vessels!.includes(x.vessel.id) && r.chance(0.5)).map((x) => x.id).concat('no-such-id');
        if (r.chance(0.2)) filters.isClosed = [r.pick([true, false])];
        const paging = { limit: r.pick([1, 20, 100]), offset: r.pick([0, 0, 5]), sort: r.pick(SORT_VALUES) };
        let query;
        try {
          query = await normalizeListQuery(filters, paging, ctx);
        } catch {
          continue; // a maximum duration below the minimum
        }
        assert.ok(servedByVesselTable(query));
        if (many) assert.ok(query.vesselIds!.length * 5 > 64);
        const expected = referencePage(fixture, fromEventQuery(query));
        const where = `vessel query ${i}: ${JSON.stringify({ filters, paging })}`;
        const ids: string[] = [];
        for await (const chunk of await store.search(query)) ids.push(...chunk.map((text) => (JSON.parse(text) as { id: string }).id));
        assert.equal(await store.count(query), expected.total, where);
        assert.deepEqual(ids, expected.ids, where);
        // The same query in SQL on vessel_events, where a version without a usable point file is read.
        const rows = compileRows(query, vesselSource(query));
        assert.equal(Number((await c.runAndReadAll(`SELECT count(*) ${rows.sql}`, rows.params as never)).getRowsJS()[0]![0]), expected.total, where);
        const page = compileSearch(query, 'id', vesselSource(query));
        assert.deepEqual((await c.runAndReadAll(page.sql, page.params as never)).getRowsJS().map((x) => x[0]), expected.ids, where);
      }
    } finally {
      c.closeSync();
      instance.closeSync();
    }
  });

  test('pages of one dataset by start (read in storage order): same totals and pages as the reference', async () => {
    const r = new Random(13);
    const ctx = { catalog: store, access: { canRead: () => true } };
    for (let i = 0; i < 80; i++) {
      const filters: EventFilters = { datasets: [r.pick(ALL_DATASETS)] };
      if (r.chance(0.5)) filters.flags = [r.pick(['CHN', 'ESP', 'TWN', 'RUS', 'KOR', 'USA', 'SEN'])];
      if (r.chance(0.5)) filters.startDate = r.pick(['2017-01-01', '2019-06-01', '2021-01-01']);
      if (r.chance(0.5)) filters.endDate = r.pick(['2021-06-01', '2023-03-15', '2025-01-01']);
      if (r.chance(0.3)) filters.timeFilterMode = r.pick(TIME_FILTER_MODES);
      const paging = { limit: r.pick([1, 7, 100, 2049, 5000]), offset: r.pick([0, 1, 50, 999, 2100, 100_000]), sort: r.pick(['+start', '-start'] as const) };
      const query = await normalizeListQuery(filters, paging, ctx);
      assert.ok(inStoredOrder(query));
      const expected = referencePage(fixture, fromEventQuery(query));
      const where = `stored-order query ${i}: ${JSON.stringify({ filters, paging })}`;
      const total = await store.count(query);
      assert.equal(total, expected.total, where);
      // With and without the total the caller already has.
      for (const given of [total, undefined]) {
        const ids: string[] = [];
        for await (const chunk of await store.search(query, given)) ids.push(...chunk.map((text) => (JSON.parse(text) as { id: string }).id));
        assert.deepEqual(ids, expected.ids, where);
      }
    }
  });

  test('a vessel key in JS is the one the loader writes in SQL', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    const ids = [...new Set(fixture.records.map((x) => x.vessel.id))].slice(0, 200).concat(['', 'é', 'a\u0000b', '🐟']);
    const keys: unknown[] = [];
    for (const id of ids) keys.push((await c.runAndReadAll(`SELECT ${VESSEL_KEY_SQL('$1::VARCHAR')}`, [id])).getRowsJS()[0]![0]);
    assert.deepEqual(keys, ids.map(vesselKey));
    c.closeSync();
    instance.closeSync();
  });

  test('getRecord and getEntry return the stored event of that dataset only', async () => {
    const ctx = { catalog: store, access: { canRead: () => true } };
    const visit = fixture.records.find((r) => r.kind === 'port_visit')!;
    const [visits] = (await normalizeListQuery({ datasets: ['public-global-port-visits-events:latest'] }, { limit: 1, offset: 0 }, ctx)).datasets;
    const [fishing] = (await normalizeListQuery({ datasets: ['public-global-fishing-events:latest'] }, { limit: 1, offset: 0 }, ctx)).datasets;
    assert.deepEqual(await store.getRecord(visits!, visit.id), visit);
    assert.equal(await store.getRecord(fishing!, visit.id), undefined);
    assert.equal(await store.getEntry(visits!, visit.id), JSON.stringify(toEntry(visit, 'gfw')));
    assert.equal(await store.getEntry(fishing!, visit.id), undefined);
  });
});

describe('loading next to served data', () => {
  test('a bad row stops the load, names file, line and field, and leaves the database file untouched', async () => {
    const fixture = await buildFixtureDb({ events: 300, seed: 5 });
    try {
      const before = readFileSync(fixture.dbPath);
      const file = join(fixture.dir, 'more.ndjson');
      const rows = fixture.rows.slice(0, 50).map((r) => ({ ...r, event_id: `${r['event_id']}-new` }));
      (rows[29] as Record<string, unknown>)['lat_mean'] = 'north';
      writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
      await assert.rejects(loadFiles([{ path: file, format: 'ndjson' }], { database: { engine: 'duckdb', path: fixture.dbPath }, version: 'v2', source: file }), (e) =>
        e instanceof InvalidRows && e.first.file === file && e.first.line === 30 && e.first.problem.startsWith('lat_mean:'));
      assert.ok(readFileSync(fixture.dbPath).equals(before), 'the served file is byte for byte what it was');
      assert.deepEqual(readdirSync(fixture.dir).filter((f) => f.includes('.loading-')), [], 'no working copy is left behind');
    } finally {
      await fixture.cleanup();
    }
  });

  test('a second version is added beside the first; latest points at it; a repeated tag is refused', async () => {
    const fixture = await buildFixtureDb({ events: 300, seed: 5 });
    try {
      const file = join(fixture.dir, 'fishing.ndjson');
      const fishing = fixture.rows.filter((r) => r['event_type'] === 'fishing').slice(0, 10);
      writeFileSync(file, `${fishing.map((r) => JSON.stringify(r)).join('\n')}\n`);
      const result = await loadFiles([{ path: file, format: 'ndjson' }], { database: { engine: 'duckdb', path: fixture.dbPath }, version: 'v20250101', source: file });
      assert.deepEqual(result.published, [{ kind: 'fishing', datasetId: 'public-global-fishing-events', version: 'v20250101', rows: 10 }]);
      await assert.rejects(loadFiles([{ path: file, format: 'ndjson' }], { database: { engine: 'duckdb', path: fixture.dbPath }, version: 'v20250101', source: file }), (e) =>
        e instanceof LoadRefused && /already has a version "v20250101"/.test(e.message));
      const store = await DuckDbStore.open({ path: fixture.dbPath });
      try {
        const ctx = { catalog: store, access: { canRead: () => true } };
        const latest = await normalizeListQuery({ datasets: ['public-global-fishing-events:latest'] }, { limit: 1, offset: 0 }, ctx);
        const old = await normalizeListQuery({ datasets: ['public-global-fishing-events:v20240101'] }, { limit: 1, offset: 0 }, ctx);
        assert.equal(await store.count(latest), 10);
        assert.equal(await store.count(old), fixture.records.filter((r) => r.kind === 'fishing').length);
      } finally {
        await store.close();
      }
    } finally {
      await fixture.cleanup();
    }
  });
});
