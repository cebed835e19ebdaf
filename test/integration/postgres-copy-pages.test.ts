// Large pages on PostgreSQL are read by COPY (src/store/postgres/copy-page.ts): the entries' bytes
// as PostgreSQL sends them, the page's parameters written into the statement as literals. A store
// that reads every page so gives the same entries, texts and joined bytes, as one that reads every
// page by cursor, on random lists and on names holding quotes, backslashes, control characters and
// text beyond ASCII; a literal selects what its bound parameter does; a page left unread or read in
// part gives its connection back. Runs under test/run-postgres.ts (the DuckDB run reports it skipped).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import pg from 'pg';
import { Random } from '../../src/data/demo/random.ts';
import { normalizeListQuery } from '../../src/query/normalize.ts';
import type { EventFilters } from '../../src/query/schema.ts';
import type { SortValue } from '../../src/query/enumerations.ts';
import { PostgresStores } from '../../src/store/postgres/reloading-store.ts';
import { copyStatement } from '../../src/store/postgres/copy-page.ts';
import type { EventStore, PageStream, StoreProvider } from '../../src/store/store.ts';
import { SMALL_EVENTS } from '../fixtures/small-events.ts';
import { buildFixtureDb, fixtureFromRows, TEST_ENGINE, type Fixture } from '../helpers/fixture.ts';
import { FULL } from '../helpers/size.ts';

const DATASETS = [
  'public-global-fishing-events:latest', 'public-global-encounters-events:latest', 'public-global-loitering-events:latest',
  'public-global-port-visits-events:latest', 'public-global-gaps-events:latest',
];
/** A name with every character the COPY's format could trip on, and text beyond ASCII. */
const HOSTILE_NAME = 'MAR "AZUL"\n\t\u0001\u0002 \\x41 \\ , é 漁 🐟';

const texts = async (page: PageStream) => {
  const out: string[] = [];
  for await (const chunk of page) out.push(...chunk);
  return out;
};
const joined = async (page: PageStream, separator: ',' | '\n') => {
  const buffers: Buffer[] = [];
  for await (const buffer of page.joined(separator)) buffers.push(Buffer.from(buffer));
  // Each buffer holds whole entries (the spec rewrite works on whole entries): all but the last end with the separator.
  buffers.slice(0, -1).forEach((b) => assert.equal(b.at(-1), separator.charCodeAt(0)));
  return Buffer.concat(buffers).toString('utf8');
};

