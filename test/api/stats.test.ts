// Statistics against the reference: random filters (test/helpers/random-queries.ts) with every
// interval and every groupBy, compared with statistics computed in the test from the reference's
// matching entries; and numEvents against the list's total for the same filters.
// Replay a failure with STATS_TEST_SEED=<seed>.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Random } from '../../src/data/demo/random.ts';
import type { EventRecord } from '../../src/domain/record.ts';
import { GROUP_BY, GROUP_REGION_MEMBER, type GroupBy } from '../../src/query/stats.ts';
import { REGION_MEMBERS } from '../../src/domain/regions.ts';
import { DuckDBInstance } from '@duckdb/node-api';
import { startTestApp, type Fixture, type TestApp } from '../helpers/fixture.ts';
import { generate, toRequest } from '../helpers/random-queries.ts';
import { referenceMatches } from '../helpers/reference.ts';
import { caseCount, FULL, seedOf } from '../helpers/size.ts';

const SEED = seedOf('STATS_TEST_SEED', 20779);
const QUERIES = caseCount('STATS_TEST_QUERIES', 300, 80);

function bucket(ms: number, interval: string): string {
  const d = new Date(ms);
  const parts = { HOUR: [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()], DAY: [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()], MONTH: [d.getUTCFullYear(), d.getUTCMonth()], YEAR: [d.getUTCFullYear(), 0] }[interval]!;
  return new Date(Date.UTC(parts[0]!, parts[1]!, parts[2] ?? 1, parts[3] ?? 0)).toISOString();
}

/** Region dataset -> id -> the name loaded with its geometry, read from the fixture's file. */
let regionNames = new Map<string, Map<string, string>>();

