// Pages read in storage order (src/store/duckdb/stored-order.ts) that begin from a start found
// near the list's end (-start pages, startFromEnd) are the events table's pages, however the
// list's events are spread over the version's range of starts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Random } from '../../src/data/demo/random.ts';
import { normalizeListQuery } from '../../src/query/normalize.ts';
import type { EventFilters } from '../../src/query/schema.ts';
import { TIME_FILTER_MODES } from '../../src/query/enumerations.ts';
import { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import { readStartRange, startFromEnd } from '../../src/store/duckdb/stored-order.ts';
import { readOnly } from '../../src/store/duckdb/inspect.ts';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';
import { eventsAnswer, storeAnswer } from '../helpers/store-answers.ts';

let fixture: Fixture;
before(async () => {
  fixture = await buildFixtureDb({ events: 3000, seed: 11 });
});
after(() => fixture.cleanup());

const DATASETS = ['public-global-fishing-events:latest', 'public-global-port-visits-events:latest', 'public-global-gaps-events:latest'];

function randomQuery(r: Random): EventFilters {
  const filters: EventFilters = { datasets: [r.pick(DATASETS)] };
  // Windows of any length and place, so the list's events crowd anywhere in the version's range.
  if (r.chance(0.6)) {
    const start = Date.UTC(2017, 0, 1) + Math.floor(r.next() * 7 * 365) * 86_400_000;
    filters.startDate = new Date(start).toISOString().slice(0, 10);
    filters.endDate = new Date(start + r.int(1, 1500) * 86_400_000).toISOString().slice(0, 10);
    if (r.chance(0.5)) filters.timeFilterMode = r.pick(TIME_FILTER_MODES);
  } else if (r.chance(0.3)) {
    filters.endDate = `${r.int(2017, 2019)}-0${r.int(1, 9)}-01`;
  }
  if (r.chance(0.3)) filters.flags = [r.pick(['CHN', 'ESP', 'TWN', 'KOR', 'USA'])];
  return filters;
}

test('200 random -start pages found from the list\'s end: the events table\'s pages', async () => {
  const store = await DuckDbStore.open({ path: fixture.dbPath });
  const ctx = { catalog: store, access: { canRead: () => true } };
  const r = new Random(77);
  let fromEnd = 0;
  // One read-only connection for the expected answers: opening the file costs about 0.1 s.
  try {
    await readOnly(fixture.dbPath, async (c) => { for (let i = 0; i < 200; i++) {
      const filters = randomQuery(r);
      const probe = await normalizeListQuery(filters, { limit: 1, offset: 0, sort: '-start' }, ctx);
      const total = await store.count(probe);
      if (total === 0) continue;
      const limit = r.pick([1, 5, 20, 100]);
      const query = await normalizeListQuery(filters, { limit, offset: r.int(0, Math.max(0, Math.floor(total / 2) - limit)), sort: '-start' }, ctx);
      const expected = await eventsAnswer(c, query);
      const from = await startFromEnd(c, query, total, () => readStartRange(c, query.datasets[0]!.resolved.versionId));
      if (from) fromEnd++;
      assert.deepEqual(await storeAnswer(store, query), expected, `query ${i}: ${JSON.stringify({ filters, offset: query.offset, limit })} (from ${JSON.stringify(from)})`);
    } });
  } finally {
    await store.close();
  }
  assert.ok(fromEnd > 100, `only ${fromEnd} of 200 pages began from the list's end`);
});

test('200 random +start pages, found while they are counted (listPage): the events table\'s pages, none past the end, no connection kept', async () => {
  const store = await DuckDbStore.open({ path: fixture.dbPath });
  const ctx = { catalog: store, access: { canRead: () => true } };
  const r = new Random(78);
  let inside = 0;
  try {
    await readOnly(fixture.dbPath, async (c) => { for (let i = 0; i < 200; i++) {
      const filters = randomQuery(r);
      const probe = await normalizeListQuery(filters, { limit: 1, offset: 0, sort: '+start' }, ctx);
      const total = await store.count(probe);
      const limit = r.pick([1, 5, 20, 100, 3000]);
      // From the first row to a little past the end.
      const offset = r.chance(0.2) ? total + r.int(0, 3) : r.int(0, Math.max(0, total - 1));
      const query = await normalizeListQuery(filters, { limit, offset, sort: '+start' }, ctx);
      const expected = await eventsAnswer(c, query);
      const where = `query ${i}: ${JSON.stringify({ filters, offset, limit })}`;
      const { total: listed, page } = await store.listPage(query);
      assert.equal(listed, expected.total, where);
      assert.equal(page === undefined, offset >= expected.total, `${where}: a page exactly when it is not past the end`);
      const ids: string[] = [];
      if (page) for await (const chunk of page) ids.push(...chunk.map((t) => (JSON.parse(t) as { id: string }).id));
      assert.deepEqual(ids, expected.ids, where);
      assert.equal(store.engineLoad().inUse, 0, `${where}: a connection is still held`);
      if (ids.length > 0 && offset > 0) inside++;
    } });
  } finally {
    await store.close();
  }
  assert.ok(inside > 80, `only ${inside} of 200 pages began inside their list`);
});

test('a list whose events all lie early in the version\'s range is not found from its end', async () => {
  const store = await DuckDbStore.open({ path: fixture.dbPath });
  try {
    const ctx = { catalog: store, access: { canRead: () => true } };
    const query = await normalizeListQuery({ datasets: [DATASETS[0]!], endDate: '2017-03-01' }, { limit: 10, offset: 0, sort: '-start' }, ctx);
    const total = await store.count(query);
    assert.ok(total > 20);
    const range = await readOnly(fixture.dbPath, (c) => readStartRange(c, query.datasets[0]!.resolved.versionId));
    assert.ok(range.lastUs > Date.UTC(2024, 0, 1) * 1000, 'the version reaches years past the window');
    // Each guess reaches four times further back than the last; none reaches back to early 2017.
    assert.equal(await readOnly(fixture.dbPath, (c) => startFromEnd(c, query, total, async () => range)), undefined);
    assert.deepEqual(await storeAnswer(store, query), await readOnly(fixture.dbPath, (c) => eventsAnswer(c, query)));
  } finally {
    await store.close();
  }
});
