// The versions updates leave behind, on the engine under test: each answers with its own rows
// (the version an update came from as well as the update, asked for alone or together), and
// dropping a dataset's latest update serves the version before it again, which the next update
// then applies to. On PostgreSQL, where an update's version shares its base's partition
// (src/store/postgres/lineage.ts), the base can be dropped first and the update is served as it was,
// and an update writes its rows to the lineage's partition of changes, whatever its name.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { demoRows, DemoWorld, type PublishedRow } from '../../src/data/demo/generate.ts';
import { loadRows } from '../../src/data/load-events.ts';
import { dropVersion, type Database } from '../../src/store/engines.ts';
import { newPostgresDatabase, startTestApp, TEST_ENGINE, type Fixture } from '../helpers/fixture.ts';

const FISHING = 'public-global-fishing-events';
const dir = mkdtempSync(join(tmpdir(), 'vessel-events-update-versions-'));
const isFishing = (row: PublishedRow) => row['event_type'] === 'fishing';
const idOf = (row: PublishedRow) => String(row['event_id']);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '.000Z');

/** An update of `rows`: a third of them ended later, `n` new ones made from others a day later, a few removed. */
function nextRows(rows: PublishedRow[], step: number, n: number): { given: PublishedRow[]; removed: string[] } {
  const given: PublishedRow[] = [];
  for (const [i, row] of rows.entries()) {
    if (i % 3 !== step % 3) continue;
    const start = Date.parse(String(row['event_start']));
    given.push({ ...row, event_end: iso(start + (step + 2) * 3_600_000) });
  }
  for (let i = 0; i < n; i++) {
    const model = rows[(i * 7 + step) % rows.length]!;
    const later = (t: unknown) => (t == null ? null : iso(Date.parse(String(t)) + 86_400_000));
    given.push({ ...model, event_id: `step${step}-${i}`, event_start: later(model['event_start']), event_end: later(model['event_end']) });
  }
  const removed = rows.filter((_, i) => i % 11 === step).map(idOf).filter((id) => !given.some((g) => idOf(g) === id));
  return { given, removed };
}

/** The fishing rows after an update: replaced by id, added, removed. */
function applied(rows: PublishedRow[], update: { given: PublishedRow[]; removed: string[] }): PublishedRow[] {
  const byId = new Map(rows.map((r) => [idOf(r), r]));
  for (const g of update.given) byId.set(idOf(g), g);
  for (const id of update.removed) byId.delete(id);
  return [...byId.values()];
}

/** The EEZs of a row's mean position. */
const regionIds = (row: PublishedRow) => (row['regions_mean_position'] as { eez: string[] }).eez;
/** A box off West Africa, where the demo's fishing is dense, and whether a row's mean position is in it. */
const BOX = { type: 'Polygon', coordinates: [[[-30.5, 0.5], [0.5, 0.5], [0.5, 30.5], [-30.5, 30.5], [-30.5, 0.5]]] };
const inside = (row: PublishedRow) => Number(row['lon_mean']) > -30.5 && Number(row['lon_mean']) < 0.5 && Number(row['lat_mean']) > 0.5 && Number(row['lat_mean']) < 30.5;
let COMMON_EEZ = '';

