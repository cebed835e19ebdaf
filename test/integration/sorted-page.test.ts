// Pages sorted by the engine and found on their sort columns alone (src/store/duckdb/sorted-page.ts):
// lists of several dataset versions, or sorted by end, at any offset, are the events table's pages,
// each found within a window of starts or ends (open events first by -end, last by +end).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Random } from '../../src/data/demo/random.ts';
import { SORT_VALUES } from '../../src/query/enumerations.ts';
import { normalizeListQuery } from '../../src/query/normalize.ts';
import type { EventFilters } from '../../src/query/schema.ts';
import { compileRows } from '../../src/store/duckdb/compile.ts';
import { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import { readOnly } from '../../src/store/duckdb/inspect.ts';
import { countWithin, sortWindow } from '../../src/store/duckdb/sorted-page.ts';
import { SORT_KEYS } from '../../src/store/sql.ts';
import { readStartRange } from '../../src/store/duckdb/stored-order.ts';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';
import { countedThenSearched, eventsAnswer, storeAnswer } from '../helpers/store-answers.ts';

const DATASETS = [
  'public-global-fishing-events:latest', 'public-global-encounters-events:latest', 'public-global-loitering-events:latest',
  'public-global-port-visits-events:latest', 'public-global-gaps-events:latest',
];

let fixture: Fixture;
let store: DuckDbStore;
before(async () => {
  fixture = await buildFixtureDb({ events: 3000, seed: 11 });
  // Every list of more than one row is found on its sort columns, however short.
  store = await DuckDbStore.open({ path: fixture.dbPath, sortedWithEntriesMax: 1 });
});
after(async () => {
  await store.close();
  await fixture.cleanup();
});

const ctx = () => ({ catalog: store, access: { canRead: () => true } });

function randomFilters(r: Random): EventFilters {
  const datasets = DATASETS.filter(() => r.chance(0.6));
  const filters: EventFilters = { datasets: datasets.length > 0 ? datasets : [r.pick(DATASETS)] };
  if (r.chance(0.5)) {
    const start = Date.UTC(2017, 0, 1) + Math.floor(r.next() * 7 * 365) * 86_400_000;
    filters.startDate = new Date(start).toISOString().slice(0, 10);
    filters.endDate = new Date(start + r.int(1, 1500) * 86_400_000).toISOString().slice(0, 10);
  }
  if (r.chance(0.3)) filters.flags = [r.pick(['CHN', 'ESP', 'TWN', 'KOR', 'USA'])];
  return filters;
}

test('300 random sorted pages at any offset: the events table\'s pages, by listPage and by a count then the page', async () => {
  const r = new Random(91);
  const windowed = { start: 0, end: 0 };
  let deep = 0;
  await readOnly(fixture.dbPath, async (c) => {
    for (let i = 0; i < 300; i++) {
      const filters = randomFilters(r);
      const sort = r.pick(SORT_VALUES);
      const probe = await normalizeListQuery(filters, { limit: 1, offset: 0, sort }, ctx());
      const total = await store.count(probe);
      const limit = r.pick([1, 7, 50, 400]);
      const offset = r.chance(0.1) ? total + r.int(0, 3) : r.int(0, Math.max(0, total - 1));
      const query = await normalizeListQuery(filters, { limit, offset, sort }, ctx());
      const where = `query ${i}: ${JSON.stringify({ filters, sort, offset, limit })}`;
      // Storage order answers one version sorted by start; every other list is sorted here.
      const sortedHere = query.datasets.length > 1 || sort === '+end' || sort === '-end';
      const expected = await eventsAnswer(c, query);
      assert.deepEqual(await storeAnswer(store, query), expected, where);
      assert.deepEqual(await countedThenSearched(store, await normalizeListQuery(filters, { limit, offset, sort }, ctx())), expected, where);
      if (sortedHere && offset > limit && offset < total) deep++;
      if (sortedHere && total > 0) {
        const ranges = await Promise.all(query.datasets.map((d) => readStartRange(c, d.resolved.versionId)));
        const range = { firstUs: Math.min(...ranges.map((x) => x.firstUs)), lastUs: Math.max(...ranges.map((x) => x.lastUs)) };
        const window = await sortWindow(query, countWithin(c, compileRows(query), SORT_KEYS[query.sort].column), total, range);
        if (window.bounds.length === 2) windowed[sort.slice(1) as 'start' | 'end']++;
      }
    }
  });
  assert.ok(deep > 80, `only ${deep} of 300 pages lay deep in a list sorted here`);
  assert.ok(windowed.start > 20 && windowed.end > 20, `only ${JSON.stringify(windowed)} of 300 pages were found within a window bounded at both ends`);
});

test('a list of the five datasets in each order, every page of it in turn: the whole list once, in order', async () => {
  const filters: EventFilters = { datasets: DATASETS, startDate: '2019-01-01', endDate: '2020-01-01' };
  for (const sort of SORT_VALUES) {
    const all = await readOnly(fixture.dbPath, async (c) => eventsAnswer(c, await normalizeListQuery(filters, { limit: 100_000, offset: 0, sort }, ctx())));
    assert.ok(all.total > 200, `the list holds ${all.total} events`);
    const paged: string[] = [];
    for (let offset = 0; offset < all.total; offset += 37) {
      paged.push(...(await storeAnswer(store, await normalizeListQuery(filters, { limit: 37, offset, sort }, ctx()))).ids);
    }
    assert.deepEqual(paged, all.ids, sort);
  }
});
