// Requests recorded from the official clients (the Python client, gfwr, the web app) that use only this
// server's parameters, answered by the default configuration, whose `gfw` wire format is what
// their strict models expect (they cannot send X-Wire-Format). Requests that
// use filters of later issues must get an explicit 422, never a silently wider result.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OPTIONS } from '../../src/config.ts';
import type { WireFormat } from '../../src/shape/wire.ts';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

describe('official client requests', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ wire: OPTIONS.wire.default as WireFormat });
  });
  after(() => t.close());

  // The Python client sends these headers on every request, the body-less GET included.
  const python = () => ({ ...t.auth, accept: 'application/json', 'content-type': 'application/json' });

  test('Python: GET /v3/events/{id}?dataset=port visits, with its strict types', async () => {
    const res = await t.app.inject({ url: '/v3/events/c2f0967e061f99a01793edac065de003?dataset=public-global-port-visits-events%3Alatest', headers: python() });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const e = res.json() as {
      id: string; type: string; start: string; end: string; vessel: { publicAuthorizations: { hasPubliclyListedAuthorization: string; rfmo: string }[] };
      port_visit: { confidence: string; startAnchorage: { distanceFromShoreKm: string; id: string } };
    };
    assert.equal(e.id, 'c2f0967e061f99a01793edac065de003');
    assert.equal(e.type, 'port_visit');
    assert.equal(e.port_visit.confidence, '4');
    assert.equal(typeof e.port_visit.startAnchorage.distanceFromShoreKm, 'string');
    assert.equal(e.port_visit.startAnchorage.id, 'sen-dakar');
    assert.ok(Array.isArray(e.vessel.publicAuthorizations) && typeof e.vessel.publicAuthorizations[0]!.hasPubliclyListedAuthorization === 'string');
    assert.equal(Object.keys(e).at(-1), 'port_visit');
  });

  test('Python: POST /v3/events?limit=99999&offset=0 (its default page) for the example vessel', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v3/events?limit=99999&offset=0', headers: python(),
      payload: { datasets: ['public-global-fishing-events:latest'], vessels: ['8c7304226-6c71-edbe-0b63-c246734b3c01'], types: ['FISHING'], flags: ['CHN'], vesselTypes: ['FISHING'], startDate: '2017-01-01', endDate: '2017-01-31' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { entries: { start: string; end: string; vessel: { id: string } }[]; total: number; nextOffset: number | null };
    assert.ok(body.total >= 4, `found ${body.total}`);
    assert.equal(body.entries.length, body.total);
    assert.equal(body.nextOffset, null);
    for (const e of body.entries) {
      assert.equal(e.vessel.id, '8c7304226-6c71-edbe-0b63-c246734b3c01');
      assert.ok(typeof e.start === 'string' && typeof e.end === 'string');
    }
  });

  test('Python: types ["PORT"] from its event-type enum means PORT_VISIT', async () => {
    const list = (types: string[]) => t.app.inject({
      method: 'POST', url: '/v3/events?limit=50&offset=0', headers: python(),
      payload: { datasets: ['public-global-port-visits-events:latest', 'public-global-fishing-events:latest'], types },
    });
    const port = await list(['PORT']);
    assert.equal(port.statusCode, 200, port.body);
    const visits = (await list(['PORT_VISIT'])).json() as { total: number; entries: { id: string; type: string }[] };
    const body = port.json() as { total: number; entries: { id: string; type: string }[]; metadata: { types: unknown } };
    assert.ok(body.total > 0);
    assert.equal(body.total, visits.total);
    assert.deepEqual(body.entries.map((e) => e.id), visits.entries.map((e) => e.id));
    assert.ok(body.entries.every((e) => e.type === 'port_visit'));
    assert.deepEqual(body.metadata.types, { values: ['PORT_VISIT'], operator: 'INCLUDE' });
  });

  test('gfwr: get_event("GAP") reads open gaps, whose end is "" on the default configuration', async () => {
    const res = await t.app.inject({ url: '/v3/events?datasets=public-global-gaps-events:latest&types=GAP_START&limit=5&offset=0', headers: t.auth });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { total: number; entries: { end: unknown }[] };
    assert.ok(body.total > 0);
    for (const e of body.entries) assert.equal(e.end, '');
  });

  test('Python: list pages with sort=-start in the query string', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v3/events?limit=5&offset=10&sort=-start', headers: python(), payload: { datasets: ['public-global-fishing-events:latest'], flags: ['CHN'] } });
    const body = res.json() as { entries: { start: string }[]; offset: number; nextOffset: number };
    assert.equal(body.entries.length, 5);
    assert.deepEqual([body.offset, body.nextOffset], [10, 15]);
    assert.ok(body.entries[0]!.start >= body.entries[4]!.start);
  });

  test('gfwr: intentional gaps of January 2017, every page at once', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v3/events?limit=99999&offset=0&sort=%2Bstart', headers: python(),
      payload: { datasets: ['public-global-gaps-events:latest'], duration: 1, gapIntentionalDisabling: [true], startDate: '2017-01-01', endDate: '2017-01-31' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { entries: { type: string; start: string; end: string; gap: { intentionalDisabling: boolean } }[]; total: number; nextOffset: number | null };
    assert.ok(body.total > 0, 'gaps found');
    assert.equal(body.nextOffset, null);
    for (const e of body.entries) {
      assert.equal(e.type, 'gap');
      assert.equal(e.gap.intentionalDisabling, true);
      assert.ok(e.start < '2017-01-31' && (e.end === '' || e.end >= '2017-01-01'));
    }
  });

  test('gfwr: port visits of its example vessel with confidence 3 or 4 (the -c2- dataset id)', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v3/events?limit=99999&offset=0&sort=%2Bstart', headers: python(),
      payload: { datasets: ['public-global-port-visits-c2-events:latest'], vessels: ['e0248aed9-99b4-bae7-6b87-ff0a3c464676'], confidences: ['3', '4'], duration: 1, startDate: '2017-01-01', endDate: '2017-01-31' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { entries: { vessel: { id: string }; port_visit: { confidence: string } }[] };
    assert.ok(body.entries.length >= 2);
    for (const e of body.entries) {
      assert.equal(e.vessel.id, 'e0248aed9-99b4-bae7-6b87-ff0a3c464676');
      assert.ok(['3', '4'].includes(e.port_visit.confidence));
    }
  });

  test('Python: the documented list request with every non-spatial filter, geometry and region left out', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v3/events?limit=5&offset=0&sort=-start', headers: python(),
      payload: {
        datasets: ['public-global-fishing-events:latest'], vessels: ['8c7304226-6c71-edbe-0b63-c246734b3c01'], types: ['FISHING'],
        startDate: '2017-01-01', endDate: '2017-01-31', confidences: ['3', '4'], encounterTypes: ['CARRIER-FISHING'], duration: 60,
        vesselGroups: ['my-vessel-group'], flags: ['CHN'], vesselTypes: ['FISHING'],
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { entries: { vessel: { id: string }; start: string }[]; total: number };
    // Confidences and encounter types concern other kinds and leave fishing events alone.
    assert.ok(body.total >= 4, `found ${body.total}`);
    for (const e of body.entries) assert.equal(e.vessel.id, '8c7304226-6c71-edbe-0b63-c246734b3c01');
  });

  test('web app: includes keep only the paths asked for', async () => {
    const res = await t.app.inject({
      url: '/v3/events?start-date=2017-01-01T00%3A00%3A00.000Z&end-date=2017-02-01T00%3A00%3A00.000Z&datasets%5B0%5D=public-global-fishing-events%3Alatest&includes%5B0%5D=id&includes%5B1%5D=start&flags%5B0%5D=CHN&flags-operator=EXCLUDE&vessel-types%5B0%5D=FISHING&limit=1000&offset=0',
      headers: python(),
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { entries: Record<string, unknown>[]; total: number };
    assert.ok(body.total > 0);
    for (const e of body.entries) assert.deepEqual(Object.keys(e), ['start', 'id']);
  });

  test('gfwr: Chinese fishing in Senegal\'s EEZ (region with one-element arrays), January 2017', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v3/events?limit=99999&offset=0&sort=%2Bstart', headers: python(),
      payload: { datasets: ['public-global-fishing-events:latest'], flags: ['CHN'], duration: 1, region: { dataset: ['public-eez-areas'], id: [8371] }, startDate: '2017-01-01', endDate: '2017-01-31' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { entries: { vessel: { flag: string }; regions: { eez: string[] } }[]; total: number };
    assert.ok(body.total > 0);
    for (const e of body.entries) assert.ok(e.vessel.flag === 'CHN' && e.regions.eez.includes('8371'));
  });

  test('web app: fishing within 10 nm of Senegal\'s EEZ, Chinese flags excluded', async () => {
    const res = await t.app.inject({
      url: '/v3/events?start-date=2017-01-01T00%3A00%3A00.000Z&end-date=2021-02-01T00%3A00%3A00.000Z&datasets%5B0%5D=public-global-fishing-events%3Alatest&includes%5B0%5D=id&includes%5B1%5D=vessel.flag&flags%5B0%5D=CHN&flags-operator=EXCLUDE&vessel-types%5B0%5D=FISHING&region-datasets%5B0%5D=public-eez-areas&region-ids%5B0%5D=8371&buffer-value=10&buffer-unit=NAUTICALMILES&buffer-operation=DISSOLVE&limit=1000&offset=0',
      headers: python(),
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { entries: { id: string; vessel: { flag: string | null } }[]; total: number };
    assert.ok(body.total > 0);
    for (const e of body.entries) assert.notEqual(e.vessel.flag, 'CHN');
  });

  test('web app: confidence-4 port visits of 2024 in MPA 555635930', async () => {
    const res = await t.app.inject({
      url: '/v3/events?datasets[0]=public-global-port-visits-events:latest&start-date=2024-01-01T00:00:00.000Z&end-date=2024-12-31T23:59:59.999Z&limit=20&offset=0&sort=-start&confidences[0]=4&region-ids[0]=555635930&region-datasets[0]=public-mpa-all',
      headers: python(),
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { entries: { regions: { mpa: string[] }; port_visit: { confidence: string } }[]; total: number };
    assert.ok(body.total > 0);
    for (const e of body.entries) assert.ok(e.regions.mpa.includes('555635930') && e.port_visit.confidence === '4');
  });

  test('Python: its documented request sends both geometry and region, which is a 422 naming geometry', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v3/events?limit=5&offset=10&sort=-start', headers: python(),
      payload: { datasets: ['public-global-fishing-events:latest'], geometry: { type: 'Polygon', coordinates: [[[120.36, 26.72], [122.36, 26.72], [122.36, 28.32], [120.36, 28.32], [120.36, 26.72]]] }, region: { dataset: 'public-eez-areas', id: '8371' } },
    });
    assert.equal(res.statusCode, 422);
    assert.match((res.json() as { messages: { title: string; detail: string }[] }).messages[0]!.detail, /cannot be combined with a region filter/);
  });

  test('Python: the same geometry alone finds the East China Sea events inside it', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v3/events?limit=99999&offset=0', headers: python(),
      payload: { datasets: ['public-global-fishing-events:latest'], geometry: { type: 'Polygon', coordinates: [[[120.36, 26.72], [125.36, 26.72], [125.36, 30.32], [120.36, 30.32], [120.36, 26.72]]] } },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { entries: { position: { lat: number; lon: number } }[]; total: number };
    assert.ok(body.total > 0);
    for (const e of body.entries) assert.ok(e.position.lon >= 120.36 && e.position.lon <= 125.36 && e.position.lat >= 26.72 && e.position.lat <= 30.32);
  });
});