describe(`versions left by updates on ${TEST_ENGINE}`, () => {
  let database: Database;
  let fixture: Fixture;
  /** The fishing rows of each version, by tag. */
  const rowsOf = new Map<string, PublishedRow[]>();

  async function update(tag: string, base: string, step: number): Promise<void> {
    const change = nextRows(rowsOf.get(base)!, step, 25);
    await loadRows(change.given, `${tag}.ndjson`, { database, version: tag, source: tag, update: { removals: [{ kind: 'fishing', file: `${tag}.txt`, ids: change.removed.map((id, i) => ({ line: i + 1, id })) }] } });
    rowsOf.set(tag, applied(rowsOf.get(base)!, change));
  }

  /** Each tag's fishing events as the API lists them, and its statistics, are its own rows'. */
  async function answersAsItsRows(tags: string[]): Promise<void> {
    const app = await startTestApp({ fixture });
    try {
      const get = (url: string) => app.app.inject({ method: 'GET', url, headers: app.auth });
      for (const tag of tags) {
        const rows = rowsOf.get(tag)!;
        const res = await get(`/v3/events?datasets[0]=${FISHING}:${tag}&limit=5000&offset=0`);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(Number(res.headers['x-total-count']), rows.length, tag);
        const ids = (JSON.parse(res.body) as { entries: { id: string }[] }).entries.map((e) => e.id).sort();
        assert.deepEqual(ids, rows.map(idOf).sort(), tag);
        // Over whole months, from the statistics rollups.
        const stats = await app.app.inject({ method: 'POST', url: '/v3/events/stats', headers: app.auth, payload: { datasets: [`${FISHING}:${tag}`], startDate: '2000-01-01', endDate: '2040-01-01', timeseriesInterval: 'MONTH', includes: ['TOTAL_COUNT'] } });
        assert.equal(stats.statusCode, 200, stats.body);
        const counted = JSON.parse(stats.body) as { numEvents: number; numVessels: number };
        assert.equal(counted.numEvents, rows.length, `${tag}: events`);
        assert.equal(counted.numVessels, new Set(rows.map((r) => String(r['entity_id']))).size, `${tag}: vessels`);
        // A region's page and a polygon's are found on region_events and spatial_events, then
        // joined to the events: an earlier version's rows include rows hidden from the latest.
        const inRegion = rows.filter((r) => regionIds(r).includes(COMMON_EEZ)).map(idOf).sort();
        const inBox = rows.filter((r) => inside(r)).map(idOf).sort();
        assert.ok(inRegion.length > 0 && inBox.length > 0, 'the region and the box hold rows');
        for (const [what, body, expected] of [['region', { region: { dataset: 'public-eez-areas', id: COMMON_EEZ } }, inRegion], ['polygon', { geometry: BOX }, inBox]] as const) {
          const listed = await app.app.inject({ method: 'POST', url: '/v3/events?limit=5000&offset=0', headers: app.auth, payload: { datasets: [`${FISHING}:${tag}`], ...body } });
          assert.equal(listed.statusCode, 200, listed.body);
          assert.deepEqual((JSON.parse(listed.body) as { entries: { id: string }[] }).entries.map((e) => e.id).sort(), expected, `${tag}: ${what}`);
        }
        const one = rows[rows.length >> 1]!;
        const byId = await get(`/v3/events/${encodeURIComponent(idOf(one))}?dataset=${FISHING}:${tag}`);
        assert.equal(byId.statusCode, 200, byId.body);
        assert.equal((JSON.parse(byId.body) as { end: string | null }).end, one['event_end'] === null ? null : new Date(String(one['event_end'])).toISOString(), `${tag}: ${idOf(one)}`);
      }
      // Two versions of the dataset together: each version's entries.
      const [first, last] = [tags[0]!, tags[tags.length - 1]!];
      if (first !== last) {
        const expected = rowsOf.get(first)!.length + rowsOf.get(last)!.length;
        // A time window too, so that the total is counted rather than read from the catalog.
        const both = await get(`/v3/events?datasets[0]=${FISHING}:${first}&datasets[1]=${FISHING}:${last}&start-date=2000-01-01&end-date=2040-01-01&limit=10000&offset=0`);
        assert.equal(both.statusCode, 200, both.body);
        assert.equal(Number(both.headers['x-total-count']), expected, `${first} and ${last}`);
        assert.equal((JSON.parse(both.body) as { entries: unknown[] }).entries.length, expected, `${first} and ${last}: entries`);
        const stats = await app.app.inject({ method: 'POST', url: '/v3/events/stats', headers: app.auth, payload: { datasets: [`${FISHING}:${first}`, `${FISHING}:${last}`], startDate: '2000-01-15', endDate: '2040-01-01', timeseriesInterval: 'MONTH', includes: ['TOTAL_COUNT'] } });
        assert.equal((JSON.parse(stats.body) as { numEvents: number }).numEvents, expected, `${first} and ${last}: statistics ${stats.body}`);
      }
    } finally {
      await app.close();
    }
  }

  before(async () => {
    const demo = { events: 900, seed: 7 };
    const initial = [...demoRows(new DemoWorld(demo), demo)];
    database = TEST_ENGINE === 'postgres' ? await newPostgresDatabase() : { engine: 'duckdb', path: join(dir, 'versions.duckdb') };
    await loadRows(initial, 'initial.ndjson', { database, version: 'v1', source: 'initial' });
    rowsOf.set('v1', initial.filter(isFishing));
    const counts = new Map<string, number>();
    for (const row of rowsOf.get('v1')!) for (const eez of regionIds(row)) counts.set(eez, (counts.get(eez) ?? 0) + 1);
    COMMON_EEZ = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    await update('u1', 'v1', 1);
    await update('u2', 'u1', 2);
    fixture = { dir, dbPath: database.engine === 'duckdb' ? database.path : join(dir, 'none.duckdb'), database, rows: initial, records: [], groups: new Map(), cleanup: async () => {} };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('every version answers with its own rows, alone or with another version of the dataset', () => answersAsItsRows(['v1', 'u1', 'u2']));

  test('dropping the latest update serves the version before it, and the next update applies to that', async () => {
    await dropVersion(database, FISHING, 'fishing', 'u2');
    rowsOf.delete('u2');
    await answersAsItsRows(['v1', 'u1']);
    await update('u3', 'u1', 3);
    await answersAsItsRows(['v1', 'u1', 'u3']);
  });

  test('on PostgreSQL, the version an update applies to can be dropped first', { skip: TEST_ENGINE !== 'postgres' }, async () => {
    await dropVersion(database, FISHING, 'fishing', 'v1');
    await answersAsItsRows(['u1', 'u3']);
    await dropVersion(database, FISHING, 'fishing', 'u3');
    await answersAsItsRows(['u1']);
    await update('u4', 'u1', 4);
    await answersAsItsRows(['u1', 'u4']);
  });

  test('on PostgreSQL, an update adds its rows to the partition of changes alone, under the name a database updated before 2026-12-04 gave it too', { skip: TEST_ENGINE !== 'postgres' }, async () => {
    assert.equal(database.engine, 'postgres');
    const client = new pg.Client({ connectionString: database.engine === 'postgres' ? database.url : '' });
    await client.connect();
    try {
      const rowsIn = async (table: string) => Number((await client.query(`SELECT count(*) AS n FROM ${table} WHERE from_version IS NOT NULL`)).rows[0].n);
      const [lineage] = (await client.query<{ lineage_id: number }>("SELECT lineage_id FROM dataset_versions WHERE version = 'u4'")).rows.map((r) => r.lineage_id);
      const added = await rowsIn(`events_changes_v${lineage}`);
      assert.ok(added > 0, 'the updates added rows to the partition of changes');
      assert.equal(await rowsIn(`events_v${lineage}`), 0, 'and none to the lineage\'s partition');
      // Analyzed by the update itself, not left to autovacuum: the latest version's pages plan on it.
      const analyzed = async (table: string) => (await client.query(
        `SELECT t.last_analyze::text AS at FROM pg_stat_user_tables t WHERE t.relname = $1 AND EXISTS (SELECT 1 FROM pg_stats s WHERE s.tablename = t.relname AND s.attname = 'to_version')`,
        [table],
      )).rows[0]?.at as string | null | undefined;
      const analyzedAt = await analyzed(`events_changes_v${lineage}`);
      assert.ok(analyzedAt, 'the update analyzed the partition of changes');
      await client.query(`ALTER TABLE events_changes_v${lineage} RENAME TO events_hidden_v${lineage}`);
      await update('u5', 'u4', 5);
      assert.ok(await rowsIn(`events_hidden_v${lineage}`) > added, 'the next update wrote to the partition under its earlier name');
      const reanalyzedAt = await analyzed(`events_hidden_v${lineage}`) ?? '';
      assert.ok(reanalyzedAt > analyzedAt, 'and analyzed it again under that name');
      assert.equal((await client.query(`SELECT to_regclass('events_changes_v${lineage}') AS t`)).rows[0].t, null);
      await answersAsItsRows(['u1', 'u4', 'u5']);
      await dropVersion(database, FISHING, 'fishing', 'u5');
      rowsOf.delete('u5');
      assert.ok((await analyzed(`events_hidden_v${lineage}`) ?? '') > reanalyzedAt, 'the drop analyzed the partition whose rows it changed');
      await answersAsItsRows(['u1', 'u4']);
    } finally {
      await client.end();
    }
  });
});
