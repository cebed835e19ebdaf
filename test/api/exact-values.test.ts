// Exact answers over the small hand-readable data set (test/fixtures/small-events.ts): every
// expected value below can be checked by reading that file.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fixtureFromRows, startTestApp, type Fixture, type TestApp } from '../helpers/fixture.ts';
import { SMALL_EVENTS } from '../fixtures/small-events.ts';

const FISHING = 'public-global-fishing-events:latest';
const YEAR_2020 = 'start-date=2020-01-01&end-date=2021-01-01';

describe('exact values over the small data set', () => {
  let fixture: Fixture;
  let t: TestApp;
  before(async () => {
    fixture = await fixtureFromRows(SMALL_EVENTS, [{ groupId: 'watchlist', vesselId: 'vessel-b' }, { groupId: 'watchlist', vesselId: 'vessel-c' }]);
    t = await startTestApp({ fixture });
  });
  after(async () => {
    await t.close();
    await fixture.cleanup();
  });

  const ids = async (query: string) => {
    const res = await t.app.inject({ url: `/v3/events?${query}&limit=100&offset=0`, headers: t.auth });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { total: number; entries: { id: string }[] };
    assert.equal(body.total, body.entries.length);
    return body.entries.map((e) => e.id);
  };

  const cases: [string, string, string[]][] = [
    ['fishing overlapping 2020 (fish-07 runs into 2021)', `datasets=${FISHING}&${YEAR_2020}`, ['fish-01', 'fish-02', 'fish-03', 'fish-04', 'fish-05', 'fish-06', 'fish-09', 'fish-10', 'fish-07']],
    ['fishing that started in 2020, newest first (ties by id)', `datasets=${FISHING}&${YEAR_2020}&time-filter-mode=START-DATE&sort=-start`, ['fish-07', 'fish-10', 'fish-09', 'fish-06', 'fish-05', 'fish-04', 'fish-03', 'fish-02', 'fish-01']],
    ['fishing that ended in 2020', `datasets=${FISHING}&${YEAR_2020}&time-filter-mode=END-DATE`, ['fish-01', 'fish-02', 'fish-03', 'fish-04', 'fish-05', 'fish-06', 'fish-09', 'fish-10']],
    ['Chinese fishing', `datasets=${FISHING}&flags=CHN`, ['fish-01', 'fish-02', 'fish-03', 'fish-10']],
    ['fishing in Senegal\'s EEZ in 2020', `datasets=${FISHING}&${YEAR_2020}&region-datasets=public-eez-areas&region-ids=8371`, ['fish-01', 'fish-02', 'fish-04', 'fish-06', 'fish-09', 'fish-07']],
    ['fishing of 6 hours or more (inclusive)', `datasets=${FISHING}&min-duration=6`, ['fish-01', 'fish-03', 'fish-05', 'fish-10', 'fish-07']],
    ['fishing under 3 hours (exclusive)', `datasets=${FISHING}&max-duration=3`, ['fish-02', 'fish-06']],
    ['the watchlist group: vessels b and c, every kind', `datasets=${FISHING},public-global-port-visits-events:latest,public-global-encounters-events:latest,public-global-loitering-events:latest,public-global-gaps-events:latest&vessel-groups=watchlist`,
      ['port-02', 'enc-01.1', 'loit-01', 'fish-04', 'fish-05', 'port-03', 'gap-02', 'gap-04', 'fish-08']],
    ['an encounter is two entries, one per vessel', 'datasets=public-global-encounters-events:latest', ['enc-01.1', 'enc-01.2']],
    ['directional encounter types', 'datasets=public-global-encounters-events:latest&encounter-types=CARRIER-FISHING', ['enc-01.1']],
    ['gaps still open', 'datasets=public-global-gaps-events:latest&types=GAP_START', ['gap-02']],
    ['intentional gaps', 'datasets=public-global-gaps-events:latest&gap-intentional-disabling=true', ['gap-01', 'gap-03']],
    ['closed gaps', 'datasets=public-global-gaps-events:latest&is-closed=true', ['gap-01', 'gap-03', 'gap-04']],
    ['high-confidence port visits', 'datasets=public-global-port-visits-events:latest&confidences=4', ['port-01']],
    ['port visits to Vigo', 'datasets=public-global-port-visits-events:latest&port-ids=esp-vigo', ['port-03']],
    ['PORT means PORT_VISIT', `datasets=${FISHING},public-global-port-visits-events:latest&types=PORT`, ['port-01', 'port-02', 'port-03']],
    ['next port Dakar: vessel c\'s events', 'datasets=public-global-encounters-events:latest,public-global-loitering-events:latest,public-global-port-visits-events:latest&next-port-ids=sen-dakar', ['port-02', 'enc-01.1', 'loit-01']],
  ];
  for (const [what, query, expected] of cases) {
    test(`${what}: ${expected.join(', ')}`, async () => assert.deepEqual(await ids(query), expected));
  }

  test('one port visit, whole, in both wire formats', async () => {
    const anchorage = { anchorageId: 'sen-dakar-1', atDock: true, distanceFromShoreKm: 0.5, flag: 'SEN', id: 'sen-dakar', lat: 14.68, lon: -17.43, name: 'DAKAR', topDestination: 'DAKAR' };
    const spec = {
      start: '2020-01-15T00:00:00.000Z', end: '2020-01-16T00:00:00.000Z', id: 'port-01', type: 'port_visit',
      position: { lat: 14.5, lon: -17.5 },
      regions: { eez: ['8371'], eez12Nm: [], fao: ['34'], majorFao: ['34'], highSeas: [], mpa: [], mpaNoTake: [], mpaNoTakePartial: [], rfmo: ['ICCAT'] },
      boundingBox: [-17.6, 14.4, -17.4, 14.6],
      distances: { startDistanceFromShoreKm: 20, endDistanceFromShoreKm: 30, startDistanceFromPortKm: 40, endDistanceFromPortKm: 50 },
      vessel: { id: 'vessel-d', name: 'DAKAR 7', ssvid: '663000004', flag: 'SEN', type: 'fishing', publicAuthorizations: [], nextPort: {} },
      port_visit: { visitId: 'port-01-visit', confidence: 4, durationHrs: 24, startAnchorage: anchorage, intermediateAnchorage: anchorage, endAnchorage: anchorage },
    };
    const gfwAnchorage = { ...anchorage, distanceFromShoreKm: '0.5' };
    const gfw = { ...spec, port_visit: { ...spec.port_visit, confidence: '4', startAnchorage: gfwAnchorage, intermediateAnchorage: gfwAnchorage, endAnchorage: gfwAnchorage } };
    for (const [wire, expected] of [['spec', spec], ['gfw', gfw]] as const) {
      const res = await t.app.inject({ url: '/v3/events/port-01?dataset=public-global-port-visits-events:latest', headers: { ...t.auth, 'x-wire-format': wire } });
      assert.equal(res.body, JSON.stringify(expected), wire);
    }
  });

  test('an open gap: end null (spec) or "" (gfw), no end position', async () => {
    for (const [wire, end] of [['spec', null], ['gfw', '']] as const) {
      const e = (await t.app.inject({ url: '/v3/events/gap-02?dataset=public-global-gaps-events:latest', headers: { ...t.auth, 'x-wire-format': wire } })).json() as { end: unknown; gap: { onPosition: unknown; intentionalDisabling: boolean } };
      assert.equal(e.end, end);
      assert.equal(e.gap.onPosition, null);
      assert.equal(e.gap.intentionalDisabling, false);
    }
  });

  test('statistics of fishing that started in 2020: counts, vessels, flags, months and groups', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v3/events/stats', headers: t.auth,
      payload: { datasets: [FISHING], startDate: '2020-01-01', endDate: '2021-01-01', timeFilterMode: 'START-DATE', timeseriesInterval: 'MONTH', groupBy: 'FLAG', includes: ['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED'] },
    });
    assert.deepEqual(res.json(), {
      numEvents: 9, numFlags: 3, numVessels: 3, flags: ['CHN', 'ESP', 'SEN'],
      timeseries: [
        { date: '2020-01-01T00:00:00.000Z', value: 2 }, { date: '2020-02-01T00:00:00.000Z', value: 2 }, { date: '2020-03-01T00:00:00.000Z', value: 2 },
        { date: '2020-07-01T00:00:00.000Z', value: 2 }, { date: '2020-12-01T00:00:00.000Z', value: 1 },
      ],
      groups: [{ name: 'CHN', value: 4 }, { name: 'SEN', value: 3 }, { name: 'ESP', value: 2 }],
    });
  });
});
