// What PostgreSQL serves from beside its events: statistics read from the rollups
// (src/store/postgres/stats-rollups.ts), their whole months from the rollups and the window's
// partial months from events, and regions' totals and pages read from region_events
// (src/store/postgres/region-table.ts), polygons' from spatial_events (spatial-table.ts) and vessel
// histories' from vessel_events (vessel-table.ts), equal those read from the events alone; both hold what the
// events do; a database written before them is read from the events until `migrate` writes them;
// a dropped version's rows go, an update's new version has its own. Runs under
// test/run-postgres.ts (the DuckDB run reports it skipped; DuckDB's own tables are tested in
// stats-months.test.ts and region-table.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Random } from '../../src/data/demo/random.ts';
import { REGION_MEMBERS } from '../../src/domain/regions.ts';
import { loadFiles, readRemovals } from '../../src/data/load-events.ts';
import { normalizeEventQuery, normalizeListQuery } from '../../src/query/normalize.ts';
import type { EventFilters } from '../../src/query/schema.ts';
import type { ListQuery } from '../../src/query/types.ts';
import type { SortValue } from '../../src/query/enumerations.ts';
import type { StatsInclude, StatsOptionsNormalized, TimeseriesInterval } from '../../src/query/stats.ts';
import { planMonthStats } from '../../src/store/month-stats-plan.ts';
import { REGION_TABLE_LAYERS, regionPlan } from '../../src/store/region-plan.ts';
import { compileSearch, compileWhere } from '../../src/store/postgres/compile.ts';
import { readRegionTableVersions } from '../../src/store/postgres/region-table.ts';
import { readRegionMonthVersions, wholeMonths } from '../../src/store/postgres/region-months.ts';
import { REGION_CHANGES, SPATIAL_CHANGES, VESSEL_CHANGES, type ChangeTables } from '../../src/store/postgres/change-tables.ts';
import { readVesselTableVersions } from '../../src/store/postgres/vessel-table.ts';
import { writeMissingServingTables } from '../../src/store/postgres/serving-tables.ts';
import { servedByVesselTable } from '../../src/store/vessel-plan.ts';
import { readSpatialTableVersions } from '../../src/store/postgres/spatial-table.ts';
import { groupedSql } from '../../src/store/postgres/identity-table.ts';
import { spatialConditions } from '../../src/store/spatial-plan.ts';
import { cellKey } from '../../src/geo/grid.ts';
import { compactPostgresDatabase, dropVersion, migratePostgresDatabase, openStores } from '../../src/store/engines.ts';
import { computeStats } from '../../src/store/postgres/stats.ts';
import { OWN_PARTITIONS, VersionScope } from '../../src/store/postgres/lineage.ts';
import { rowsApart, versionsApart } from '../../src/store/postgres/shared-versions.ts';
import { readPlacements } from '../../src/store/postgres/versions.ts';
import { readStatsRollupVersions } from '../../src/store/postgres/stats-rollups.ts';
import { SCHEMA_VERSION } from '../../src/store/postgres/schema.ts';
import type { EventStore } from '../../src/store/store.ts';
import { buildFixtureDb, TEST_ENGINE, type Fixture } from '../helpers/fixture.ts';


const DATASETS = [
  'public-global-fishing-events:latest', 'public-global-encounters-events:latest', 'public-global-loitering-events:latest',
  'public-global-port-visits-events:latest', 'public-global-gaps-events:latest',
];

const options = (interval: TimeseriesInterval, groupBy?: 'FLAG', includes: StatsInclude[] = ['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED']): StatsOptionsNormalized =>
  ({ interval, includes: new Set(groupBy ? includes : includes.filter((i) => i !== 'EVENTS_GROUPED')), ...(groupBy ? { groupBy } : {}) });

/** A time as the clients send it: a day, or an instant anywhere in a month. */
function randomTime(r: Random): string {
  const ms = Date.UTC(2017, 0, 1) + Math.floor(r.next() * 8 * 365 * 86_400_000);
  return r.chance(0.5) ? new Date(ms).toISOString().slice(0, 10) : new Date(ms).toISOString();
}

/** A time window, each end with the given chance, in order. */
function randomWindow(r: Random, filters: EventFilters, chance: number): void {
  if (r.chance(chance)) filters.startDate = randomTime(r);
  if (r.chance(chance)) filters.endDate = randomTime(r);
  if (filters.startDate && filters.endDate && filters.startDate > filters.endDate) [filters.startDate, filters.endDate] = [filters.endDate, filters.startDate];
}

async function onClient<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}
const rowsOf = (c: pg.Client) => async (sql: string, params: readonly unknown[]) => (await c.query({ text: sql, values: [...params], rowMode: 'array' })).rows as unknown[][];

/** Rows that differ between the rollups and the events they group: none when they agree. */
/**
 * Each version's rows of the events (the statements' `events`, as a WITH) and of a table beside them,
 * under the version's own id, however versions share partitions (src/store/postgres/lineage.ts).
 */
async function versionRows(c: pg.ClientBase): Promise<{ events: string; of(table: string, columns: string): string; regions(columns: string): string; places(columns: string): string; vessels(columns: string): string }> {
  const placements = await readPlacements(c);
  const scope = new VersionScope(placements);
  const ids = placements.map((p) => p.versionId);
  // A table kept per version and the rows updates added, less those they hid, as the store reads them.
  const heldRows = async (table: string, changes: ChangeTables) => {
    const updated = await changes.readUpdatedLineages(c);
    return (columns: string) => `(${ids.flatMap((v) => [table, changes.added].map((from) =>
      `SELECT ${v}::smallint AS version_id, ${columns} FROM ${from} WHERE ${changes.rowsHeld(literal, scope, updated, from, v)}`)).join(' UNION ALL ')})`;
  };
  return {
    events: versionsApart(scope, ids),
    of: (table, columns) => `(${rowsApart(scope, ids, table, columns)})`,
    regions: await heldRows('region_events', REGION_CHANGES),
    places: await heldRows('spatial_events', SPATIAL_CHANGES),
    vessels: await heldRows('vessel_events', VESSEL_CHANGES),
  };
}
const literal = { param: (value: unknown) => String(Number(value)) };