function groupsOf(records: EventRecord[], groupBy: GroupBy): { name: string; label?: string | null; flag?: string | null; value: number }[] {
  const counts = new Map<string, { value: number; label?: string | null; flag?: string | null }>();
  const add = (name: string | null | undefined, extra: { label?: string | null; flag?: string | null } = {}) => {
    if (name === null || name === undefined) return;
    const seen = counts.get(name);
    counts.set(name, { ...extra, value: (seen?.value ?? 0) + 1 });
  };
  for (const r of records) {
    const member = GROUP_REGION_MEMBER[groupBy];
    if (member) r.regions[member].forEach((id) => add(id));
    else if (groupBy === 'FLAG') add(r.vessel.flag);
    else if (groupBy === 'GEARTYPE') add(r.vessel.gear_type);
    else add(r.vessel.next_port?.id, { label: r.vessel.next_port?.name ?? null, flag: r.vessel.next_port?.flag ?? null });
  }
  // A region layer's groups carry the region's loaded name as label, where it has one.
  const dataset = REGION_MEMBERS.find((m) => m.member === GROUP_REGION_MEMBER[groupBy])?.dataset;
  const regionLabel = (name: string) => (dataset ? regionNames.get(dataset)?.get(name) : undefined);
  return [...counts]
    .map(([name, c]) => (groupBy === 'NEXT_PORT_ID' ? { name, label: c.label, flag: c.flag, value: c.value } : regionLabel(name) ? { name, label: regionLabel(name), value: c.value } : { name, value: c.value }))
    .sort((a, b) => b.value - a.value || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

let t: TestApp;
let fixture: Fixture;
before(async () => {
  // The quick tier shares the polygons' fixture (area-differential), one database fewer to build.
  t = await startTestApp(FULL ? { events: 12000, seed: 51 } : { events: 8000, seed: 41 });
  fixture = t.fixture;
  const instance = await DuckDBInstance.create(fixture.dbPath, { access_mode: 'READ_ONLY' });
  const rows = (await (await instance.connect()).runAndReadAll(`SELECT dataset, id, name FROM region_geometries WHERE name IS NOT NULL`)).getRowsJS() as [string, string, string][];
  instance.closeSync();
  regionNames = new Map();
  for (const [dataset, id, name] of rows) (regionNames.get(dataset) ?? regionNames.set(dataset, new Map()).get(dataset)!).set(id, name);
});
after(() => t.close());

describe('statistics', () => {
  test(`${QUERIES} random filters, every interval and groupBy, agree with the reference (STATS_TEST_SEED=${SEED})`, async () => {
    const r = new Random(SEED);
    for (let i = 0; i < QUERIES; i++) {
      const g = generate(r, fixture);
      delete g.params['ids'];
      delete g.reference.eventIds;
      const interval = r.pick(['HOUR', 'DAY', 'MONTH', 'YEAR']);
      const groupBy = GROUP_BY[i % GROUP_BY.length]!;
      const includes = r.chance(0.3) ? undefined : ['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED'].filter(() => r.chance(0.7));
      const extra: Record<string, string | string[]> = { timeseriesInterval: r.chance(0.3) ? interval.toLowerCase() : interval, groupBy, ...(includes?.length ? { includes } : {}) };
      const req = toRequest(g, r, '/events/stats', extra, false);
      const res = await t.app.inject({ method: req.method, url: req.url, headers: t.auth, ...(req.payload ? { payload: req.payload } : {}) });
      const where = `query ${i} of STATS_TEST_SEED=${SEED}: ${req.method} ${req.url} ${req.payload ? JSON.stringify(req.payload) : ''}`;
      assert.equal(res.statusCode, 200, `${where}\n${res.body}`);
      const got = res.json() as Record<string, unknown>;
      const matching = fixture.records.filter((rec) => referenceMatches(rec, g.reference, fixture));
      const asked = new Set(includes?.length ? includes : ['TOTAL_COUNT', 'TIME_SERIES']);
      const expected: Record<string, unknown> = {};
      if (asked.has('TOTAL_COUNT')) {
        const flags = [...new Set(matching.flatMap((m) => (m.vessel.flag ? [m.vessel.flag] : [])))].sort();
        Object.assign(expected, { numEvents: matching.length, numFlags: flags.length, numVessels: new Set(matching.map((m) => m.vessel.id)).size, flags });
      }
      if (asked.has('TIME_SERIES')) {
        const counts = new Map<string, number>();
        for (const m of matching) counts.set(bucket(m.startMs, interval), (counts.get(bucket(m.startMs, interval)) ?? 0) + 1);
        expected['timeseries'] = [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, value]) => ({ date, value }));
      }
      if (asked.has('EVENTS_GROUPED')) expected['groups'] = groupsOf(matching, groupBy);
      assert.deepEqual(got, expected, where);
      if (i % 10 === 0) {
        const list = toRequest(g, r);
        const listed = await t.app.inject({ method: list.method, url: list.url, headers: t.auth, ...(list.payload ? { payload: list.payload } : {}) });
        assert.equal((listed.json() as { total: number }).total, matching.length, `the list's total for ${where}`);
      }
    }
  });

  const errors: [string, string, Record<string, unknown> | undefined, number, string, RegExp][] = [
    ['a missing interval', 'POST', { datasets: ['public-global-fishing-events:latest'] }, 422, 'timeseriesInterval', /timeseriesInterval is required: one of HOUR, DAY, MONTH, YEAR/],
    ['EVENTS_GROUPED without groupBy', 'POST', { datasets: ['public-global-fishing-events:latest'], timeseriesInterval: 'DAY', includes: ['EVENTS_GROUPED'] }, 422, 'groupBy', /EVENTS_GROUPED needs groupBy: one of FLAG, GEARTYPE/],
    ['an unknown interval', 'POST', { datasets: ['public-global-fishing-events:latest'], timeseriesInterval: 'WEEK' }, 422, 'timeseriesInterval', /one of HOUR, DAY, MONTH, YEAR, got "WEEK"/],
    ['an unknown groupBy', 'GET', undefined, 422, 'group-by', /one of FLAG, GEARTYPE, REGION_EEZ/],
    ['an unknown part', 'POST', { datasets: ['public-global-fishing-events:latest'], timeseriesInterval: 'DAY', includes: ['EVERYTHING'] }, 422, 'includes', /one of TOTAL_COUNT, TIME_SERIES, EVENTS_GROUPED/],
    ['a list-only parameter', 'POST', { datasets: ['public-global-fishing-events:latest'], timeseriesInterval: 'DAY', ids: ['x'], sort: '+start' }, 422, 'ids', /not a parameter of POST \/v3\/events\/stats/],
  ];
  for (const [what, method, payload, status, title, detail] of errors) {
    test(`stats with ${what}: ${status} naming ${title}`, async () => {
      const url = method === 'GET' ? '/v3/events/stats?datasets=public-global-fishing-events:latest&timeseries-interval=DAY&group-by=COLOUR&includes=EVENTS_GROUPED' : '/v3/events/stats';
      const res = await t.app.inject({ method: method as 'GET' | 'POST', url, headers: t.auth, ...(payload ? { payload } : {}) });
      assert.equal(res.statusCode, status, res.body);
      const messages = (res.json() as { messages: { title: string; detail: string }[] }).messages;
      assert.ok(messages.some((m) => m.title === title && detail.test(m.detail)), JSON.stringify(messages));
    });
  }
});

