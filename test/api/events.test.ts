import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

interface ListBody {
  entries: Record<string, unknown>[];
  total: number;
  limit: number;
  offset: number;
  nextOffset: number | null;
  metadata: Record<string, unknown>;
}

describe('GET and POST /v3/events', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...t.auth, ...headers } });
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers: { ...t.auth, ...headers } });

  // The same query in GET interface spelling, GET kebab + indexed arrays (the web app), and POST camelCase.
  const parityCases: { name: string; getCamel: string; getKebab: string; body: Record<string, unknown>; paging: string }[] = [
    {
      name: 'flags EXCLUDE, vessel types and a window',
      getCamel: 'datasets=public-global-fishing-events:latest&flags=CHN&flagsOperator=EXCLUDE&vesselTypes=FISHING&start-date=2019-01-01&end-date=2020-01-01',
      getKebab: 'datasets%5B0%5D=public-global-fishing-events%3Alatest&flags%5B0%5D=CHN&flags-operator=EXCLUDE&vessel-types%5B0%5D=FISHING&start-date=2019-01-01T00%3A00%3A00.000Z&end-date=2020-01-01T00%3A00%3A00.000Z',
      body: { datasets: ['public-global-fishing-events:latest'], flags: ['CHN'], flagsOperator: 'EXCLUDE', vesselTypes: ['FISHING'], startDate: '2019-01-01', endDate: '2020-01-01' },
      paging: 'limit=7&offset=3&sort=-start',
    },
    {
      name: 'several datasets, types and START-DATE mode',
      getCamel: 'datasets=public-global-encounters-events:latest,public-global-gaps-events:latest&types=GAP_START,ENCOUNTER&timeFilterMode=START-DATE&start-date=2018-01-01&end-date=2023-01-01',
      getKebab: 'datasets[0]=public-global-encounter-events:latest&datasets[1]=public-global-gaps-events:latest&types[0]=gap_start&types[1]=encounter&time-filter-mode=start-date&start-date=2018-01-01&end-date=2023-01-01',
      body: { datasets: ['public-global-encounters-events:latest', 'public-global-gaps-events:latest'], types: ['GAP_START', 'ENCOUNTER'], timeFilterMode: 'START-DATE', 'start-date': '2018-01-01', 'end-date': '2023-01-01' },
      paging: 'limit=50&offset=0&sort=%2Bend',
    },
  ];
  for (const c of parityCases) {
    test(`GET (two spellings) and POST answer alike: ${c.name}`, async () => {
      const a = await get(`/v3/events?${c.getCamel}&${c.paging}`);
      const b = await get(`/api/v3/events?${c.getKebab}&${c.paging}`);
      const p = await post(`/v3/events?${c.paging}`, c.body);
      for (const res of [a, b, p]) assert.equal(res.statusCode, 200, res.body);
      const [ja, jb, jp] = [a, b, p].map((r) => r.json() as ListBody);
      assert.ok(ja!.total > 0, 'the case must find something');
      assert.deepEqual(jb!.entries, ja!.entries);
      assert.deepEqual(jp!.entries, ja!.entries);
      assert.equal(jp!.total, ja!.total);
      assert.deepEqual(jp!.metadata, ja!.metadata);
    });
  }

  test('pages: total, nextOffset = offset + limit while entries remain, null on the last page, x-datasets', async () => {
    const first = await get('/v3/events?datasets=public-global-loitering-events:latest&limit=10&offset=0');
    const body = first.json() as ListBody;
    assert.equal(first.headers['x-datasets'], 'public-global-loitering-events:v20240101');
    assert.equal(body.entries.length, Math.min(10, body.total));
    assert.equal(body.nextOffset, body.total > 10 ? 10 : null);
    const last = (await get(`/v3/events?datasets=public-global-loitering-events:latest&limit=10&offset=${body.total - 3}`)).json() as ListBody;
    assert.equal(last.entries.length, 3);
    assert.equal(last.nextOffset, null);
    const past = (await get(`/v3/events?datasets=public-global-loitering-events:latest&limit=10&offset=${body.total + 5}`)).json() as ListBody;
    assert.deepEqual([past.entries.length, past.nextOffset, past.total], [0, null, body.total]);
  });

  test('limit=99999 returns every entry in one streamed page with nextOffset null', async () => {
    const res = await post('/v3/events?limit=99999&offset=0', { datasets: ['public-global-fishing-events:latest'] });
    const body = res.json() as ListBody;
    assert.equal(body.entries.length, t.fixture.records.filter((r) => r.kind === 'fishing').length);
    assert.equal(body.nextOffset, null);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  });

  test('both wire formats: the deployment default, and the X-Wire-Format header per request', async () => {
    const gfwApp = await startTestApp({ wire: 'gfw', fixture: t.fixture });
    try {
      const url = '/v3/events?datasets=public-global-port-visits-events:latest&limit=1&offset=0';
      const byDefault = (await gfwApp.app.inject({ url, headers: gfwApp.auth })).json() as ListBody;
      const byHeader = (await get(url, { 'x-wire-format': 'gfw' })).json() as ListBody;
      const spec = (await get(url)).json() as ListBody;
      const confidence = (b: ListBody) => (b.entries[0]!['port_visit'] as { confidence: unknown }).confidence;
      assert.equal(typeof confidence(byDefault), 'string');
      assert.deepEqual(byHeader.entries, byDefault.entries);
      assert.equal(typeof confidence(spec), 'number');
      const specOverride = (await gfwApp.app.inject({ url, headers: { ...gfwApp.auth, 'x-wire-format': 'spec' } })).json() as ListBody;
      assert.deepEqual(specOverride.entries, spec.entries);
    } finally {
      await gfwApp.app.close();
      await gfwApp.stores.close();
    }
  });

  test('GET is cacheable: private max-age, an ETag per query and versions, 304 on If-None-Match', async () => {
    const url = '/v3/events?datasets=public-global-fishing-events:latest&limit=2&offset=0';
    const first = await get(url);
    assert.equal(first.headers['cache-control'], 'private, max-age=600');
    const etag = first.headers['etag'] as string;
    assert.match(etag, /^W\/".+"$/);
    const again = await get(url, { 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.notEqual((await get(`${url}&flags=CHN`)).headers['etag'], etag);
    assert.notEqual((await get(url, { 'x-wire-format': 'gfw' })).headers['etag'], etag);
    assert.notEqual((await get(url.replace('limit=2', 'limit=3'))).headers['etag'], etag);
  });

  test('CORS: any origin, Authorization allowed, preflight without a token', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS', url: '/v3/events',
      headers: { origin: 'https://map.example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
    assert.match(String(preflight.headers['access-control-allow-headers']), /Authorization/);
    const real = await get('/v3/events?datasets=public-global-fishing-events:latest&limit=1&offset=0', { origin: 'https://map.example.org' });
    assert.equal(real.headers['access-control-allow-origin'], '*');
    assert.match(String(real.headers['access-control-expose-headers']), /x-datasets/);
  });

  test('sorting is stable and ties break by id', async () => {
    const body = (await get('/v3/events?datasets=public-global-encounters-events:latest&limit=1000&offset=0&sort=-end')).json() as ListBody;
    const keys = body.entries.map((e) => [e['end'] ?? '9999', e['id']] as [string, string]);
    const sorted = [...keys].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? 1 : -1) : a[0] < b[0] ? 1 : -1));
    assert.deepEqual(keys, sorted);
  });

  test('a deep page (read on the sort keys first, then its rows) holds the same entries as a one-step read', async () => {
    // Pages that overlap agree however each is found: in storage order or sorted by the engine
    // (src/store/duckdb/stored-order.ts, events-path.ts), on the index first from DEFERRED_OFFSET on
    // (src/store/postgres/compile.ts).
    for (const datasets of ['public-global-fishing-events:latest', 'public-global-fishing-events:latest,public-global-port-visits-events:latest']) {
      for (const sort of ['-start', '%2Bend']) {
        const oneStep = (await get(`/v3/events?datasets=${datasets}&limit=25&offset=995&sort=${sort}`)).json() as ListBody;
        const deep = (await get(`/v3/events?datasets=${datasets}&limit=20&offset=1000&sort=${sort}`)).json() as ListBody;
        assert.equal(deep.entries.length, 20);
        assert.deepEqual(deep.entries, oneStep.entries.slice(5));
        assert.equal(deep.total, oneStep.total);
      }
    }
    // A deep page comes back whole and in order, whatever its length.
    const all = 'public-global-fishing-events:latest,public-global-encounters-events:latest,public-global-loitering-events:latest,public-global-port-visits-events:latest,public-global-gaps-events:latest';
    const oneStep = (await get(`/v3/events?datasets=${all}&limit=99999&offset=995`)).json() as ListBody;
    const deep = (await get(`/v3/events?datasets=${all}&limit=99999&offset=1000`)).json() as ListBody;
    assert.ok(deep.entries.length > 2000, `${deep.entries.length} entries`);
    assert.deepEqual(deep.entries, oneStep.entries.slice(5));
  });
});