describe('large pages read by COPY on PostgreSQL', { skip: TEST_ENGINE !== 'postgres' && 'runs under test/run-postgres.ts (npm run test:full runs it)' }, () => {
  const fixtures: Fixture[] = [];
  const providers: StoreProvider[] = [];
  /** Per fixture: a store that reads every page by COPY, and one that reads every page by cursor. */
  const stores: { copy: EventStore; cursor: EventStore; url: string }[] = [];
  before(async () => {
    fixtures.push(await buildFixtureDb({ events: FULL ? 6000 : 3000, seed: 23 }));
    const hostile = SMALL_EVENTS.map((row) => JSON.parse(JSON.stringify(row).replaceAll('MAR AZUL', JSON.stringify(HOSTILE_NAME).slice(1, -1))) as (typeof SMALL_EVENTS)[number]);
    fixtures.push(await fixtureFromRows(hostile));
    for (const fixture of fixtures) {
      const url = (fixture.database as { url: string }).url;
      const copy = await PostgresStores.open({ url, copyPageRows: 1 }, undefined, false);
      const cursor = await PostgresStores.open({ url, copyPageRows: Number.POSITIVE_INFINITY, connections: 2 }, undefined, false);
      providers.push(copy, cursor);
      stores.push({ copy: copy.current(), cursor: cursor.current(), url });
    }
  });
  after(async () => {
    for (const provider of providers) await provider.close();
    await Promise.all(fixtures.map((f) => f.cleanup()));
  });
  const listOf = (store: EventStore, filters: EventFilters, paging: { limit: number; offset: number; sort: SortValue }) =>
    normalizeListQuery(filters, paging, { catalog: store, access: { canRead: () => true } });

  test('random lists: the same entries, as texts and joined by either separator, as by cursor', async () => {
    const r = new Random(777);
    const { copy, cursor } = stores[0]!;
    const vessels = fixtures[0]!.records.map((e) => e.vessel.id);
    for (let i = 0; i < (FULL ? 200 : 80); i++) {
      const filters: EventFilters = { datasets: DATASETS.filter(() => r.chance(0.4)) };
      if (filters.datasets!.length === 0) filters.datasets = [r.pick(DATASETS)];
      if (r.chance(0.3)) filters.startDate = `${2017 + r.int(0, 7)}-0${1 + r.int(0, 8)}-01`;
      if (r.chance(0.2)) filters.flags = [r.pick(['CHN', 'ESP', 'PAN'])];
      if (r.chance(0.2)) filters.vessels = [r.pick(vessels)];
      if (r.chance(0.15)) filters.regions = [{ dataset: 'public-eez-areas', id: r.pick(['8371', '5696', '8492']) }];
      const paging = { limit: r.pick([1, 7, 100, 2500]), offset: r.chance(0.7) ? 0 : r.int(0, 3000), sort: r.pick(['+start', '-start', '+end', '-end'] as const) };
      const where = JSON.stringify({ filters, paging });
      const expected = await texts(await cursor.search(await listOf(cursor, filters, paging)));
      assert.deepEqual(await texts(await copy.search(await listOf(copy, filters, paging))), expected, where);
      const separator = r.pick([',', '\n'] as const);
      assert.equal(await joined(await copy.search(await listOf(copy, filters, paging)), separator), expected.join(separator), where);
    }
  });

  test('entries whose names hold quotes, backslashes, tabs, newlines, control characters and text beyond ASCII', async () => {
    const { copy, cursor } = stores[1]!;
    const paging = { limit: 1000, offset: 0, sort: '+start' as const };
    const filters = { datasets: DATASETS };
    const expected = await texts(await cursor.search(await listOf(cursor, filters, paging)));
    assert.ok(expected.some((entry) => JSON.stringify(JSON.parse(entry)).includes(JSON.stringify(HOSTILE_NAME).slice(1, -1))), 'the hostile name is in the page');
    assert.deepEqual(await texts(await copy.search(await listOf(copy, filters, paging))), expected);
    assert.equal(await joined(await copy.search(await listOf(copy, filters, paging)), ','), expected.join(','));
  });

  test('a literal selects what its bound parameter does (texts, numbers, arrays, instants)', async () => {
    const c = new pg.Client({ connectionString: stores[0]!.url });
    await c.connect();
    try {
      const sql = `SELECT to_json(ARRAY[$1::text, array_to_string($2::text[], '|', '<null>'), ($3::float8 + 0)::text, ($4::timestamptz)::text, (length($1) = ANY($5))::text])::text`;
      // Any text but NUL (which PostgreSQL's text cannot hold), and text made of what literals and array literals quote and escape.
      const anyText = fc.string({ unit: 'binary' }).map((t) => t.replace(/\u0000/g, ''));
      const syntax = fc.string({ unit: fc.constantFrom('\\', '"', "'", ',', '{', '}', ' ', 'N', 'U', 'L', '\n', 'a') });
      const text = fc.oneof(anyText, syntax);
      await fc.assert(fc.asyncProperty(
        text,
        fc.array(fc.option(text, { nil: null }), { maxLength: 5 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 4 }),
        async (text, list, number, instant, lengths) => {
          const params = [text, list, number, instant.toISOString(), lengths];
          const bound = (await c.query({ text: sql, values: params, rowMode: 'array' })).rows[0]![0] as string;
          const statement = copyStatement({ sql, params });
          assert.ok(statement);
          const inlined = (await c.query({ text: statement.slice('COPY ('.length, statement.lastIndexOf(') TO STDOUT')), rowMode: 'array' })).rows[0]![0] as string;
          assert.equal(inlined, bound);
        },
      ), { numRuns: FULL ? 300 : 100 });
      assert.equal(copyStatement({ sql: 'SELECT $1', params: [{ an: 'object' }] }), undefined);
    } finally {
      await c.end();
    }
  });

  test('a page never read, or left after its first buffer, gives its connection back', async () => {
    const { copy, url } = stores[0]!;
    const paging = { limit: 3000, offset: 0, sort: '+start' as const };
    const filters = { datasets: DATASETS };
    // More pages than the pool has connections (8): each must have given its connection back.
    for (let i = 0; i < 12; i++) {
      const page = await copy.search(await listOf(copy, filters, paging));
      if (i % 2 === 0) await page.discard();
      else for await (const buffer of page.joined(',')) { assert.ok(buffer.length > 0); break; }
    }
    const all = await texts(await copy.search(await listOf(copy, filters, paging)));
    assert.equal(all.length, Math.min(3000, await copy.count(await listOf(copy, filters, paging))));
    // No COPY is left running on the server.
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      for (let i = 0; i < 50; i++) {
        const running = Number((await c.query(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY (%' AND state = 'active' AND pid <> pg_backend_pid()`)).rows[0].count);
        if (running === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.fail('a COPY is still running');
    } finally {
      await c.end();
    }
  });
});