async function rollupDifferences(url: string): Promise<number> {
  return onClient(url, async (c) => {
    const apart = await versionRows(c);
    const flagMonths = `SELECT version_id, date_trunc('month', start_ts)::date, vessel_flag, count(*) FROM events GROUP BY 1, 2, 3`;
    // Each vessel's months, read back from its bits.
    const vesselMonths = `SELECT version_id, vessel_id, vessel_flag, first_month + i FROM stats_vessel_months, generate_series(0, length(months) - 1) i WHERE substring(months FROM i + 1 FOR 1) = B'1'`;
    const fromEvents = `SELECT DISTINCT version_id, vessel_id, vessel_flag, (extract(year FROM start_ts)::int - 1970) * 12 + extract(month FROM start_ts)::int - 1 FROM events`;
    const count = async (a: string, b: string) => Number((await c.query(`${apart.events} SELECT count(*) FROM ((${a} EXCEPT ALL ${b}) UNION ALL (${b} EXCEPT ALL ${a})) d`)).rows[0].count);
    const ends = Number((await c.query(`SELECT count(*) FROM stats_vessel_months WHERE substring(months FROM 1 FOR 1) <> B'1' OR substring(months FROM length(months) FOR 1) <> B'1' OR first_month + length(months) - 1 <> last_month`)).rows[0].count);
    return (await count('SELECT version_id, month, vessel_flag, n FROM stats_flag_months', flagMonths)) + (await count(vesselMonths, fromEvents)) + ends;
  });
}

/** Rows that differ between region_events and the events' regions of its layers: none when they agree. */
async function regionDifferences(url: string): Promise<number> {
  return onClient(url, async (c) => {
    const apart = await versionRows(c);
    const fromEvents = REGION_TABLE_LAYERS.map((m) =>
      `SELECT DISTINCT version_id, '${m.member}'::text, r, start_ts, id, end_ts, kind, vessel_flag, vessel_type FROM events, unnest(${m.column}) r`).join(' UNION ALL ');
    const table = `SELECT version_id, member::text, region, start_ts, id, end_ts, kind, vessel_flag, vessel_type FROM ${apart.regions('member, region, start_ts, id, end_ts, kind, vessel_flag, vessel_type')} r`;
    return Number((await c.query(`${apart.events} SELECT count(*) FROM ((${table} EXCEPT ALL (${fromEvents})) UNION ALL ((${fromEvents}) EXCEPT ALL ${table})) d`)).rows[0].count);
  });
}

/**
 * Rows of region_months (src/store/postgres/region-months.ts) that differ from region_events' own
 * rows counted by partition, layer, region, month, flag and marks, plus the versions listed by one
 * table and not the other: none when they agree.
 */
async function regionMonthDifferences(url: string): Promise<number> {
  return onClient(url, async (c) => {
    const key = 'version_id, member, region, month, vessel_flag, from_version, to_version';
    const table = `SELECT ${key}, sum(n) FROM region_months GROUP BY ${key}`;
    const rows = `SELECT ${key}, count(*) FROM (SELECT *, date_trunc('month', start_ts)::date AS month FROM region_events) r GROUP BY ${key}`;
    const differing = Number((await c.query(`SELECT count(*) FROM ((${table} EXCEPT ALL ${rows}) UNION ALL (${rows} EXCEPT ALL ${table})) d`)).rows[0].count);
    const lists = Number((await c.query(`SELECT count(*) FROM ((SELECT version_id FROM region_versions EXCEPT SELECT version_id FROM region_month_versions)
      UNION ALL (SELECT version_id FROM region_month_versions EXCEPT SELECT version_id FROM region_versions)) d`)).rows[0].count);
    return differing + lists;
  });
}

/**
 * Random region totals at every version of fishing over windows of whole months (and some not),
 * with flags or without, as a store reads them: the same as counted on each version's events.
 * Resolves to how many were summed by month (region-months.ts).
 */
async function regionTotalsAgree(url: string, r: Random, queries: number): Promise<number> {
  const stores = await openStores({ engine: 'postgres', url }, {}, undefined, false);
  try {
    const store = stores.current();
    const at = { catalog: store, access: { canRead: () => true } };
    return await onClient(url, async (c) => {
      const tags = (await c.query(`SELECT version FROM dataset_versions WHERE kind = 'fishing' ORDER BY version_id`)).rows.map((row) => row.version as string);
      const regions = (await c.query(`SELECT DISTINCT member, region FROM region_events`)).rows as { member: string; region: string }[];
      const datasetOf = Object.fromEntries(REGION_MEMBERS.map((m) => [m.member, m.dataset]));
      const monthVersions = await readRegionMonthVersions(c);
      const apart = await versionRows(c);
      let summed = 0;
      for (let i = 0; i < queries; i++) {
        const region = r.pick(regions);
        const filters: EventFilters = { datasets: [`public-global-fishing-events:${r.pick(tags)}`], regions: [{ dataset: datasetOf[region.member]!, id: region.region }] };
        if (r.chance(0.8)) wholeMonthWindow(r, filters);
        else randomWindow(r, filters, 0.7);
        if (r.chance(0.5)) filters.flags = Array.from({ length: r.int(1, 2) }, () => r.pick(['CHN', 'ESP', 'TWN', 'KOR', 'USA', 'ZZZ', 'YYY']));
        if (r.chance(0.1)) filters.timeFilterMode = 'START-DATE';
        const list = await normalizeListQuery(filters, { limit: 1, offset: 0, sort: '+start' }, at);
        const where = compileWhere(list, OWN_PARTITIONS);
        const expected = Number((await c.query({ text: `${apart.events} SELECT count(*) FROM events WHERE ${where.sql}`, values: where.params })).rows[0].count);
        assert.equal(await store.count(list), expected, JSON.stringify(filters));
        const plan = regionPlan(list, await readRegionTableVersions(c));
        if (plan && list.datasets.every((d) => monthVersions.has(d.resolved.versionId)) && wholeMonths(plan.others)) summed++;
      }
      return summed;
    });
  } finally {
    await stores.close();
  }
}

/**
 * Random pages of polygons around one of `around` (events' positions) at every version of fishing,
 * small and at any offset, most near the list's end, in each order: the store's total and page
 * equal those read from each version's events, where the rows an update hid lie near the page's
 * end too.
 */