describe('GET /v3/events/{eventId}', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  test('returns the entry; raw=true returns the published row as loaded', async () => {
    const record = t.fixture.records.find((r) => r.kind === 'gap')!;
    const entry = await t.app.inject({ url: `/v3/events/${record.id}?dataset=public-global-gaps-events:latest`, headers: t.auth });
    assert.equal(entry.statusCode, 200);
    assert.equal((entry.json() as { id: string }).id, record.id);
    assert.equal(entry.headers['x-datasets'], 'public-global-gaps-events:v20240101');
    const raw = (await t.app.inject({ url: `/v3/events/${record.id}?dataset=public-global-gaps-events:latest&raw=true`, headers: t.auth })).json() as Record<string, unknown>;
    const source = t.fixture.rows.find((r) => r['event_id'] === record.id)!;
    for (const key of ['event_id', 'event_type', 'entity_id', 'event_start', 'event_end', 'lat_mean', 'lon_mean']) {
      assert.deepEqual(raw[key], source[key], key);
    }
    // Nested members come back as JSON strings, as in the published tables.
    assert.deepEqual(JSON.parse(raw['event_info'] as string), source['event_info']);
    assert.deepEqual((JSON.parse(raw['event_vessels'] as string) as { id: string }[]).map((v) => v.id), (source['event_vessels'] as { id: string }[]).map((v) => v.id));
  });

  test('dataset is required and must be exactly one', async () => {
    const res = await t.app.inject({ url: '/v3/events/abc', headers: t.auth });
    assert.equal(res.statusCode, 422);
    assert.equal((res.json() as { messages: { title: string }[] }).messages[0]!.title, 'dataset');
  });
});