describe('the official clients\' statistics requests', () => {
  const headers = () => ({ ...t.auth, 'content-type': 'application/json', accept: 'application/json' });

  test('Python: Russian carrier encounters by year, 2018-2023', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v3/events/stats', headers: headers(),
      payload: { datasets: ['public-global-encounters-events:latest'], startDate: '2018-01-01', endDate: '2023-01-31', encounterTypes: ['CARRIER-FISHING', 'FISHING-CARRIER'], duration: 60, flags: ['RUS'], vesselTypes: ['CARRIER'], timeseriesInterval: 'YEAR', includes: ['TOTAL_COUNT', 'TIME_SERIES'] },
    });
    const body = res.json() as { numEvents: number; flags: string[]; timeseries: { date: string; value: number }[]; groups?: unknown };
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(body.numEvents >= 5);
    assert.deepEqual(body.flags, ['RUS']);
    assert.equal(body.timeseries.reduce((s, b) => s + b.value, 0), body.numEvents);
    assert.equal(body.groups, undefined);
  });

  test('gfwr: port visits in Senegal\'s EEZ, confidence 3 or 4, by year', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v3/events/stats', headers: headers(),
      payload: { datasets: ['public-global-port-visits-c2-events:latest'], confidences: ['3', '4'], duration: 1, region: { dataset: ['public-eez-areas'], id: [8371] }, startDate: '2018-01-01', endDate: '2019-01-31', timeseriesInterval: 'YEAR' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { numEvents: number; timeseries: unknown[] };
    assert.ok(body.numEvents > 0);
    assert.ok(body.timeseries.length > 0);
  });

  test('web app: carrier encounters in Senegal\'s EEZ in 2018, by flag and month (GET, kebab-case, indexed arrays)', async () => {
    const res = await t.app.inject({
      url: '/v3/events/stats?start-date=2018-01-01T00%3A00%3A00.000Z&end-date=2019-01-01T00%3A00%3A00.000Z&time-filter-mode=START-DATE&region-ids%5B0%5D=8371&region-datasets%5B0%5D=public-eez-areas&encounter-types%5B0%5D=CARRIER-FISHING&encounter-types%5B1%5D=FISHING-CARRIER&datasets%5B0%5D=public-global-encounters-events%3Alatest&includes%5B0%5D=TOTAL_COUNT&includes%5B1%5D=TIME_SERIES&group-by=FLAG&timeseries-interval=MONTH',
      headers: headers(),
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { numEvents: number; timeseries: { date: string }[] };
    assert.ok(body.numEvents > 0);
    for (const b of body.timeseries) assert.match(b.date, /^2018-\d{2}-01T00:00:00\.000Z$/);
    assert.equal(res.headers['x-datasets'], 'public-global-encounters-events:v20240101');
  });

  test('web app: fishing of 2024 grouped by flag (GET)', async () => {
    const res = await t.app.inject({
      url: '/v3/events/stats?datasets[0]=public-global-fishing-events:latest&start-date=2024-01-01T00:00:00.000Z&end-date=2024-12-31T23:59:59.999Z&group-by=FLAG&time-filter-mode=START-DATE&includes[0]=EVENTS_GROUPED&includes[1]=TOTAL_COUNT&timeseries-interval=YEAR',
      headers: headers(),
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { numEvents: number; groups: { name: string; value: number }[]; timeseries?: unknown };
    assert.ok(body.groups.length > 0 && body.groups[0]!.name === 'CHN');
    assert.equal(body.groups.reduce((s, g) => s + g.value, 0) <= body.numEvents, true);
    assert.equal(body.timeseries, undefined);
  });
});
