// Vessel insights (POST /v3/insights/vessels) as the Python client's get_vessel_insights sends
// them, every counter and id list proven against a plain reading of the loaded records (their
// typed regions, authorizations and gap flags, not the entries the service reads), and bad input
// answered with a JSON error naming the parameter.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OPTIONS } from '../../src/config.ts';
import type { EventRecord } from '../../src/domain/record.ts';
import type { WireFormat } from '../../src/shape/wire.ts';
import { fixtureFromRows, startTestApp, type TestApp } from '../helpers/fixture.ts';

const DATASET = 'public-global-vessel-identity:latest';

/** OVERLAP, as lists filter by time: end >= start-date and start < end-date; an open event overlaps from its start. */
const overlaps = (r: EventRecord, from: number, to: number) => (r.endMs ?? Infinity) >= from && r.startMs < to;
const noTake = (r: EventRecord) => (r.regions['mpaNoTake']?.length ?? 0) > 0;
const unauthorized = (r: EventRecord) => (r.vessel.public_authorizations ?? []).some((a) => a.has_publicly_listed_authorization === 'false');
const gapOff = (r: EventRecord) => r.info['intentional_disabling'] === true;

describe('vessel insights', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ wire: OPTIONS.wire.default as WireFormat });
  });
  after(() => t.close());

  const python = () => ({ ...t.auth, accept: 'application/json', 'content-type': 'application/json' });
  const insights = (payload: object) => t.app.inject({ method: 'POST', url: '/v3/insights/vessels', headers: python(), payload });

  test('Python: get_vessel_insights(FISHING, GAP) for vessels, against the records', async () => {
    const records = t.fixture.records;
    // The vessels with the most gaps and the most fishing: counters that are not all zero.
    const busiest = (keep: (r: EventRecord) => boolean) => {
      const counts = new Map<string, number>();
      for (const r of records) if (keep(r)) counts.set(r.vessel.id, (counts.get(r.vessel.id) ?? 0) + 1);
      return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([id]) => id);
    };
    const vessels = [...new Set([...busiest((r) => r.kind === 'gap' && gapOff(r)), ...busiest((r) => r.kind === 'fishing' && (noTake(r) || unauthorized(r))), 'no-such-vessel'])];
    const [startDate, endDate] = ['2019-01-01', '2022-07-01'];
    const res = await insights({ includes: ['FISHING', 'GAP'], startDate, endDate, vessels: vessels.map((vesselId) => ({ datasetId: DATASET, vesselId })) });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(body), ['period', 'vesselIdsWithoutIdentity', 'gap', 'apparentFishing']);
    assert.deepEqual(body['period'], { startDate, endDate });
    assert.deepEqual(body['vesselIdsWithoutIdentity'], ['no-such-vessel']);

    const [from, to] = [Date.parse(startDate), Date.parse(endDate)];
    const mine = (kind: string) => records.filter((r) => r.kind === kind && vessels.includes(r.vessel.id));
    const sortedIds = (rs: EventRecord[]) => rs.map((r) => r.id).sort();
    const gaps = mine('gap');
    const gapsInPeriod = gaps.filter((r) => overlaps(r, from, to));
    const gap = body['gap']!;
    assert.deepEqual(gap['historicalCounters'], { events: gaps.length, eventsGapOff: gaps.filter(gapOff).length });
    assert.deepEqual(gap['periodSelectedCounters'], { events: gapsInPeriod.length, eventsGapOff: gapsInPeriod.filter(gapOff).length });
    assert.deepEqual([...(gap['aisOff'] as string[])].sort(), sortedIds(gapsInPeriod.filter(gapOff)));
    assert.match((gap['datasets'] as string[])[0]!, /^public-global-gaps-events:/);
    assert.ok(gapsInPeriod.filter(gapOff).length > 0, 'the test sees gaps with AIS off');

    const fishing = mine('fishing');
    const fishingInPeriod = fishing.filter((r) => overlaps(r, from, to));
    const counters = (rs: EventRecord[]) => ({ events: rs.length, eventsInRFMOWithoutKnownAuthorization: rs.filter(unauthorized).length, eventsInNoTakeMPAs: rs.filter(noTake).length });
    const apparent = body['apparentFishing']!;
    assert.deepEqual(apparent['historicalCounters'], counters(fishing));
    assert.deepEqual(apparent['periodSelectedCounters'], counters(fishingInPeriod));
    assert.deepEqual([...(apparent['eventsInRfmoWithoutKnownAuthorization'] as string[])].sort(), sortedIds(fishingInPeriod.filter(unauthorized)));
    assert.deepEqual([...(apparent['eventsInNoTakeMpas'] as string[])].sort(), sortedIds(fishingInPeriod.filter(noTake)));
    assert.ok(fishingInPeriod.length > 0, 'the test sees fishing in the period');
  });

  test('FISHING alone by default; COVERAGE is refused, naming includes', async () => {
    const vesselId = t.fixture.records.find((r) => r.kind === 'fishing')!.vessel.id;
    const vessels = [{ datasetId: DATASET, vesselId }];
    const plain = await insights({ startDate: '2017-01-01', endDate: '2025-01-01', vessels });
    assert.equal(plain.statusCode, 200, plain.body);
    assert.deepEqual(Object.keys(plain.json() as object), ['period', 'vesselIdsWithoutIdentity', 'apparentFishing']);
    const res = await insights({ includes: ['FISHING', 'COVERAGE'], startDate: '2017-01-01', endDate: '2025-01-01', vessels });
    assert.equal(res.statusCode, 422, res.body);
    const [message] = (res.json() as { messages: { title: string; detail: string }[] }).messages;
    assert.equal(message!.title, 'includes');
    assert.match(message!.detail, /^COVERAGE/);
  });

  test('the IUU vessel list: listings by id or by a reported MMSI, in the period when they overlap it', async () => {
    const list = (await t.store.iuuListings())!;
    assert.ok(list.length >= 3, 'the demo lists a few vessels');
    const ssvidsOf = new Map<string, Set<string>>();
    for (const r of t.fixture.records) for (const v of [r.vessel, r.otherVessel]) if (v?.ssvid) (ssvidsOf.get(v.id) ?? ssvidsOf.set(v.id, new Set()).get(v.id)!).add(v.ssvid);
    const listedVessels = [...ssvidsOf.keys()].filter((id) => list.some((l) => l.vesselId === id || (l.ssvid !== null && ssvidsOf.get(id)!.has(l.ssvid))));
    assert.ok(listedVessels.length >= 3, `${listedVessels.length} listed vessels among the loaded ones`);
    for (const [startDate, endDate] of [['2017-01-01', '2025-01-01'], ['2021-01-01', '2022-01-01'], ['2010-01-01', '2011-01-01']] as const) {
      for (const chosen of [listedVessels, listedVessels.slice(0, 1), listedVessels.slice(1, 3)]) {
        const res = await insights({ includes: ['VESSEL-IDENTITY-IUU-VESSEL-LIST'], startDate, endDate, vessels: chosen.map((vesselId) => ({ datasetId: DATASET, vesselId })) });
        assert.equal(res.statusCode, 200, res.body);
        const listings = list.filter((l) => chosen.some((id) => l.vesselId === id || (l.ssvid !== null && ssvidsOf.get(id)!.has(l.ssvid))));
        const overlapping = listings.filter((l) => l.listedFrom < endDate && (l.listedTo === null || l.listedTo >= startDate));
        assert.deepEqual((res.json() as { vesselIdentity: unknown }).vesselIdentity, {
          datasets: [DATASET],
          iuuVesselList: {
            valuesInThePeriod: overlapping.map((l) => ({ from: `${l.listedFrom}T00:00:00Z`, to: l.listedTo && `${l.listedTo}T00:00:00Z` })),
            totalTimesListed: listings.length,
            totalTimesListedInThePeriod: overlapping.length,
          },
        }, `${startDate} ${endDate} ${chosen.join(',')}`);
      }
    }
  });

  test('without a loaded IUU list, its include is a 422 naming includes', async () => {
    const fixture = await fixtureFromRows(t.fixture.rows.slice(0, 300));
    const bare = await startTestApp({ fixture });
    try {
      const vesselId = fixture.records[0]!.vessel.id;
      const res = await bare.app.inject({ method: 'POST', url: '/v3/insights/vessels', headers: bare.auth, payload: { includes: ['VESSEL-IDENTITY-IUU-VESSEL-LIST'], startDate: '2017-01-01', endDate: '2025-01-01', vessels: [{ datasetId: DATASET, vesselId }] } });
      assert.equal(res.statusCode, 422, res.body);
      const [message] = (res.json() as { messages: { title: string; detail: string }[] }).messages;
      assert.equal(message!.title, 'includes');
      assert.match(message!.detail, /none is loaded: load one with "vessel-events iuu load FILE"/);
    } finally {
      await bare.close();
      await fixture.cleanup();
    }
  });

  test('bad input: a JSON error naming the parameter', async () => {
    const vessels = [{ datasetId: DATASET, vesselId: 'x' }];
    const cases: [object, number, string][] = [
      [{ startDate: '2020-01-01', vessels }, 422, 'endDate'],
      [{ startDate: '2020-02-30', endDate: '2021-01-01', vessels }, 422, 'startDate'],
      [{ startDate: '2021-01-01', endDate: '2020-01-01', vessels }, 422, 'endDate'],
      [{ startDate: '2020-01-01', endDate: '2021-01-01', vessels: [] }, 422, 'vessels'],
      [{ startDate: '2020-01-01', endDate: '2021-01-01', vessels: Array.from({ length: 51 }, (_, i) => ({ datasetId: DATASET, vesselId: `v${i}` })) }, 422, 'vessels'],
      [{ startDate: '2020-01-01', endDate: '2021-01-01', vessels: [{ datasetId: 'public-global-vessel-identity:v3.0', vesselId: 'x' }] }, 404, 'vessels'],
      [{ includes: ['EVERYTHING'], startDate: '2020-01-01', endDate: '2021-01-01', vessels }, 422, 'includes'],
    ];
    for (const [payload, status, title] of cases) {
      const res = await insights(payload);
      assert.equal(res.statusCode, status, `${JSON.stringify(payload).slice(0, 200)}: ${res.body}`);
      assert.ok((res.json() as { messages: { title: string }[] }).messages.some((m) => m.title === title), res.body);
    }
  });
});