async function polygonPagesAgree(url: string, r: Random, around: readonly { lat: number; lon: number }[], queries: number, boxes = { halves: [0.1, 0.5, 2, 6], moved: true }): Promise<void> {
  const stores = await openStores({ engine: 'postgres', url }, {}, undefined, false);
  try {
    const store = stores.current();
    const at = { catalog: store, access: { canRead: () => true } };
    await onClient(url, async (c) => {
      const tags = (await c.query(`SELECT version FROM dataset_versions WHERE kind = 'fishing' ORDER BY version_id`)).rows.map((row) => row.version as string);
      const apart = await versionRows(c);
      for (let i = 0; i < queries; i++) {
        const half = r.pick(boxes.halves);
        const place = r.pick(around);
        const [lon, lat] = boxes.moved ? [place.lon + (r.next() - 0.5) * half, place.lat + (r.next() - 0.5) * half] : [place.lon, place.lat];
        const ring = [[lon - half, lat - half], [lon + half, lat - half], [lon + half, lat + half], [lon - half, lat + half], [lon - half, lat - half]].map(([x, y]) => [Math.max(-180, Math.min(180, x!)), Math.max(-90, Math.min(90, y!))]);
        const filters: EventFilters = { datasets: [`public-global-fishing-events:${r.pick(tags)}`], geometry: { type: 'Polygon', coordinates: [ring] } };
        randomWindow(r, filters, 0.3);
        // Start order most: its pages are read a cell at a time (spatial-queries.ts).
        const sort = r.pick(['+start', '-start', '+start', '-start', '+end', '-end'] as const);
        const total = await store.count(await normalizeListQuery(filters, { limit: 1, offset: 0, sort }, at));
        const list = await normalizeListQuery(filters, { limit: r.pick([1, 2, 5, 100]), offset: r.chance(0.6) ? r.int(Math.max(0, total - 3), total) : r.int(0, total), sort }, at);
        const where = JSON.stringify({ filters, sort, offset: list.offset, limit: list.limit });
        const onEvents = compileWhere(list, OWN_PARTITIONS);
        assert.equal(total, Number((await c.query({ text: `${apart.events} SELECT count(*) FROM events WHERE ${onEvents.sql}`, values: onEvents.params })).rows[0].count), where);
        const page = compileSearch(list, OWN_PARTITIONS);
        const expected = (await c.query({ text: `${apart.events} ${page.sql}`, values: page.params, rowMode: 'array' })).rows.map((row) => row[0]);
        const got: string[] = [];
        for await (const chunk of await store.search(list)) got.push(...chunk);
        assert.deepEqual(got, expected, where);
      }
    });
  } finally {
    await stores.close();
  }
}

/** A window of whole months, or of a year as the web app asks, sometimes open at one end. */
function wholeMonthWindow(r: Random, filters: EventFilters): void {
  const year = r.int(2017, 2024);
  const month = r.int(0, 11);
  const start = r.chance(0.5) ? Date.UTC(year, 0, 1) : Date.UTC(year, month, 1);
  const end = Date.UTC(new Date(start).getUTCFullYear(), new Date(start).getUTCMonth() + r.int(1, 30), 1);
  if (r.chance(0.9)) filters.startDate = new Date(start).toISOString().slice(0, 10);
  if (r.chance(0.9)) filters.endDate = new Date(end).toISOString().slice(0, 10);
}

/** Rows of spatial_events that differ from the events' positions and cells (src/geo/grid.ts cellKey): none when they agree. */
async function spatialDifferences(url: string): Promise<number> {
  return onClient(url, async (c) => {
    const apart = await versionRows(c);
    const table = (await c.query({ text: `SELECT version_id, id, cell_key, start_ts, end_ts, kind, lat, lon FROM ${apart.places('id, cell_key, start_ts, end_ts, kind, lat, lon')} s`, rowMode: 'array' })).rows as unknown[][];
    const events = (await c.query({ text: `${apart.events} SELECT version_id, id, start_ts, end_ts, kind, lat, lon FROM events`, rowMode: 'array' })).rows as unknown[][];
    const key = (r: unknown[]) => JSON.stringify(r);
    const expected = new Map<string, number>();
    for (const [v, id, start, end, kind, lat, lon] of events) {
      const k = key([v, id, cellKey(lat as number, lon as number), start, end, kind, lat, lon]);
      expected.set(k, (expected.get(k) ?? 0) + 1);
    }
    let differing = 0;
    for (const row of table) {
      const k = key(row);
      const left = expected.get(k) ?? 0;
      if (left === 0) differing++;
      else expected.set(k, left - 1);
    }
    return differing + [...expected.values()].reduce((a, b) => a + b, 0);
  });
}

/** Rows of vessel_events that differ from the events' own: none when they agree. */
async function vesselDifferences(url: string): Promise<number> {
  return onClient(url, async (c) => {
    const apart = await versionRows(c);
    const columns = 'vessel_id, start_ts, id, end_ts, kind, entry';
    const table = `SELECT version_id, ${columns} FROM ${apart.vessels(columns)} v`;
    const events = `SELECT version_id, ${columns} FROM events`;
    return Number((await c.query(`${apart.events} SELECT count(*) FROM ((${table} EXCEPT ALL (${events})) UNION ALL ((${events}) EXCEPT ALL ${table})) d`)).rows[0].count);
  });
}

/**
 * The share of vessel_events' rows stored after a row that follows them in its index's order. Rows
 * are inserted in that order, but one that does not fit the page being filled starts the next, and
 * a later, shorter row may still fit the page left behind (PostgreSQL's free space map): a few rows
 * of different lengths sit a page early. Unsorted, about half would.
 */
async function vesselsOutOfOrder(url: string): Promise<number> {
  return onClient(url, async (c) => {
    let out = 0;
    let all = 0;
    for (const { name } of (await c.query(`SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'vessel_events'::regclass`)).rows) {
      const { rows } = await c.query(`SELECT count(*) FILTER (WHERE (vessel_id, start_ts, id) < (v0, s0, i0))::int AS out, count(*)::int AS n FROM (SELECT vessel_id, start_ts, id, lag(vessel_id) OVER w AS v0, lag(start_ts) OVER w AS s0, lag(id) OVER w AS i0 FROM ${name as string} WINDOW w AS (ORDER BY ctid)) t`);
      out += rows[0].out as number;
      all += rows[0].n as number;
    }
    assert.ok(all > 0);
    return out / all;
  });
}

/**
 * Rows of vessel_identities (grouped from the staged file by a load) that differ from those
 * PostgreSQL groups from the stored records (src/store/postgres/identity-table.ts): none when they agree.
 */
