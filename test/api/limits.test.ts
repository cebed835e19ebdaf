// Rate limits per token (the server's default, or a token's own), answered in our shape with the
// x-ratelimit headers; and compressed answers, streamed pages included.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

const LIST = '/v3/events?datasets=public-global-fishing-events:latest&limit=2&offset=0';

describe('rate limits and compression', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ events: 3000, seed: 7, rateLimitPerMinute: 5 });
  });
  after(() => t.close());

  test('a token gets the server\'s limit, counted down in the headers, then a 429 in our shape with Retry-After', async () => {
    const auth = { authorization: `Bearer ${t.tokens.create('limited', ['public-*'])}` };
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ url: LIST, headers: auth });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-ratelimit-limit'], '5');
      assert.equal(res.headers['x-ratelimit-remaining'], String(4 - i));
      assert.ok(Number(res.headers['x-ratelimit-reset']) > 0);
    }
    const refused = await t.app.inject({ url: LIST, headers: auth });
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal(refused.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(refused.json(), { statusCode: 429, error: 'Too Many Requests', messages: [{ title: 'rate limit', detail: 'this token may make 5 requests per minute; retry in 1 minute' }] });
    // Another token is counted apart.
    assert.equal((await t.app.inject({ url: LIST, headers: { authorization: `Bearer ${t.tokens.create('other', ['public-*'])}` } })).statusCode, 200);
  });

  test('a token\'s own limit wins over the server\'s, and 0 is no limit', async () => {
    const strict = { authorization: `Bearer ${t.tokens.create('strict', ['public-*'], 2)}` };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.app.inject({ url: LIST, headers: strict })).statusCode);
    assert.deepEqual(statuses, [200, 200, 429]);
    const free = { authorization: `Bearer ${t.tokens.create('free', ['public-*'], 0)}` };
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({ url: LIST, headers: free });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-ratelimit-limit'], undefined);
    }
  });

  test('gzip and brotli when accepted, on a streamed page too; the same JSON once decoded', async () => {
    const auth = { authorization: `Bearer ${t.tokens.create('reader', ['public-*'], 0)}` };
    const url = '/v3/events?datasets=public-global-fishing-events:latest&limit=99999&offset=0';
    const plain = await t.app.inject({ url, headers: auth });
    assert.equal(plain.headers['content-encoding'], undefined);
    for (const [encoding, decode] of [['gzip', gunzipSync], ['br', brotliDecompressSync]] as const) {
      const res = await t.app.inject({ url, headers: { ...auth, 'accept-encoding': encoding } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-encoding'], encoding);
      const body = decode(res.rawPayload).toString('utf8');
      assert.ok(res.rawPayload.length < body.length / 4, `${encoding}: ${res.rawPayload.length} of ${body.length} bytes`);
      assert.deepEqual(JSON.parse(body), plain.json());
    }
  });
});