describe('operational routes', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  test('/healthz and /readyz need no token', async () => {
    const health = (await t.app.inject({ url: '/healthz' })).json() as { status: string; eventLoop: { delayMaxMs: number; delayP99Ms: number } };
    assert.equal(health.status, 'ok');
    assert.ok(health.eventLoop.delayMaxMs >= 0 && health.eventLoop.delayP99Ms >= 0);
    const ready = await t.app.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.equal((ready.json() as { latest: string[] }).latest.length, 5);
  });

  test('/healthz reports how late the event loop ran: a loop held 150 ms shows', async () => {
    // The monitor measures from its first tick on: give it one before holding the loop.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const until = performance.now() + 150;
    while (performance.now() < until) {
      // Holding the loop, as a synchronous piece of work in a request would.
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const { eventLoop } = (await t.app.inject({ url: '/healthz' })).json() as { eventLoop: { delayMaxMs: number } };
    assert.ok(eventLoop.delayMaxMs >= 120, `delayMaxMs ${eventLoop.delayMaxMs}`);
  });

  test('/openapi.json is OpenAPI 3 generated from the validating schemas; /docs serves Swagger UI offline', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
      openapi: string; paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>>;
    };
    assert.match(doc.openapi, /^3\./);
    for (const path of ['/v3/events', '/v3/events/{eventId}', '/v3/events/stats']) assert.ok(doc.paths[path], path);
    const names = doc.paths['/v3/events']!['get']!.parameters!.filter((p) => p.in === 'query').map((p) => p.name);
    for (const name of ['datasets', 'limit', 'offset', 'flags', 'vesselTypes', 'startDate', 'timeFilterMode', 'sort']) assert.ok(names.includes(name), name);
    assert.ok(doc.paths['/v3/events']!['get']!.parameters!.find((p) => p.name === 'limit')!.required);
    const docs = await t.app.inject({ url: '/docs/' });
    assert.equal(docs.statusCode, 200);
    const bundle = await t.app.inject({ url: '/docs/static/swagger-ui-bundle.js' });
    assert.equal(bundle.statusCode, 200);
  });
});

describe('entry shaping: summary, include-regions, includes', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());
  const entries = async (query: string) => {
    const res = await t.app.inject({ url: `/v3/events?datasets=public-global-encounters-events:latest&limit=5&offset=0&${query}`, headers: t.auth });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { entries: Record<string, unknown>[] }).entries;
  };

  test('summary=true keeps id, type, start, end, position and the vessel\'s id, name, ssvid, flag, type', async () => {
    for (const e of await entries('summary=true')) {
      assert.deepEqual(Object.keys(e), ['start', 'end', 'id', 'type', 'position', 'vessel']);
      assert.deepEqual(Object.keys(e['vessel'] as object), ['id', 'name', 'ssvid', 'flag', 'type']);
    }
  });

  test('include-regions=false drops regions and nothing else', async () => {
    const [full] = await entries('');
    const [lean] = await entries('include-regions=false');
    const { regions: _, ...rest } = full!;
    assert.deepEqual(lean, rest);
  });

  test('includes keeps the dotted paths, in the entry\'s key order, inside arrays too', async () => {
    for (const e of await entries('includes=encounter.vessel.id&includes[1]=id&includes=vessel.publicAuthorizations.rfmo')) {
      assert.deepEqual(Object.keys(e), ['id', 'vessel', 'encounter']);
      assert.deepEqual(Object.keys(e['encounter'] as object), ['vessel']);
      assert.deepEqual(Object.keys((e['encounter'] as { vessel: object }).vessel), ['id']);
      for (const a of (e['vessel'] as { publicAuthorizations: object[] }).publicAuthorizations) assert.deepEqual(Object.keys(a), ['rfmo']);
    }
  });

  test('shaping changes the ETag', async () => {
    const etag = async (q: string) => (await t.app.inject({ url: `/v3/events?datasets=public-global-gaps-events:latest&limit=5&offset=0${q}`, headers: t.auth })).headers['etag'];
    const plain = await etag('');
    for (const q of ['&summary=true', '&include-regions=false', '&includes=id']) assert.notEqual(await etag(q), plain, q);
  });
});
