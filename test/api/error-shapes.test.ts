// Every error, from every layer (the HTTP parser, the router, plugins, body parsing, validation),
// is our JSON shape with the right status, and none is a 500 that a few bytes can provoke.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

type Shape = { statusCode: number; error: string; messages: { title: string; detail: string }[] };

function assertOurShape(status: number, contentType: string | undefined, body: string, where: string): Shape {
  assert.equal(contentType, 'application/json; charset=utf-8', where);
  const json = JSON.parse(body) as Shape;
  assert.equal(json.statusCode, status, where);
  assert.equal(typeof json.error, 'string', where);
  assert.ok(json.messages.length > 0 && json.messages.every((m) => typeof m.title === 'string' && typeof m.detail === 'string'), where);
  assert.doesNotMatch(body, /at .+\(.+:\d+:\d+\)|SELECT|FST_ERR/, `${where}: a stack trace, SQL or framework code leaked`);
  return json;
}

describe('error shapes from every layer', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await startTestApp({ events: 3000, seed: 7 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  /** A request written byte for byte: fetch would normalise `..` and refuse what clients send. */
  const raw = (request: string) => new Promise<{ status: number; contentType: string | undefined; body: string }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = out.split('\r\n\r\n');
      const lines = head!.split('\r\n');
      resolve({
        status: Number(lines[0]!.split(' ')[1]),
        contentType: lines.find((l) => /^content-type:/i.test(l))?.split(': ')[1],
        body: rest.join('\r\n\r\n'),
      });
    });
  });
  const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`;

  const rawCases: [string, string, number][] = [
    ['bad percent-encoding in the path', get('/v3/events/%E0%A4%A'), 400],
    ['a path escaping the docs folder', get('/docs/static/../../package.json'), 403],
    ['a path segment over 100 characters', get(`/v3/events/${'e'.repeat(200)}?dataset=public-global-fishing-events:latest`), 414],
    ['a request line over 16 KB', get(`/v3/events?flags=${'A'.repeat(20_000)}`), 431],
    ['bytes that are not HTTP', 'HELLO THERE\r\n\r\n', 400],
  ];
  for (const [what, request, status] of rawCases) {
    test(`${what}: ${status} in our shape`, async () => {
      const res = await raw(request);
      assert.equal(res.status, status);
      assertOurShape(status, res.contentType, res.body, what);
    });
  }

  test('a body nested 3,000 deep is a 422 naming body, not a stack overflow', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 3000; i++) deep = [deep];
    for (const member of ['datasets', 'geometry', 'bogus']) {
      const res = await t.app.inject({ method: 'POST', url: '/v3/events?limit=1&offset=0', headers: { ...t.auth, 'content-type': 'application/json' }, payload: JSON.stringify({ datasets: ['public-global-fishing-events:latest'], [member]: deep }) });
      const json = assertOurShape(422, res.headers['content-type'] as string, res.body, member);
      assert.deepEqual(json.messages, [{ title: 'body', detail: 'the body nests deeper than 32 levels' }]);
    }
  });

  test('prototype names are plain unknown parameters, never a duplicate or a dataset', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const res = await t.app.inject({ url: `/v3/events?datasets=public-global-fishing-events:latest&limit=1&offset=0&${name}=1`, headers: t.auth });
      const json = assertOurShape(422, res.headers['content-type'] as string, res.body, name);
      assert.deepEqual(json.messages, [{ title: name, detail: `${name} is not a parameter of GET /v3/events; see /openapi.json for the accepted parameters` }]);
    }
    for (const dataset of ['__proto__', 'valueOf', 'constructor']) {
      const res = await t.app.inject({ url: `/v3/events?datasets=${dataset}&limit=1&offset=0`, headers: t.auth });
      const json = assertOurShape(404, res.headers['content-type'] as string, res.body, dataset);
      assert.match(json.messages[0]!.detail, new RegExp(`^unknown dataset "${dataset}"`));
    }
    const body = await t.app.inject({ method: 'POST', url: '/v3/events?limit=1&offset=0', headers: { ...t.auth, 'content-type': 'application/json' }, payload: '{"datasets":["public-global-fishing-events:latest"],"geometry":{"__proto__":{"type":"Polygon"}}}' });
    assert.deepEqual(assertOurShape(422, body.headers['content-type'] as string, body.body, 'body').messages, [{ title: 'body', detail: 'the body has a member named "__proto__", which no parameter is' }]);
  });

  test('an unknown parameter of 100,000 characters is named, shortened', async () => {
    const res = await t.app.inject({ url: `/v3/events?datasets=public-global-fishing-events:latest&limit=1&offset=0&${'x'.repeat(100_000)}=1`, headers: t.auth });
    const json = assertOurShape(422, res.headers['content-type'] as string, res.body, 'long name');
    assert.ok(res.body.length < 1000, `${res.body.length} bytes`);
    assert.match(json.messages[0]!.title, /^x{80}\.\.\. \(100000 characters\)$/);
  });

  test('OPTIONS without Origin is an empty 204, as a preflight, not a plain-text 400', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/v3/events' });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
  });
});
