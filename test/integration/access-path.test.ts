// The DuckDB store's access paths (src/store/duckdb/access-path.ts): each query is answered by the
// path its plan calls for, chosen once for the query object, and every path's total and page are
// those of the events table in plain SQL, whether the route asks for the list page or for the
// count and then the page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { normalizeEventQuery, normalizeListQuery } from '../../src/query/normalize.ts';
import type { EventFilters, Paging } from '../../src/query/schema.ts';
import { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import type { PathName } from '../../src/store/duckdb/access-path.ts';
import { readOnly } from '../../src/store/duckdb/inspect.ts';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';
import { countedThenSearched, eventsAnswer, storeAnswer } from '../helpers/store-answers.ts';

const FISHING = 'public-global-fishing-events:latest';
const GAPS = 'public-global-gaps-events:latest';

let fixture: Fixture;
let store: DuckDbStore;
/** An event of the fixture with an EEZ, and vessels enough to pass the point files' limit. */
let sample: { vessel: string; lat: number; lon: number; eez: string };
let manyVessels: string[];

before(async () => {
  fixture = await buildFixtureDb();
  store = await DuckDbStore.open({ path: fixture.dbPath });
  await readOnly(fixture.dbPath, async (c) => {
    const [row] = (await c.runAndReadAll(`SELECT vessel_id, lat, lon, eez[1] FROM events WHERE kind = 'fishing' AND len(eez) > 0 ORDER BY id LIMIT 1`)).getRowsJS();
    sample = { vessel: row![0] as string, lat: row![1] as number, lon: row![2] as number, eez: row![3] as string };
    // Every vessel of the fixture (64), and names no event carries, which count towards the limit too.
    const vessels = (await c.runAndReadAll(`SELECT DISTINCT vessel_id FROM events ORDER BY 1`)).getRowsJS().map((r) => r[0] as string);
    manyVessels = [...vessels, ...Array.from({ length: 70 - vessels.length }, (_, i) => `no-such-vessel-${i}`)];
  });
});
after(async () => {
  await store.close();
  await fixture.cleanup();
});

const ctx = () => ({ catalog: store, access: { canRead: () => true } });
const box = (lon: number, lat: number, half: number) => ({
  type: 'Polygon' as const,
  coordinates: [[[lon - half, lat - half], [lon + half, lat - half], [lon + half, lat + half], [lon - half, lat + half], [lon - half, lat - half]]],
});

const CASES: [name: string, path: PathName, filters: () => EventFilters, paging?: Partial<Paging>][] = [
  ['a buffered shape where no event lies', 'nothing', () => ({ datasets: [FISHING], geometry: box(15, 22, 0.5), bufferValue: 1, bufferUnit: 'NAUTICALMILES' })],
  ['one vessel\'s history', 'point files', () => ({ datasets: [FISHING, GAPS], vessels: [sample.vessel] })],
  ['a polygon around a fishing position', 'places', () => ({ datasets: [FISHING], geometry: box(sample.lon, sample.lat, 3), startDate: '2017-01-01', endDate: '2025-01-01' })],
  ['a polygon, a page longer than the table\'s page limit', 'places', () => ({ datasets: [FISHING], geometry: box(sample.lon, sample.lat, 3) }), { limit: 2000 }],
  ['one EEZ, by start', 'regions', () => ({ datasets: [FISHING], region: { dataset: 'public-eez-areas', id: sample.eez } })],
  ['one EEZ, deep and descending', 'regions', () => ({ datasets: [FISHING], region: { dataset: 'public-eez-areas', id: sample.eez } }), { sort: '-start', offset: 2, limit: 3 }],
  ['one EEZ, by end', 'regions', () => ({ datasets: [FISHING], region: { dataset: 'public-eez-areas', id: sample.eez } }), { sort: '+end' }],
  ['70 vessels, past the point files\' limit', 'vessels', () => ({ datasets: [FISHING], vessels: manyVessels })],
  ['70 vessels in two datasets, by end', 'vessels', () => ({ datasets: [FISHING, GAPS], vessels: manyVessels }), { sort: '-end' }],
  ['a flag, one dataset by start', 'stored order', () => ({ datasets: [FISHING], flags: ['CHN', 'ESP', 'TWN'], startDate: '2018-01-01', endDate: '2021-01-01' }), { offset: 7 }],
  ['a flag, one dataset by descending start', 'stored order', () => ({ datasets: [FISHING], flags: ['CHN', 'ESP', 'TWN'] }), { sort: '-start', offset: 40 }],
  ['a flag, by end', 'events', () => ({ datasets: [FISHING], flags: ['CHN', 'ESP', 'TWN'] }), { sort: '-end' }],
  ['two datasets by start', 'events', () => ({ datasets: [FISHING, GAPS], startDate: '2019-01-01', endDate: '2020-01-01' })],
];

for (const [name, path, filters, paging] of CASES) {
  test(`${name}: the ${path} path, with the events table's total and page`, async () => {
    const page: Paging = { limit: 25, offset: 0, sort: '+start', ...paging };
    const asList = await normalizeListQuery(filters(), page, ctx());
    assert.equal(store.accessPath(asList).name, path);
    const expected = await readOnly(fixture.dbPath, (c) => eventsAnswer(c, asList));
    if (path !== 'nothing') assert.ok(expected.total > page.offset, `the case reaches no page: ${expected.total} events`);
    assert.deepEqual(await storeAnswer(store, asList), expected, 'listPage');
    const counted = await normalizeListQuery(filters(), page, ctx());
    assert.deepEqual(await countedThenSearched(store, counted), expected, 'count, then search');
    // The path is chosen once per query object: the count and the page above used this one.
    assert.equal(store.accessPath(counted), store.accessPath(counted));
  });
}

test('a count without a list: no page order, so storage order plays no part', async () => {
  const query = await normalizeEventQuery({ datasets: [FISHING], flags: ['CHN'] }, ctx());
  assert.equal(store.accessPath(query).name, 'events');
  const list = await normalizeListQuery({ datasets: [FISHING], flags: ['CHN'] }, { limit: 1, offset: 0, sort: '+start' }, ctx());
  assert.equal(await store.count(query), (await readOnly(fixture.dbPath, (c) => eventsAnswer(c, list))).total);
});
