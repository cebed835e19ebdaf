// Statistics read from stats_months (src/store/duckdb/stats-months.ts), its whole months from the
// table and the window's partial months from events, equal those counted on events alone; the
// table holds the grouping of events; queries it cannot answer are counted on events.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Random } from '../../src/data/demo/random.ts';
import { TIME_FILTER_MODES } from '../../src/query/enumerations.ts';
import { normalizeEventQuery } from '../../src/query/normalize.ts';
import type { EventFilters } from '../../src/query/schema.ts';
import type { StatsOptionsNormalized, StatsInclude, TimeseriesInterval } from '../../src/query/stats.ts';
import { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import { readOnly } from '../../src/store/duckdb/inspect.ts';
import { computeStats } from '../../src/store/duckdb/stats.ts';
import { monthRows, readStatsMonthVersions, type MonthTables } from '../../src/store/duckdb/stats-months.ts';
import { readMonthSummaries } from '../../src/store/duckdb/month-summaries.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { copyDuckDbFiles, editDatabase, migrateDatabase } from '../../src/store/engines.ts';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';
import { writing } from '../helpers/store-answers.ts';

const DATASETS = [
  'public-global-fishing-events:latest', 'public-global-encounters-events:latest', 'public-global-loitering-events:latest',
  'public-global-port-visits-events:latest', 'public-global-gaps-events:latest',
];

let fixture: Fixture;
let store: DuckDbStore;
let scratch: string;
before(async () => {
  fixture = await buildFixtureDb({ events: 3000, seed: 11 });
  store = await DuckDbStore.open({ path: fixture.dbPath });
  scratch = mkdtempSync(join(tmpdir(), 'vessel-events-stats-months-'));
});
after(async () => {
  await store.close();
  await fixture.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

const ctx = () => ({ catalog: store, access: { canRead: () => true } });
const options = (interval: TimeseriesInterval, groupBy?: 'FLAG', includes: StatsInclude[] = ['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED']): StatsOptionsNormalized =>
  ({ interval, includes: new Set(groupBy ? includes : includes.filter((i) => i !== 'EVENTS_GROUPED')), ...(groupBy ? { groupBy } : {}) });

const monthTablesOf = async (c: DuckDBConnection): Promise<MonthTables> => ({ versions: await readStatsMonthVersions(c), summaries: await readMonthSummaries(c) });

/** A time as the clients send it: a day, or an instant anywhere in a month. */
function randomTime(r: Random): string {
  const ms = Date.UTC(2017, 0, 1) + Math.floor(r.next() * 8 * 365 * 86_400_000);
  return r.chance(0.5) ? new Date(ms).toISOString().slice(0, 10) : new Date(ms).toISOString();
}

test('the table holds each version\'s events grouped by month, flag and vessel', async () => {
  await readOnly(fixture.dbPath, async (c) => {
    const versions = await readStatsMonthVersions(c);
    const loaded = (await c.runAndReadAll(`SELECT version_id::INTEGER FROM dataset_versions`)).getRowsJS().map((r) => r[0] as number);
    assert.deepEqual([...versions].sort(), loaded.sort());
    const differing = (await c.runAndReadAll(`
      SELECT count(*)::INTEGER FROM (
        (SELECT version_id, month, vessel_flag, vessel_key, n FROM stats_months
         EXCEPT ALL SELECT version_id, date_trunc('month', start_ts)::DATE, vessel_flag, md5_number_upper(vessel_id), count(*)::UINTEGER FROM events GROUP BY ALL)
        UNION ALL
        (SELECT version_id, date_trunc('month', start_ts)::DATE, vessel_flag, md5_number_upper(vessel_id), count(*)::UINTEGER FROM events GROUP BY ALL
         EXCEPT ALL SELECT version_id, month, vessel_flag, vessel_key, n FROM stats_months))`)).getRowsJS()[0]![0];
    assert.equal(differing, 0);
  });
});

test('the summaries hold stats_months\' counts by month and flag, and each vessel\'s months as bits', async () => {
  await readOnly(fixture.dbPath, async (c) => {
    const tables = await monthTablesOf(c);
    assert.deepEqual([...tables.summaries.keys()].sort(), [...tables.versions].sort());
    const count = async (sql: string) => (await c.runAndReadAll(sql)).getRowsJS()[0]![0];
    assert.equal(await count(`
      SELECT count(*)::INTEGER FROM (
        (SELECT version_id, month, vessel_flag, n FROM flag_months EXCEPT ALL SELECT version_id, month, vessel_flag, sum(n)::UBIGINT FROM stats_months GROUP BY ALL)
        UNION ALL
        (SELECT version_id, month, vessel_flag, sum(n)::UBIGINT FROM stats_months GROUP BY ALL EXCEPT ALL SELECT version_id, month, vessel_flag, n FROM flag_months))`), 0);
    // Each vessel's bits: one per month it has events in, set where stats_months has its rows, its
    // length the version's months.
    const MONTH = `(12 * (year(m.month) - 1970) + month(m.month) - 1)`;
    assert.equal(await count(`
      SELECT count(*)::INTEGER FROM (SELECT DISTINCT version_id, vessel_key, month FROM stats_months) m
        JOIN month_summary_versions s USING (version_id) LEFT JOIN vessel_month_bits b USING (version_id, vessel_key)
       WHERE b.months IS NULL OR get_bit(b.months, (${MONTH} - s.first_month)::INTEGER) <> 1`), 0);
    assert.equal(await count(`
      SELECT count(*)::INTEGER FROM vessel_month_bits b JOIN month_summary_versions s USING (version_id)
        JOIN (SELECT version_id, vessel_key, count(DISTINCT month) AS months FROM stats_months GROUP BY ALL) m USING (version_id, vessel_key)
       WHERE bit_count(b.months) <> m.months OR bit_length(b.months) <> s.months`), 0);
    assert.equal(await count(`SELECT count(*)::INTEGER FROM vessel_month_bits`), await count(`SELECT count(*)::INTEGER FROM (SELECT DISTINCT version_id, vessel_key FROM stats_months)`));
  });
});

test('300 random statistics the table answers: the same as counted on events', async () => {
  const r = new Random(4242);
  let answered = 0;
  let counted = 0;
  await readOnly(fixture.dbPath, async (c) => {
    const versions = await monthTablesOf(c);
    for (let i = 0; i < 300; i++) {
      const datasets = DATASETS.filter(() => r.chance(0.5));
      const filters: EventFilters = { datasets: datasets.length > 0 ? datasets : [r.pick(DATASETS)] };
      if (r.chance(0.85)) filters.startDate = randomTime(r);
      if (r.chance(0.85)) filters.endDate = randomTime(r);
      if (filters.startDate && filters.endDate && filters.startDate > filters.endDate) [filters.startDate, filters.endDate] = [filters.endDate, filters.startDate];
      filters.timeFilterMode = r.pick(['OVERLAP', 'START-DATE', ...(r.chance(0.1) ? ['END-DATE' as const] : [])]);
      if (r.chance(0.4)) {
        filters.flags = Array.from({ length: r.int(1, 3) }, () => r.pick(['CHN', 'ESP', 'TWN', 'KOR', 'USA']));
        if (r.chance(0.4)) filters.flagsOperator = 'EXCLUDE';
      }
      const query = await normalizeEventQuery(filters, ctx());
      const opts = options(r.pick(['MONTH', 'YEAR', 'MONTH', 'DAY']), r.chance(0.6) ? 'FLAG' : undefined);
      const where = JSON.stringify({ filters, interval: opts.interval, groupBy: opts.groupBy });
      const months = monthRows(query, opts, versions);
      if (months) answered++;
      else assert.ok(opts.interval === 'DAY' || filters.timeFilterMode === 'END-DATE' || (filters.startDate && filters.endDate), `${where}: not answered from the table`);
      if (months?.vesselCount) counted++;
      assert.deepEqual(await store.stats(query, opts), await computeStats(c, query, opts), where);
    }
  });
  assert.ok(answered > 150, `only ${answered} of 300 statistics were answered from the table`);
  assert.ok(counted > 80, `only ${counted} of 300 statistics counted their vessels from the months' bits`);
});

test('statistics with other filters, buckets finer than a month or another grouping are counted on events', async () => {
  const versions = await readOnly(fixture.dbPath, monthTablesOf);
  const window = { startDate: '2018-01-01', endDate: '2020-01-01' };
  const fishing = { datasets: [DATASETS[0]!], ...window };
  assert.ok(monthRows(await normalizeEventQuery(fishing, ctx()), options('MONTH', 'FLAG'), versions));
  assert.equal(monthRows(await normalizeEventQuery(fishing, ctx()), options('DAY', 'FLAG'), versions), undefined);
  assert.equal(monthRows(await normalizeEventQuery({ ...fishing, timeFilterMode: 'END-DATE' }, ctx()), options('MONTH'), versions), undefined);
  assert.equal(monthRows(await normalizeEventQuery({ ...fishing, vesselTypes: ['FISHING'] }, ctx()), options('MONTH'), versions), undefined);
  assert.equal(monthRows(await normalizeEventQuery({ ...fishing, duration: 60 }, ctx()), options('MONTH'), versions), undefined);
  assert.equal(monthRows(await normalizeEventQuery({ ...fishing, startDate: '2018-01-05', endDate: '2018-01-25' }, ctx()), options('MONTH'), versions), undefined);
  const grouped: StatsOptionsNormalized = { interval: 'MONTH', includes: new Set(['EVENTS_GROUPED']), groupBy: 'GEARTYPE' };
  assert.equal(monthRows(await normalizeEventQuery(fishing, ctx()), grouped, versions), undefined);
  // A version the table does not hold (a file written before it) is counted on events.
  assert.equal(monthRows(await normalizeEventQuery(fishing, ctx()), options('MONTH', 'FLAG'), { versions: new Set(), summaries: new Map() }), undefined);
  // Without the summaries (a file written before them), and with flags, vessels are counted from stats_months.
  assert.equal(monthRows(await normalizeEventQuery(fishing, ctx()), options('MONTH', 'FLAG'), { ...versions, summaries: new Map() })?.vesselCount, undefined);
  assert.equal(monthRows(await normalizeEventQuery({ ...fishing, flags: ['CHN'] }, ctx()), options('MONTH', 'FLAG'), versions)?.vesselCount, undefined);
  assert.ok(monthRows(await normalizeEventQuery(fishing, ctx()), options('MONTH', 'FLAG'), versions)?.vesselCount);
});

/** The statistics of a few shapes the table answers, read by a store on the file. */
async function statsOf(path: string): Promise<unknown[]> {
  const opened = await DuckDbStore.open({ path });
  try {
    const at = { catalog: opened, access: { canRead: () => true } };
    const out: unknown[] = [];
    for (const filters of [{ datasets: DATASETS, startDate: '2018-03-15', endDate: '2021-07-02' }, { datasets: [DATASETS[0]!], flags: ['CHN'], timeFilterMode: 'START-DATE' as const }]) {
      out.push(await opened.stats(await normalizeEventQuery(filters, at), options('MONTH', 'FLAG')));
    }
    return out;
  } finally {
    await opened.close();
  }
}

test('a database without the table answers from events, and migrate writes it', async () => {
  const path = join(mkdtempSync(join(scratch, 'older-')), 'events.duckdb');
  copyDuckDbFiles(fixture.dbPath, path);
  await writing(path, async (c) => {
    for (const statement of ['DROP TABLE stats_months', 'DROP TABLE stats_month_versions', 'DROP TABLE flag_months', 'DROP TABLE vessel_month_bits', 'DROP TABLE month_summary_versions', 'CHECKPOINT']) await c.run(statement);
  });
  const before = await statsOf(path);
  assert.equal((await readOnly(path, readStatsMonthVersions)).size, 0);
  const { statsMonthVersions, pointFiles, regionVersions } = await migrateDatabase(path);
  assert.deepEqual([pointFiles, regionVersions], [0, 0]);
  assert.equal(statsMonthVersions, (await readOnly(path, readStatsMonthVersions)).size);
  assert.ok(statsMonthVersions >= 5);
  assert.deepEqual(await statsOf(path), before);
  assert.equal((await readOnly(path, readMonthSummaries)).size, statsMonthVersions);
  await assert.rejects(migrateDatabase(path), /monthly statistics tables; nothing to migrate/);
});

test('a database with stats_months but not its summaries counts from stats_months, and migrate writes them', async () => {
  const path = join(mkdtempSync(join(scratch, 'summaries-')), 'events.duckdb');
  copyDuckDbFiles(fixture.dbPath, path);
  const expected = await statsOf(path);
  await writing(path, async (c) => {
    for (const statement of ['DROP TABLE flag_months', 'DROP TABLE vessel_month_bits', 'DROP TABLE month_summary_versions', 'CHECKPOINT']) await c.run(statement);
  });
  assert.deepEqual(await statsOf(path), expected);
  const { statsMonthVersions } = await migrateDatabase(path);
  assert.ok(statsMonthVersions >= 5);
  assert.equal((await readOnly(path, readMonthSummaries)).size, statsMonthVersions);
  assert.deepEqual(await statsOf(path), expected);
});

test('dropping a version drops its rows of the table', async () => {
  const path = join(mkdtempSync(join(scratch, 'drop-')), 'events.duckdb');
  copyDuckDbFiles(fixture.dbPath, path);
  const fishing = await readOnly(path, async (c) => (await c.runAndReadAll(`SELECT version_id::INTEGER, version FROM dataset_versions WHERE kind = 'fishing'`)).getRowsJS()[0] as [number, string]);
  await editDatabase({ engine: 'duckdb', path }, (writer) => writer.dropVersion('public-global-fishing-events', 'fishing', fishing[1]));
  await readOnly(path, async (c) => {
    assert.equal((await readStatsMonthVersions(c)).has(fishing[0]), false);
    assert.equal(Number((await c.runAndReadAll(`SELECT count(*) FROM stats_months WHERE version_id = ${fishing[0]}`)).getRowsJS()[0]![0]), 0);
  });
});
