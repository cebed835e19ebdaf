import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildFixtureDb, startTestApp, type Fixture, type TestApp } from '../helpers/fixture.ts';

const LIST = '/v3/events?datasets=public-global-fishing-events:latest&limit=1&offset=0';

describe('errors, in the GFW shape with exact bodies', () => {
  let fixture: Fixture;
  let t: TestApp;
  before(async () => {
    fixture = await buildFixtureDb({ events: 400, seed: 9 });
    t = await startTestApp({ fixture, bodyLimitBytes: 2048 });
  });
  after(async () => {
    await t.close();
    await fixture.cleanup();
  });

  const cases: [string, () => Promise<{ statusCode: number; json(): unknown }>, number, unknown][] = [
    ['no token', () => t.app.inject({ url: LIST }), 401,
      { statusCode: 401, error: 'Unauthorized', messages: [{ title: 'Authorization', detail: 'send the header "Authorization: Bearer <token>"; create a token with "vessel-events token create"' }] }],
    ['a malformed Authorization header', () => t.app.inject({ url: LIST, headers: { authorization: 'Token abc' } }), 401,
      { statusCode: 401, error: 'Unauthorized', messages: [{ title: 'Authorization', detail: 'the Authorization header must be "Bearer <token>"' }] }],
    ['an unknown token', () => t.app.inject({ url: LIST, headers: { authorization: 'Bearer ve_nope' } }), 401,
      { statusCode: 401, error: 'Unauthorized', messages: [{ title: 'Authorization', detail: 'the token is not valid: unknown or revoked' }] }],
    ['a dataset outside the token\'s patterns', async () => {
      const secret = t.tokens.create('fishing-only', ['public-global-fishing-events']);
      return t.app.inject({ url: '/v3/events?datasets=public-global-port-visits-c2-events:latest&limit=1&offset=0', headers: { authorization: `Bearer ${secret}` } });
    }, 403, { statusCode: 403, error: 'Forbidden', messages: [{ title: 'Forbidden', detail: 'Insufficient permissions for public-global-port-visits-c2-events:latest datasets' }] }],
    ['an unknown route', () => t.app.inject({ url: '/v3/4wings/report', headers: t.auth }), 404,
      { statusCode: 404, error: 'Not Found', messages: [{ title: 'Not Found', detail: 'no route GET /v3/4wings/report; see /docs' }] }],
    ['an unknown version', () => t.app.inject({ url: '/v3/events?datasets=public-global-fishing-events:v1&limit=1&offset=0', headers: t.auth }), 404,
      { statusCode: 404, error: 'Not Found', messages: [{ title: 'datasets', detail: 'dataset "public-global-fishing-events:v1" has no version "v1" (loaded versions: v20240101)' }] }],
    ['an unknown dataset', () => t.app.inject({ url: '/v3/events?datasets=public-global-whales:latest&limit=1&offset=0', headers: t.auth }), 404,
      { statusCode: 404, error: 'Not Found', messages: [{ title: 'datasets', detail: 'unknown dataset "public-global-whales"; known datasets: public-global-fishing-events, public-global-encounters-events, public-global-encounter-events, public-global-loitering-events, public-global-port-visits-events, public-global-port-visits-c2-events, public-global-gaps-events' }] }],
    ['an unknown version on the by-id route', () => t.app.inject({ url: '/v3/events/0000?dataset=public-global-fishing-events:v1', headers: t.auth }), 404,
      { statusCode: 404, error: 'Not Found', messages: [{ title: 'dataset', detail: 'dataset "public-global-fishing-events:v1" has no version "v1" (loaded versions: v20240101)' }] }],
    ['two datasets on the by-id route', () => t.app.inject({ url: '/v3/events/0000?dataset=public-global-fishing-events:latest,public-global-gaps-events:latest', headers: t.auth }), 422,
      { statusCode: 422, error: 'Unprocessable Entity', messages: [{ title: 'dataset', detail: 'dataset takes exactly one dataset, the one holding the event; got 2: public-global-fishing-events:latest, public-global-gaps-events:latest' }] }],
    ['a POST scalar where a list is expected', () => t.app.inject({ method: 'POST', url: '/v3/events?limit=1&offset=0', headers: t.auth, payload: { datasets: ['public-global-fishing-events:latest'], flags: 'CHINA' } }), 422,
      { statusCode: 422, error: 'Unprocessable Entity', messages: [{ title: 'flags', detail: 'flags must be a list of values, each an ISO3 flag code, got "CHINA"' }] }],
    ['an unknown event id', () => t.app.inject({ url: '/v3/events/0000?dataset=public-global-fishing-events:latest', headers: t.auth }), 404,
      { statusCode: 404, error: 'Not Found', messages: [{ title: 'eventId', detail: 'no event "0000" in public-global-fishing-events:v20240101' }] }],
    ['a body over the limit', () => t.app.inject({ method: 'POST', url: '/v3/events?limit=1&offset=0', headers: { ...t.auth, 'content-type': 'application/json' }, payload: JSON.stringify({ datasets: ['x'.repeat(3000)] }) }), 413,
      { statusCode: 413, error: 'Payload Too Large', messages: [{ title: 'body', detail: 'the request body is larger than the limit of 2048 bytes' }] }],
    ['limit=0', () => t.app.inject({ url: '/v3/events?datasets=public-global-fishing-events:latest&limit=0&offset=0', headers: t.auth }), 422,
      { statusCode: 422, error: 'Unprocessable Entity', messages: [{ title: 'limit', detail: 'limit must be an integer >= 1 and <= 2147483647, got "0"' }] }],
    ['a body-only parameter on GET', () => t.app.inject({ url: `${LIST}&geometry=x&duration=5`, headers: t.auth }), 422,
      { statusCode: 422, error: 'Unprocessable Entity', messages: [
        { title: 'geometry', detail: 'geometry is not a parameter of GET /v3/events; see /openapi.json for the accepted parameters' },
        { title: 'duration', detail: 'duration is not a parameter of GET /v3/events; did you mean minDuration?; see /openapi.json for the accepted parameters' },
      ] }],
    ['a misspelt filter', () => t.app.inject({ method: 'POST', url: '/v3/events?limit=1&offset=0', headers: t.auth, payload: { datasets: ['public-global-fishing-events:latest'], flag: ['CHN'] } }), 422,
      { statusCode: 422, error: 'Unprocessable Entity', messages: [{ title: 'flag', detail: 'flag is not a parameter of POST /v3/events; did you mean flags?; see /openapi.json for the accepted parameters' }] }],
    ['misspelt GET parameters, named in the client\'s own style', () => t.app.inject({ url: `${LIST}&flag=CHN&vesel-types=FISHING&start_date=2020-01-01`, headers: t.auth }), 422,
      { statusCode: 422, error: 'Unprocessable Entity', messages: [
        { title: 'flag', detail: 'flag is not a parameter of GET /v3/events; did you mean flags?; see /openapi.json for the accepted parameters' },
        { title: 'vesel-types', detail: 'vesel-types is not a parameter of GET /v3/events; did you mean vessel-types?; see /openapi.json for the accepted parameters' },
        { title: 'start_date', detail: 'start_date is not a parameter of GET /v3/events; did you mean start-date?; see /openapi.json for the accepted parameters' },
      ] }],
    ['an invalid JSON body', () => t.app.inject({ method: 'POST', url: '/v3/events?limit=1&offset=0', headers: { ...t.auth, 'content-type': 'application/json' }, payload: '{"datasets":' }), 422, undefined],
    ['a body that is not JSON', () => t.app.inject({ method: 'POST', url: '/v3/events?limit=1&offset=0', headers: { ...t.auth, 'content-type': 'text/plain' }, payload: 'datasets=all' }), 415,
      { statusCode: 415, error: 'Unsupported Media Type', messages: [{ title: 'Content-Type', detail: 'send the body as application/json' }] }],
    ['an invalid wire format header', () => t.app.inject({ url: LIST, headers: { ...t.auth, 'x-wire-format': 'xml' } }), 422,
      { statusCode: 422, error: 'Unprocessable Entity', messages: [{ title: 'X-Wire-Format', detail: 'X-Wire-Format must be one of spec, gfw, got "xml"' }] }],
  ];
  for (const [what, send, status, body] of cases) {
    test(`${what} gets ${status}${body ? ' with the exact body' : ''}`, async () => {
      const res = await send();
      assert.equal(res.statusCode, status);
      const json = res.json() as { statusCode: number; messages: { title: string }[] };
      if (body) assert.deepEqual(json, body);
      else assert.equal(json.statusCode, status);
    });
  }

  test('a token limited to fishing gets 403 on every route that reads another dataset', async () => {
    const auth = { authorization: `Bearer ${t.tokens.create('fishing-everywhere', ['public-global-fishing-events'])}` };
    const gaps = 'public-global-gaps-events:latest';
    const requests = [
      { url: `/v3/events?datasets=${gaps}&limit=1&offset=0` },
      { url: `/api/v3/events?datasets=public-global-fishing-events:latest,${gaps}&limit=1&offset=0` },
      { method: 'POST' as const, url: '/v3/events?limit=1&offset=0', payload: { datasets: [gaps] } },
      { url: `/v3/events/x?dataset=${gaps}` },
      { url: `/v3/events/stats?datasets=${gaps}&timeseries-interval=YEAR` },
      { method: 'POST' as const, url: '/v3/events/stats', payload: { datasets: [gaps], timeseriesInterval: 'YEAR' } },
    ];
    for (const request of requests) {
      const res = await t.app.inject({ ...request, headers: auth });
      assert.equal(res.statusCode, 403, request.url);
      assert.match((res.json() as { messages: { detail: string }[] }).messages[0]!.detail, /Insufficient permissions for .*public-global-gaps-events:latest datasets/);
    }
    assert.equal((await t.app.inject({ url: LIST, headers: auth })).statusCode, 200);
  });

  test('a revoked token is refused within a second', async () => {
    const secret = t.tokens.create('short-lived', ['public-*']);
    const auth = { authorization: `Bearer ${secret}` };
    assert.equal((await t.app.inject({ url: LIST, headers: auth })).statusCode, 200);
    t.tokens.revoke('short-lived');
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 3000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await t.app.inject({ url: LIST, headers: auth })).statusCode;
    }
    assert.equal(status, 401);
    assert.ok(Date.now() - revokedAt <= 1200, `refused after ${Date.now() - revokedAt} ms`);
  });

  test('401 names the Bearer scheme in WWW-Authenticate', async () => {
    for (const headers of [{}, { authorization: 'Token abc' }, { authorization: 'Bearer ve_nope' }]) {
      const res = await t.app.inject({ url: LIST, headers });
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="vessel-events"');
    }
  });

  test('every JSON response, streamed, plain, error or plugin\'s, is application/json; charset=utf-8', async () => {
    const requests = [
      { url: LIST, headers: t.auth },
      { method: 'POST' as const, url: '/v3/events?limit=1&offset=0', headers: t.auth, payload: { datasets: ['public-global-fishing-events:latest'] } },
      { url: '/v3/events/stats?datasets=public-global-fishing-events:latest&timeseries-interval=YEAR', headers: t.auth },
      { method: 'POST' as const, url: '/v3/events/stats', headers: t.auth, payload: { datasets: ['public-global-fishing-events:latest'], timeseriesInterval: 'YEAR' } },
      { url: '/v3/events/0000?dataset=public-global-fishing-events:latest', headers: t.auth },
      { url: LIST },
      { url: `${LIST}&limit=0`, headers: t.auth },
      { url: '/nowhere' },
      { url: '/healthz' },
      { url: '/readyz' },
      { url: '/openapi.json' },
    ];
    const record = fixture.records[0]!;
    const datasetOf = { fishing: 'public-global-fishing-events', encounter: 'public-global-encounters-events', loitering: 'public-global-loitering-events', port_visit: 'public-global-port-visits-events', gap: 'public-global-gaps-events' }[record.kind];
    requests.push({ url: `/v3/events/${record.id}?dataset=${datasetOf}:latest`, headers: t.auth });
    for (const request of requests) {
      const res = await t.app.inject(request);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', `${request.url}: ${res.statusCode}`);
    }
  });

  test('422 lists one message per bad parameter', async () => {
    const res = await t.app.inject({ url: '/v3/events?datasets=public-global-fishing-events:latest&limit=0&offset=-2&types=WHALING&flags-operator=maybe', headers: t.auth });
    assert.equal(res.statusCode, 422);
    assert.deepEqual((res.json() as { messages: { title: string }[] }).messages.map((m) => m.title).sort(), ['flags-operator', 'limit', 'offset', 'types']);
  });

  test('a request reaching a store that is closing is a 503 with Retry-After, not a 500', async () => {
    const closing = await startTestApp({ fixture });
    await closing.store.close();
    const res = await closing.app.inject({ url: LIST, headers: closing.auth });
    await closing.app.close();
    assert.equal(res.statusCode, 503);
    assert.ok(Number(res.headers['retry-after']) >= 1);
    assert.match((res.json() as { messages: { detail: string }[] }).messages[0]!.detail, /closing/);
  });

  test('an unexpected failure is a 500 carrying only the request id', async () => {
    const broken = await startTestApp({ fixture });
    // A fault the service did not foresee (a programming error in the store), not an engine state it
    // names: a closed store answers 503 "server is closing" (test/reliability/closing.test.ts).
    broken.store.listPage = () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'rows')"));
    const res = await broken.app.inject({ url: LIST, headers: broken.auth });
    await broken.app.close();
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), {
      statusCode: 500, error: 'Internal Server Error', messages: [{ title: 'Internal Server Error', detail: `request id ${res.headers['x-request-id']}` }],
    });
  });
});
