// The table sorted by region (src/store/duckdb/region-table.ts): region queries whose totals it
// answers, and whose pages sorted by start begin where it says, are the events table's answers
// (which test/api/area-differential.test.ts and filters-differential hold to the reference); a
// region listed twice in an event is one event; a database without the table's rows is answered
// from events until migrate writes them; dropping a version drops its rows.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Random } from '../../src/data/demo/random.ts';
import { REGION_MEMBERS } from '../../src/domain/regions.ts';
import { normalizeListQuery } from '../../src/query/normalize.ts';
import type { EventFilters } from '../../src/query/schema.ts';
import { EVENT_TYPE_FILTER_VALUES, SORT_VALUES, TIME_FILTER_MODES, VESSEL_TYPES } from '../../src/query/enumerations.ts';
import { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import { readRegionVersions } from '../../src/store/duckdb/region-table.ts';
import { REGION_TABLE_MEMBERS, regionPlan } from '../../src/store/region-plan.ts';
import { copyDuckDbFiles, editDatabase, migrateDatabase } from '../../src/store/engines.ts';
import { readOnly } from '../../src/store/duckdb/inspect.ts';
import { buildFixtureDb, fixtureFromRows, type Fixture } from '../helpers/fixture.ts';
import { SMALL_EVENTS } from '../fixtures/small-events.ts';
import { countedThenSearched, eventsAnswer, storeAnswer, writing } from '../helpers/store-answers.ts';

let fixture: Fixture;
let scratch: string;
before(async () => {
  fixture = await buildFixtureDb({ events: 3000, seed: 11 });
  scratch = mkdtempSync(join(tmpdir(), 'vessel-events-regions-'));
});
after(async () => {
  await fixture.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

const ALL_DATASETS = [
  'public-global-fishing-events:latest', 'public-global-encounters-events:latest', 'public-global-loitering-events:latest',
  'public-global-port-visits-events:latest', 'public-global-gaps-events:latest',
];

/** A region query: one region of any layer (RFMOs and unions of regions too, which events answer), and filters of every kind. */
function randomRegionQuery(r: Random): { filters: EventFilters; paging: { limit: number; offset: number; sort: (typeof SORT_VALUES)[number] } } {
  // One dataset sorted by start most often: the page then begins where the table says.
  const filters: EventFilters = { datasets: r.chance(0.6) ? [r.pick(ALL_DATASETS)] : ALL_DATASETS.filter(() => r.chance(0.3)) };
  if (filters.datasets!.length === 0) filters.datasets!.push(r.pick(ALL_DATASETS));
  // A region some event of the datasets lies in, so that most queries find something.
  const kinds = ['fishing', 'encounter', 'loitering', 'port_visit', 'gap'];
  const records = fixture.records.filter((rec) => filters.datasets!.includes(ALL_DATASETS[kinds.indexOf(rec.kind)]!));
  const pickRegion = () => {
    const layer = r.pick(REGION_MEMBERS);
    const carriers = records.filter((rec) => rec.regions[layer.member].length > 0);
    const carrier = r.pick(carriers.length ? carriers : fixture.records.filter((rec) => rec.regions[layer.member].length > 0));
    return { dataset: layer.dataset, id: r.pick(carrier.regions[layer.member]), flag: carrier.vessel.flag };
  };
  const regions = [pickRegion(), ...(r.chance(0.1) ? [pickRegion()] : [])];
  filters.regions = regions.map(({ dataset, id }) => ({ dataset, id }));
  if (r.chance(0.7)) {
    const start = Date.UTC(2017, 0, 1) + Math.floor(r.next() * 7 * 365) * 86_400_000;
    filters.startDate = new Date(start).toISOString().slice(0, 10);
    filters.endDate = new Date(start + r.int(1, 900) * 86_400_000).toISOString().slice(0, 10);
    if (r.chance(0.5)) filters.timeFilterMode = r.pick(TIME_FILTER_MODES);
  }
  const flags = fixture.records.map((rec) => rec.vessel.flag).filter((f): f is string => f !== null);
  if (r.chance(0.5)) {
    filters.flags = [regions[0]!.flag ?? r.pick(flags), ...(r.chance(0.3) ? [r.pick(flags)] : [])];
    if (r.chance(0.2)) filters.flagsOperator = 'EXCLUDE';
  }
  if (r.chance(0.2)) filters.vesselTypes = [r.pick(VESSEL_TYPES)];
  if (r.chance(0.2)) filters.types = [r.pick(EVENT_TYPE_FILTER_VALUES)];
  if (r.chance(0.2)) filters.duration = r.int(0, 300);
  // A filter the table has no column for: the query reads events, with the same answers.
  if (r.chance(0.1)) filters.encounterTypes = ['CARRIER-FISHING'];
  return { filters, paging: { limit: r.pick([1, 7, 100, 1000]), offset: r.pick([0, 0, 3, 40, 500]), sort: r.pick([...SORT_VALUES, '+start', '-start'] as const) } };
}

async function answersOf(path: string, requests: ReturnType<typeof randomRegionQuery>[]): Promise<{ total: number; ids: string[] }[]> {
  const store = await DuckDbStore.open({ path });
  try {
    const ctx = { catalog: store, access: { canRead: () => true } };
    const out = [];
    for (const { filters, paging } of requests) out.push(await storeAnswer(store, await normalizeListQuery(filters, paging, ctx)));
    return out;
  } finally {
    await store.close();
  }
}

const count = (path: string, sql: string) => readOnly(path, async (c) => Number((await c.runAndReadAll(sql)).getRowsJS()[0]![0]));

test('200 random region queries answered from the table sorted by region: the events table\'s totals and pages', async () => {
  const store = await DuckDbStore.open({ path: fixture.dbPath });
  const versions = await readOnly(fixture.dbPath, readRegionVersions);
  assert.equal(versions.size, store.versions().length, 'the loader writes every version\'s rows');
  const r = new Random(41);
  const ctx = { catalog: store, access: { canRead: () => true } };
  let answeredByTable = 0;
  let pagedByTable = 0;
  let nonEmpty = 0;
  let pagesBegunByTable = 0;
  try {
    await readOnly(fixture.dbPath, async (c) => {
      for (let i = 0; i < 200; i++) {
        const { filters, paging } = randomRegionQuery(r);
        const query = await normalizeListQuery(filters, paging, ctx);
        const where = `region query ${i}: ${JSON.stringify({ filters, paging })}`;
        const plan = regionPlan(query, versions);
        const layer = REGION_MEMBERS.find((m) => m.dataset === filters.regions![0]!.dataset)!.member;
        if (plan) {
          answeredByTable++;
          if (query.datasets.length === 1 && query.sort.endsWith('start')) pagedByTable++;
        } else {
          assert.ok(filters.encounterTypes || filters.regions!.length > 1 || !REGION_TABLE_MEMBERS.includes(layer), `${where}: only an encounter type, a union or an RFMO sends it to events`);
        }
        const expected = await eventsAnswer(c, query);
        // As the route asks (an ascending page found while it is counted) and counted first.
        assert.deepEqual(await storeAnswer(store, query), expected, where);
        assert.deepEqual(await countedThenSearched(store, query), expected, `${where}, counted first`);
        if (expected.total > 0) nonEmpty++;
        // And a page that begins inside the list, where the rows before it are counted, not read;
        // one that ends with the list; and one past it.
        if (plan && query.datasets.length === 1 && query.sort.endsWith('start') && expected.total > 1) {
          const inside = { ...query, offset: r.int(1, expected.total - 1) };
          assert.deepEqual(await storeAnswer(store, inside), await eventsAnswer(c, inside), `${where}, offset ${inside.offset}`);
          assert.deepEqual(await countedThenSearched(store, inside), await eventsAnswer(c, inside), `${where}, offset ${inside.offset}, counted first`);
          const last = { ...query, offset: Math.max(0, expected.total - query.limit) };
          assert.deepEqual(await storeAnswer(store, last), await eventsAnswer(c, last), `${where}, the last page`);
          const past = { ...query, offset: expected.total + (i % 3) };
          assert.deepEqual(await storeAnswer(store, past), { total: expected.total, ids: [] }, `${where}, past the end`);
          pagesBegunByTable++;
        }
        // Every page found while counting gave its connection back, read or not.
        assert.equal(store.engineLoad().inUse, 0, `${where}: a connection is still held`);
      }
    });
  } finally {
    await store.close();
  }
  assert.ok(answeredByTable > 120, `only ${answeredByTable} of 200 queries were answered from the table`);
  assert.ok(pagedByTable > 60, `only ${pagedByTable} of 200 pages began where the table said`);
  assert.ok(nonEmpty > 70, `only ${nonEmpty} of 200 queries found anything: the generator is too narrow`);
  assert.ok(pagesBegunByTable > 20, `only ${pagesBegunByTable} of 200 pages past the first row, within the list, began where the table said`);
});

test('a region an event lists twice is one event in the region\'s total and page', async () => {
  const rows = SMALL_EVENTS.map((row) => ({ ...row, regions_mean_position: { ...(row['regions_mean_position'] as object) } }));
  const twice = rows.filter((row) => (row['regions_mean_position'] as { eez: string[] }).eez.includes('8371'));
  assert.ok(twice.length > 2);
  for (const row of twice.slice(0, 2)) (row['regions_mean_position'] as { eez: string[] }).eez = ['8371', '8371'];
  const small = await fixtureFromRows(rows);
  try {
    const store = await DuckDbStore.open({ path: small.dbPath });
    try {
      const ctx = { catalog: store, access: { canRead: () => true } };
      const versions = await readOnly(small.dbPath, readRegionVersions);
      const kinds = ['fishing', 'encounter', 'loitering', 'port_visit', 'gap'];
      // Each dataset alone (the page begins where the table says), and all of them (events sort the page).
      for (const datasets of [...ALL_DATASETS.map((d) => [d]), ALL_DATASETS]) {
        const query = await normalizeListQuery({ datasets, regions: [{ dataset: 'public-eez-areas', id: '8371' }] }, { limit: 100, offset: 0, sort: '-start' }, ctx);
        assert.ok(regionPlan(query, versions), 'the table answers it');
        const expected = small.records.filter((rec) => datasets.some((d) => d === ALL_DATASETS[kinds.indexOf(rec.kind)]) && rec.regions.eez.includes('8371'));
        const got = await storeAnswer(store, query);
        assert.equal(got.total, expected.length, datasets.join());
        assert.deepEqual([...got.ids].sort(), expected.map((rec) => rec.id).sort(), datasets.join());
      }
    } finally {
      await store.close();
    }
  } finally {
    await small.cleanup();
  }
});

test('a database without the table\'s rows answers from events, and migrate writes them', async () => {
  const dir = mkdtempSync(join(scratch, 'older-'));
  const path = join(dir, 'events.duckdb');
  copyDuckDbFiles(fixture.dbPath, path);
  // A file of this layout from before the table: it has neither table.
  await writing(path, async (c) => {
    for (const statement of ['DROP TABLE region_events', 'DROP TABLE region_versions', 'CHECKPOINT']) await c.run(statement);
  });
  const r = new Random(6);
  const requests = Array.from({ length: 25 }, () => randomRegionQuery(r));
  const before = await answersOf(path, requests);
  assert.equal((await readOnly(path, readRegionVersions)).size, 0);
  const { from, to, pointFiles, spatialVersions, regionVersions } = await migrateDatabase(path);
  assert.deepEqual([from, to, pointFiles, spatialVersions], [3, 3, 0, 0]);
  assert.equal(regionVersions, await count(path, 'SELECT count(*) FROM dataset_versions'));
  const listed = REGION_MEMBERS.filter((m) => REGION_TABLE_MEMBERS.includes(m.member)).map((m) => `len(list_distinct(${m.column}))`).join(' + ');
  assert.equal(await count(path, 'SELECT count(*) FROM region_events'), await count(path, `SELECT sum(${listed}) FROM events`));
  assert.deepEqual(await answersOf(path, requests), before);
  await assert.rejects(migrateDatabase(path), /its spatial, region, vessel identity and monthly statistics tables; nothing to migrate/);
});

test('dropping a version drops its rows of the table', async () => {
  const dir = mkdtempSync(join(scratch, 'drop-'));
  const path = join(dir, 'events.duckdb');
  copyDuckDbFiles(fixture.dbPath, path);
  const [fishing] = await readOnly(path, async (c) => (await c.runAndReadAll(`SELECT version_id::INTEGER, version FROM dataset_versions WHERE kind = 'fishing'`)).getRowsJS()) as [number, string][];
  assert.ok(await count(path, `SELECT count(*) FROM region_events WHERE version_id = ${fishing![0]}`) > 0);
  await editDatabase({ engine: 'duckdb', path }, (w) => w.dropVersion('public-global-fishing-events', 'fishing', fishing![1]));
  assert.equal(await count(path, `SELECT count(*) FROM region_events WHERE version_id = ${fishing![0]}`), 0);
  assert.equal(await count(path, `SELECT count(*) FROM region_versions WHERE version_id = ${fishing![0]}`), 0);
  assert.ok(await count(path, 'SELECT count(*) FROM region_events') > 0, 'the other versions keep theirs');
});