async function identityDifferences(url: string): Promise<number> {
  return onClient(url, async (c) => {
    const apart = await versionRows(c);
    const table = 'SELECT version_id, vessel_id, ssvid, shipname, flag, type, gear_type, first_seen, last_seen, events FROM vessel_identities';
    const grouped = `SELECT * FROM (${groupedSql('ARRAY(SELECT version_id FROM dataset_versions)')}) g`;
    return Number((await c.query(`${apart.events} SELECT count(*) FROM ((${table} EXCEPT ALL ${grouped}) UNION ALL (${grouped} EXCEPT ALL ${table})) d`)).rows[0].count);
  });
}

/** The statistics of a few shapes the rollups answer, read by a server's store. */
async function statsOf(url: string): Promise<unknown[]> {
  const stores = await openStores({ engine: 'postgres', url }, {}, undefined, false);
  try {
    const store = stores.current();
    const at = { catalog: store, access: { canRead: () => true } };
    const out: unknown[] = [];
    for (const filters of [{ datasets: DATASETS, startDate: '2018-03-15', endDate: '2021-07-02' }, { datasets: [DATASETS[0]!], flags: ['CHN'], timeFilterMode: 'START-DATE' as const }]) {
      out.push(await store.stats(await normalizeEventQuery(filters, at), options('MONTH', 'FLAG')));
    }
    return out;
  } finally {
    await stores.close();
  }
}

describe('statistics rollups, rows by region, by place and by vessel on PostgreSQL', { skip: TEST_ENGINE !== 'postgres' && 'runs under test/run-postgres.ts (npm run test:full runs it)' }, () => {
  let fixture: Fixture;
  let url: string;
  let store: EventStore;
  let close: () => Promise<void>;
  before(async () => {
    fixture = await buildFixtureDb({ events: 3000, seed: 11 });
    url = (fixture.database as { url: string }).url;
    const stores = await openStores(fixture.database, {}, undefined, false);
    store = stores.current();
    close = () => stores.close();
  });
  after(async () => {
    await close?.();
    await fixture?.cleanup();
  });
  const ctx = () => ({ catalog: store, access: { canRead: () => true } });

  /**
   * A random page of the filters in the given order: the store's total and page (from whichever
   * table it chooses) equal those read from the events alone; resolves to whether `answeredBy` the
   * table under test.
   */
  async function listAgrees(c: pg.Client, r: Random, filters: EventFilters, sort: SortValue, answeredBy: (list: ListQuery) => unknown): Promise<boolean> {
    const total = await store.count(await normalizeListQuery(filters, { limit: 1, offset: 0, sort }, ctx()));
    const offset = r.chance(0.2) ? total + r.int(0, 2) : r.int(0, Math.max(0, total - 1));
    const list = await normalizeListQuery(filters, { limit: r.pick([1, 5, 100]), offset, sort }, ctx());
    const where = JSON.stringify({ filters, sort, offset: list.offset, limit: list.limit });
    const onEvents = compileWhere(list, OWN_PARTITIONS);
    assert.equal(total, Number((await c.query({ text: `SELECT count(*) FROM events WHERE ${onEvents.sql}`, values: onEvents.params })).rows[0].count), where);
    const page = compileSearch(list, OWN_PARTITIONS);
    const expected = (await c.query({ text: page.sql, values: page.params, rowMode: 'array' })).rows.map((row) => row[0]);
    const got: string[] = [];
    for await (const chunk of await store.search(list)) got.push(...chunk);
    assert.deepEqual(got, expected, where);
    return Boolean(answeredBy(list));
  }

  test('the rollups hold each version\'s events grouped by month and flag, and each vessel\'s months', async () => {
    const versions = await onClient(url, readStatsRollupVersions);
    const loaded = await onClient(url, async (c) => (await c.query('SELECT version_id FROM dataset_versions')).rows.map((r) => r.version_id as number));
    assert.deepEqual([...versions].sort(), loaded.sort());
    assert.equal(await rollupDifferences(url), 0);
    assert.deepEqual([...await onClient(url, readRegionTableVersions)].sort(), loaded.sort());
    assert.equal(await regionDifferences(url), 0);
    assert.deepEqual([...await onClient(url, readRegionMonthVersions)].sort(), loaded.sort());
    assert.equal(await regionMonthDifferences(url), 0);
    assert.deepEqual([...await onClient(url, readSpatialTableVersions)].sort(), loaded.sort());
    assert.equal(await spatialDifferences(url), 0);
    assert.deepEqual([...await onClient(url, readVesselTableVersions)].sort(), loaded.sort());
    assert.equal(await vesselDifferences(url), 0);
    assert.equal(await identityDifferences(url), 0);
  });

  test('each version\'s rows by vessel are stored in its index\'s order, but for a few', async () => {
    await onClient(url, async (c) => {
      const partitions = (await c.query(`SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'vessel_events'::regclass`)).rows;
      assert.equal(partitions.length, (await readVesselTableVersions(c)).size);
    });
    assert.ok(await vesselsOutOfOrder(url) < 0.02);
  });

  test('200 random vessel histories vessel_events answers: the same totals and pages as read from the events', async () => {
    const r = new Random(4246);
    const vessels = [...new Set(fixture.records.map((e) => e.vessel.id))];
    let answered = 0;
    await onClient(url, async (c) => {
      const versions = await readVesselTableVersions(c);
      for (let i = 0; i < 200; i++) {
        const datasets = DATASETS.filter(() => r.chance(0.5));
        const filters: EventFilters = { datasets: datasets.length > 0 ? datasets : [r.pick(DATASETS)], vessels: Array.from({ length: r.pick([1, 1, 1, 2, 5]) }, () => r.pick(vessels)) };
        randomWindow(r, filters, 0.6);
        if (r.chance(0.2)) filters.timeFilterMode = r.pick(['START-DATE', 'END-DATE', 'OVERLAP'] as const);
        if (r.chance(0.15)) filters.flags = [r.pick(['CHN', 'ESP'])];
        if (r.chance(0.15)) Object.assign(filters, { duration: r.pick([10, 60, 600]) });
        const sort = r.pick(['+start', '-start', '-start', '+end', '-end'] as const);
        if (await listAgrees(c, r, filters, sort, (list) => servedByVesselTable(list) && list.datasets.every((d) => versions.has(d.resolved.versionId)))) answered++;
      }
    });
    assert.ok(answered > 120, `only ${answered} of 200 vessel histories were answered from vessel_events`);
  });

  test('each version\'s rows by place are written in cell order, in a partition never scanned in parallel', async () => {
    await onClient(url, async (c) => {
      const partitions = (await c.query(`SELECT inhrelid::regclass::text AS name, c.reloptions FROM pg_inherits JOIN pg_class c ON c.oid = inhrelid WHERE inhparent = 'spatial_events'::regclass`)).rows;
      assert.equal(partitions.length, (await readSpatialTableVersions(c)).size);
      for (const { name, reloptions } of partitions) {
        assert.ok((reloptions as string[] | null)?.includes('parallel_workers=0'), `${name}: ${reloptions}`);
        // Out of order: a row whose (cell, start) sorts before the row stored before it.
        const { rows } = await c.query(`SELECT count(*)::int AS n FROM (SELECT cell_key, start_ts, lag(cell_key) OVER w AS c0, lag(start_ts) OVER w AS s0 FROM ${name} WINDOW w AS (ORDER BY ctid)) t WHERE (cell_key, start_ts) < (c0, s0)`);
        assert.equal(rows[0].n, 0, name);
      }
    });
  });

  test('200 random polygon lists spatial_events answers: the same totals and pages as read from the events', async () => {
    const r = new Random(4245);
    const places = fixture.records.map((e) => [e.lat, e.lon] as const);
    let answered = 0;
    await onClient(url, async (c) => {
      const versions = await readSpatialTableVersions(c);
      for (let i = 0; i < 200; i++) {
        const [lat, lon] = r.pick(places);
        const half = r.pick([0.2, 1, 3, 10]);
        const ring = [[lon - half, lat - half], [lon + half, lat - half], [lon + half, lat + half], [lon - half, lat + half], [lon - half, lat - half]].map(([x, y]) => [Math.max(-180, Math.min(180, x!)), Math.max(-90, Math.min(90, y!))]);
        const datasets = DATASETS.filter(() => r.chance(0.4));
        const filters: EventFilters = { datasets: datasets.length > 0 ? datasets : [r.pick(DATASETS)], geometry: { type: 'Polygon', coordinates: [ring] } };
        if (r.chance(0.3)) Object.assign(filters, { bufferValue: r.pick([5, 10, 50]), bufferUnit: 'NAUTICALMILES' });
        randomWindow(r, filters, 0.7);
        if (r.chance(0.2)) filters.timeFilterMode = r.pick(['START-DATE', 'END-DATE', 'OVERLAP'] as const);
        if (r.chance(0.15)) filters.flags = [r.pick(['CHN', 'ESP'])];
        const sort = r.pick(['+start', '-start', '+end', '-end'] as const);
        if (await listAgrees(c, r, filters, sort, (list) => spatialConditions(list, versions))) answered++;
      }
    });
    assert.ok(answered > 120, `only ${answered} of 200 polygon lists were answered from spatial_events`);
  });

  test('200 random region lists region_events answers: the same totals and pages as read from the events', async () => {
    const r = new Random(4244);
    const regions = await onClient(url, async (c) => (await c.query(`SELECT DISTINCT member, region FROM region_events`)).rows as { member: string; region: string }[]);
    const datasetOf = Object.fromEntries(REGION_MEMBERS.map((m) => [m.member, m.dataset]));
    let answered = 0;
    await onClient(url, async (c) => {
      const versions = await readRegionTableVersions(c);
      for (let i = 0; i < 200; i++) {
        const region = r.pick(regions);
        const datasets = DATASETS.filter(() => r.chance(0.4));
        const filters: EventFilters = { datasets: datasets.length > 0 ? datasets : [r.pick(DATASETS)], regions: [{ dataset: datasetOf[region.member]!, id: region.region }] };
        randomWindow(r, filters, 0.7);
        if (r.chance(0.4)) filters.flags = [r.pick(['CHN', 'ESP', 'TWN', 'KOR', 'USA'])];
        if (r.chance(0.2)) filters.vesselTypes = ['FISHING'];
        if (r.chance(0.2)) filters.timeFilterMode = r.pick(['START-DATE', 'END-DATE', 'OVERLAP'] as const);
        const sort = r.pick(['+start', '-start', '+start', '-end'] as const);
        if (await listAgrees(c, r, filters, sort, (list) => regionPlan(list, versions))) answered++;
      }
    });
    assert.ok(answered > 100, `only ${answered} of 200 region lists were answered from region_events`);
    assert.ok(await regionTotalsAgree(url, r, 200) > 100, 'fewer than 100 of 200 region totals summed by month');
  });

  test('300 random statistics the rollups answer: the same as counted on events', async () => {
    const r = new Random(4243);
    let answered = 0;
    await onClient(url, async (c) => {
      const versions = await readStatsRollupVersions(c);
      for (let i = 0; i < 300; i++) {
        const datasets = DATASETS.filter(() => r.chance(0.5));
        const filters: EventFilters = { datasets: datasets.length > 0 ? datasets : [r.pick(DATASETS)] };
        randomWindow(r, filters, 0.85);
        filters.timeFilterMode = r.pick(['OVERLAP', 'START-DATE', ...(r.chance(0.1) ? ['END-DATE' as const] : [])]);
        if (r.chance(0.4)) {
          filters.flags = Array.from({ length: r.int(1, 3) }, () => r.pick(['CHN', 'ESP', 'TWN', 'KOR', 'USA']));
          if (r.chance(0.4)) filters.flagsOperator = 'EXCLUDE';
        }
        const query = await normalizeEventQuery(filters, ctx());
        const opts = options(r.pick(['MONTH', 'YEAR', 'MONTH', 'DAY']), r.chance(0.6) ? 'FLAG' : undefined);
        const where = JSON.stringify({ filters, interval: opts.interval, groupBy: opts.groupBy });
        if (planMonthStats(query, opts, versions)) answered++;
        else assert.ok(opts.interval === 'DAY' || filters.timeFilterMode === 'END-DATE' || (filters.startDate && filters.endDate), `${where}: not answered from the rollups`);
        assert.deepEqual(await store.stats(query, opts), await computeStats(rowsOf(c), query, opts, OWN_PARTITIONS), where);
      }
    });
    assert.ok(answered > 150, `only ${answered} of 300 statistics were answered from the rollups`);
  });

  test('a database without the rollups answers from events; migrate writes them, once', async () => {
    // A copy of the fixture without its rollups, as a database loaded before them.
    const older = await buildFixtureDb({ events: 3000, seed: 11 });
    const olderUrl = (older.database as { url: string }).url;
    try {
      await onClient(olderUrl, async (c) => {
        for (const table of ['stats_flag_months', 'stats_vessel_months', 'stats_month_versions', 'region_versions', 'spatial_versions', 'vessel_versions', 'region_months', 'region_month_versions']) await c.query(`DELETE FROM ${table}`);
        for (const { name } of (await c.query(`SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent IN ('region_events'::regclass, 'spatial_events'::regclass, 'vessel_events'::regclass)`)).rows) await c.query(`DROP TABLE ${name as string}`);
      });
      const before = await statsOf(olderUrl);
      assert.equal((await onClient(olderUrl, readStatsRollupVersions)).size, 0);
      const { from, to, rollupVersions, regionVersions, spatialVersions, vesselVersions } = await migratePostgresDatabase(olderUrl);
      assert.deepEqual([from, to], [SCHEMA_VERSION, SCHEMA_VERSION]);
      assert.deepEqual([regionVersions, spatialVersions, vesselVersions], [rollupVersions, rollupVersions, rollupVersions]);
      assert.equal(await vesselDifferences(olderUrl), 0);
      // Written again in ranges of 300 vessels' rows at most, as a version of over 2 million rows
      // is: the same rows, still in the index's order.
      await onClient(olderUrl, async (c) => {
        await c.query('BEGIN');
        for (const { name } of (await c.query(`SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'vessel_events'::regclass`)).rows) await c.query(`DROP TABLE ${name as string}`);
        await c.query('DELETE FROM vessel_versions');
        assert.equal((await writeMissingServingTables([c], [], 300)).vessels.length, rollupVersions);
        await c.query('COMMIT');
      });
      assert.equal(await vesselDifferences(olderUrl), 0);
      assert.ok(await vesselsOutOfOrder(olderUrl) < 0.02);
      assert.equal(await spatialDifferences(olderUrl), 0);
      assert.equal(await regionDifferences(olderUrl), 0);
      assert.equal(await regionMonthDifferences(olderUrl), 0);
      assert.equal(rollupVersions, (await onClient(olderUrl, readStatsRollupVersions)).size);
      assert.ok(rollupVersions >= 5);
      assert.equal(await rollupDifferences(olderUrl), 0);
      assert.deepEqual(await statsOf(olderUrl), before);
      await assert.rejects(migratePostgresDatabase(olderUrl), /statistics rollups and rows by region, by place and by vessel of every version; nothing to migrate/);
    } finally {
      await older.cleanup();
    }
  });

  test('pages of polygons a cell at a time, where an update removed the first events of the densest cell', async () => {
    const copy = await buildFixtureDb({ events: 3000, seed: 11 });
    try {
      // The densest half-degree cell of fishing, and its first events in start order: removed, none
      // takes their place, so its first rows up to a page's end hold fewer than the page needs.
      const fishing = copy.records.filter((rec) => rec.kind === 'fishing');
      const byCell = new Map<number, typeof fishing>();
      for (const rec of fishing) byCell.set(cellKey(rec.lat, rec.lon), [...(byCell.get(cellKey(rec.lat, rec.lon)) ?? []), rec]);
      const densest = [...byCell.values()].sort((a, b) => b.length - a.length)[0]!;
      assert.ok(densest.length >= 8, `the densest cell holds ${densest.length} fishing events`);
      const first = [...densest].sort((a, b) => a.startMs - b.startMs || a.id.localeCompare(b.id)).slice(0, 3);
      const removals = join(copy.dir, 'removed.txt');
      writeFileSync(removals, first.map((rec) => `${rec.id}\n`).join(''));
      await loadFiles([], { database: copy.database, version: 'v2', source: 'test', kind: 'fishing', update: { removals: [await readRemovals(removals, 'fishing')] } });
      // The cell itself, just inside its edges (src/geo/grid.ts: half a degree, from -90 and -180).
      const center = { lat: (Math.floor((first[0]!.lat + 90) * 2) + 0.5) / 2 - 90, lon: (Math.floor((first[0]!.lon + 180) * 2) + 0.5) / 2 - 180 };
      await polygonPagesAgree((copy.database as { url: string }).url, new Random(12), [center], 60, { halves: [0.2499], moved: false });
      await polygonPagesAgree((copy.database as { url: string }).url, new Random(13), first, 60);
    } finally {
      await copy.cleanup();
    }
  });

  test('a dropped version\'s rows go; an update\'s new version has its own', async () => {
    const copy = await buildFixtureDb({ events: 3000, seed: 11 });
    const copyUrl = (copy.database as { url: string }).url;
    try {
      const gaps = await onClient(copyUrl, async (c) => (await c.query(`SELECT version_id, version FROM dataset_versions WHERE kind = 'gap'`)).rows[0] as { version_id: number; version: string });
      await dropVersion(copy.database, 'public-global-gaps-events', 'gap', gaps.version);
      await onClient(copyUrl, async (c) => {
        assert.deepEqual((await c.query(`SELECT to_regclass($1) AS r, to_regclass($2) AS s, to_regclass($3) AS v`, [`region_events_v${gaps.version_id}`, `spatial_events_v${gaps.version_id}`, `vessel_events_v${gaps.version_id}`])).rows, [{ r: null, s: null, v: null }]);
        for (const table of ['stats_flag_months', 'stats_vessel_months', 'stats_month_versions', 'region_versions', 'spatial_versions', 'vessel_versions', 'region_months', 'region_month_versions']) {
          assert.equal(Number((await c.query(`SELECT count(*) FROM ${table} WHERE version_id = $1`, [gaps.version_id])).rows[0].count), 0, table);
        }
      });
      // An update that gives one fishing event another flag and removes another.
      const [changed, removed] = copy.rows.filter((row) => row['event_type'] === 'fishing');
      const rows = join(copy.dir, 'update.ndjson');
      const removals = join(copy.dir, 'removed.txt');
      const vessels = changed!['event_vessels'] as Record<string, unknown>[];
      writeFileSync(rows, `${JSON.stringify({ ...changed, event_vessels: [{ ...vessels[0], flag: 'ZZZ' }, ...vessels.slice(1)] })}\n`);
      writeFileSync(removals, `${removed!['event_id'] as string}\n`);
      await loadFiles([{ path: rows, format: 'ndjson' }], { database: copy.database, version: 'v2', source: 'test', kind: 'fishing', update: { removals: [await readRemovals(removals, 'fishing')] } });
      const versions = await onClient(copyUrl, readStatsRollupVersions);
      const loaded = await onClient(copyUrl, async (c) => (await c.query('SELECT version_id FROM dataset_versions')).rows.map((r) => r.version_id as number));
      assert.deepEqual([...versions].sort(), loaded.sort());
      assert.equal(versions.size, 5, 'the four versions left and the update\'s');
      assert.equal(await rollupDifferences(copyUrl), 0);
      assert.equal(await regionDifferences(copyUrl), 0);
      assert.equal(await regionMonthDifferences(copyUrl), 0);
      assert.ok(await regionTotalsAgree(copyUrl, new Random(7), 40) > 15, 'after one update');
      // The rows by region, by place and by vessel the update added are in region_added,
      // spatial_added and vessel_added, those it hid in the _hidden tables, each as the table
      // beside them has it; region_events, spatial_events and vessel_events are not written.
      const fishingLineage = await onClient(copyUrl, async (c) => (await c.query(`SELECT lineage_id FROM dataset_versions WHERE kind = 'fishing' AND version = 'v2'`)).rows[0].lineage_id as number);
      const tables = [
        { table: 'region_events', changes: REGION_CHANGES, columns: ['version_id', 'member', 'region', 'start_ts', 'id', 'end_ts', 'kind', 'vessel_flag', 'vessel_type'] },
        { table: 'spatial_events', changes: SPATIAL_CHANGES, columns: ['version_id', 'cell_key', 'start_ts', 'id', 'end_ts', 'kind', 'lat', 'lon'] },
        // A hidden row by vessel keeps its key and marks, not its entry (vessel-table.ts hiddenAs).
        { table: 'vessel_events', changes: VESSEL_CHANGES, columns: ['version_id', 'vessel_id', 'start_ts', 'id', 'end_ts', 'kind'] },
      ];
      for (const { table, changes, columns } of tables) {
        assert.deepEqual([...await onClient(copyUrl, (c) => changes.readUpdatedLineages(c))], [fishingLineage], table);
        await onClient(copyUrl, async (c) => {
          assert.equal(Number((await c.query(`SELECT count(*) FROM ${table} WHERE to_version IS NOT NULL OR from_version IS NOT NULL`)).rows[0].count), 0, table);
          assert.deepEqual((await c.query(`SELECT DISTINCT id FROM ${changes.added}`)).rows.map((r) => r.id as string), [String(changed!['event_id'])], changes.added);
          const hiddenIds = (await c.query(`SELECT DISTINCT id FROM ${changes.hidden} ORDER BY id`)).rows.map((r) => r.id as string);
          assert.deepEqual(hiddenIds, [changed!['event_id'], removed!['event_id']].map(String).sort(), changes.hidden);
          const row = (alias: string) => `(${columns.map((c) => `${alias}.${c}`).join(', ')})`;
          const unmatched = await c.query(`SELECT count(*) FROM ${changes.hidden} h WHERE NOT EXISTS (SELECT 1 FROM ${table} r WHERE ${row('r')}
            IS NOT DISTINCT FROM ${row('h')} AND r.from_version IS NOT DISTINCT FROM h.from_version)`);
          assert.equal(Number(unmatched.rows[0].count), 0, changes.hidden);
          if (changes === VESSEL_CHANGES) assert.equal(Number((await c.query(`SELECT count(*) FROM ${changes.hidden} WHERE entry <> ''`)).rows[0].count), 0, 'no entry kept in vessel_hidden');
        });
      }
      assert.equal(await spatialDifferences(copyUrl), 0);
      assert.equal(await vesselDifferences(copyUrl), 0);
      assert.equal(await identityDifferences(copyUrl), 0);
      const zzz = await onClient(copyUrl, async (c) => (await c.query(`SELECT f.n::int AS n FROM stats_flag_months f JOIN dataset_versions v USING (version_id) WHERE v.kind = 'fishing' AND v.version = 'v2' AND f.vessel_flag = 'ZZZ'`)).rows);
      assert.deepEqual(zzz, [{ n: 1 }]);
      // A second update changes the same event again: the row it hides is the first update's, in
      // region_added; each version keeps its own rows by region.
      writeFileSync(rows, `${JSON.stringify({ ...changed, event_vessels: [{ ...vessels[0], flag: 'YYY' }, ...vessels.slice(1)] })}\n`);
      await loadFiles([{ path: rows, format: 'ndjson' }], { database: copy.database, version: 'v3', source: 'test', kind: 'fishing', update: { removals: [] } });
      assert.equal(await regionDifferences(copyUrl), 0);
      assert.equal(await regionMonthDifferences(copyUrl), 0);
      assert.ok(await regionTotalsAgree(copyUrl, new Random(8), 40) > 15, 'after two updates');
      // Around the event changed and the one removed, whose row is hidden with none in its place.
      const updatedPlaces = copy.records.filter((rec) => rec.id === String(changed!['event_id']) || rec.id === String(removed!['event_id']));
      assert.equal(updatedPlaces.length, 2);
      await polygonPagesAgree(copyUrl, new Random(9), updatedPlaces, 200);
      assert.equal(await spatialDifferences(copyUrl), 0);
      assert.equal(await vesselDifferences(copyUrl), 0);
      await onClient(copyUrl, async (c) => {
        const flags = (await c.query(`SELECT DISTINCT from_version IS NOT NULL AS added_by_update, vessel_flag FROM region_hidden WHERE id = $1 ORDER BY 1`, [String(changed!['event_id'])])).rows;
        assert.deepEqual(flags.map((r) => r.added_by_update), [false, true]);
        assert.equal(flags[1]!.vessel_flag, 'ZZZ');
        const places = (await c.query(`SELECT from_version IS NOT NULL AS added_by_update FROM spatial_hidden WHERE id = $1 ORDER BY 1`, [String(changed!['event_id'])])).rows;
        assert.deepEqual(places.map((r) => r.added_by_update), [false, true]);
      });
      // Compacted, the rows added and hidden are in the tables themselves, marked as the events
      // are; every version keeps its rows, and dropping and updating go on from there.
      // A reader in a long transaction holds the change tables: the compaction waits for it, but
      // never more than a few seconds at a time, so that other readers are not held up behind it.
      const longReader = new pg.Client({ connectionString: copyUrl });
      await longReader.connect();
      await longReader.query('BEGIN');
      await longReader.query('SELECT count(*) FROM region_added');
      const compacting = compactPostgresDatabase(copyUrl);
      const waited: number[] = [];
      try {
        for (let i = 0; i < 4; i++) {
          await new Promise((r) => setTimeout(r, 1500));
          const started = Date.now();
          await onClient(copyUrl, async (c) => {
            await c.query('SET statement_timeout = 5000');
            await c.query('SELECT count(*) FROM region_added');
          });
          waited.push(Date.now() - started);
        }
      } finally {
        await longReader.query('COMMIT');
        await longReader.end();
      }
      const compacted = await compacting;
      assert.ok(Math.max(...waited) < 3000, `other readers waited ${waited.join(', ')} ms`);
      assert.equal(compacted.length, 1);
      assert.deepEqual({ ...compacted[0]!, added: compacted[0]!.added > 0, hidden: compacted[0]!.hidden > 0 }, { datasetId: 'public-global-fishing-events', version: 'v3', updates: 2, added: true, hidden: true });
      for (const { table, changes } of tables) {
        assert.deepEqual([...await onClient(copyUrl, (c) => changes.readUpdatedLineages(c))], [], table);
        await onClient(copyUrl, async (c) => {
          const marked = (await c.query(`SELECT count(*) FILTER (WHERE from_version IS NOT NULL)::int AS added, count(*) FILTER (WHERE to_version IS NOT NULL)::int AS hidden FROM ${table} WHERE id = $1`, [String(changed!['event_id'])])).rows[0];
          assert.ok(marked.added > 0 && marked.hidden > 0, `${table}: ${JSON.stringify(marked)}`);
        });
      }
      const agree = async (step: string) => {
        for (const [name, differences] of [['rollups', rollupDifferences], ['regions', regionDifferences], ['regions by month', regionMonthDifferences], ['places', spatialDifferences], ['vessels', vesselDifferences], ['identities', identityDifferences]] as const) {
          assert.equal(await differences(copyUrl), 0, `${name} ${step}`);
        }
        // Every version of the updated lineage, its rows by month marked as its rows by region are.
        const summed = await regionTotalsAgree(copyUrl, new Random(step.length), 40);
        assert.ok(summed > 15, `${step}: only ${summed} of 40 region totals summed by month`);
      };
      await agree('compacted');
      await assert.rejects(compactPostgresDatabase(copyUrl), /nothing to compact/);
      await dropVersion(copy.database, 'public-global-fishing-events', 'fishing', 'v3');
      await agree('after v3 was dropped');
      writeFileSync(rows, `${JSON.stringify({ ...changed, event_vessels: [{ ...vessels[0], flag: 'XXX' }, ...vessels.slice(1)] })}\n`);
      await loadFiles([{ path: rows, format: 'ndjson' }], { database: copy.database, version: 'v4', source: 'test', kind: 'fishing', update: { removals: [] } });
      await agree('updated after the compaction');
      assert.deepEqual((await compactPostgresDatabase(copyUrl)).map((l) => [l.version, l.updates]), [['v4', 1]], 'v2 was folded before');
      await agree('compacted again');
      // Tables written from the events after the lineage's updates (a database updated before they
      // existed) hold the updates' rows, marked: their versions are listed, and rows an update left
      // beside them are not counted again.
      writeFileSync(rows, `${JSON.stringify({ ...changed, event_vessels: [{ ...vessels[0], flag: 'WWW' }, ...vessels.slice(1)] })}\n`);
      await loadFiles([{ path: rows, format: 'ndjson' }], { database: copy.database, version: 'v5', source: 'test', kind: 'fishing', update: { removals: [] } });
      const lineageVersions = await onClient(copyUrl, async (c) => (await c.query('SELECT version_id FROM dataset_versions WHERE version_id = $1 OR lineage_id = $1 ORDER BY 1', [fishingLineage])).rows.map((r) => r.version_id as number));
      assert.equal(lineageVersions.length, 4, 'v1, v2, v4 and v5');
      await onClient(copyUrl, async (c) => {
        for (const { table, changes } of tables) {
          await c.query(`DROP TABLE ${table}_v${fishingLineage}`);
          await c.query(`DELETE FROM ${changes.versionList} WHERE version_id = ANY($1)`, [lineageVersions]);
        }
      });
      // The rows the updates hid are moved back from their partition (lineage.ts), so that the
      // tables are written from all of the lineage's rows.
      const hiddenRows = async () => onClient(copyUrl, async (c) => Number((await c.query(`SELECT count(*) FROM events WHERE version_id = $1`, [-fishingLineage])).rows[0].count));
      assert.ok(await hiddenRows() > 0, 'rows hidden apart before');
      await migratePostgresDatabase(copyUrl);
      assert.equal(await hiddenRows(), 0, 'rows hidden apart after');
      for (const { changes } of tables) {
        assert.deepEqual(await onClient(copyUrl, async (c) => (await c.query(`SELECT version_id FROM ${changes.versionList} WHERE version_id = ANY($1) ORDER BY 1`, [lineageVersions])).rows.map((r) => r.version_id as number)), lineageVersions, changes.versionList);
        assert.deepEqual([...await onClient(copyUrl, (c) => changes.readUpdatedLineages(c))], [], changes.added);
      }
      await agree('written again from the events');
      // An update dropped leaves its lineage's change partitions empty: compact drops them and tells of nothing.
      writeFileSync(rows, `${JSON.stringify({ ...changed, event_vessels: [{ ...vessels[0], flag: 'VVV' }, ...vessels.slice(1)] })}\n`);
      await loadFiles([{ path: rows, format: 'ndjson' }], { database: copy.database, version: 'v6', source: 'test', kind: 'fishing', update: { removals: [] } });
      await dropVersion(copy.database, 'public-global-fishing-events', 'fishing', 'v6');
      assert.deepEqual([...await onClient(copyUrl, (c) => REGION_CHANGES.readUpdatedLineages(c))], [fishingLineage]);
      assert.deepEqual(await compactPostgresDatabase(copyUrl), []);
      for (const { changes } of tables) assert.deepEqual([...await onClient(copyUrl, (c) => changes.readUpdatedLineages(c))], [], changes.added);
      await agree('an update dropped, compacted');
    } finally {
      await copy.cleanup();
    }
  });
});
