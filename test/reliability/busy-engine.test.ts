// Under a burst, every answer is whole or a JSON error sent before any byte of a page: the engine
// is held (and the count and the first chunk are read) before the headers. Past the waiting limit a
// request gets a 503 with Retry-After at once; a lookup by id keeps a connection of its own.
import assert from 'node:assert/strict';
import autocannon from 'autocannon';
import { get } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { DATASET_ID_BY_KIND } from '../../src/domain/kinds.ts';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

const ALL = Object.values(DATASET_ID_BY_KIND).map((d) => `${d}:latest`).join(',');

describe('a busy engine', () => {
  let t: TestApp;
  before(async () => {
    // Two connections (one heavy, one kept for lookups), two heavy queries may wait.
    t = await startTestApp({ events: 3000, seed: 7, store: { connections: 2, maxWaiting: 2, queryTimeoutMs: 0 } });
  });
  after(() => t.close());

  test('a burst of 24 big pages: each is a whole page or a JSON 503 with Retry-After, and a lookup by id is served meanwhile', async () => {
    const record = t.fixture.records.find((r) => r.kind === 'fishing')!;
    const pages = Array.from({ length: 24 }, (_, i) => t.app.inject({ url: `/v3/events?datasets=${ALL}&limit=99999&offset=${i % 2 ? 0 : 1200}&sort=-end`, headers: t.auth }));
    const byId = t.app.inject({ url: `/v3/events/${record.id}?dataset=public-global-fishing-events:latest`, headers: t.auth });
    const answers = await Promise.all(pages);
    const statuses = answers.map((r) => r.statusCode);
    assert.ok(statuses.every((s) => s === 200 || s === 503), statuses.join(' '));
    assert.ok(statuses.filter((s) => s === 503).length >= 20, `only ${statuses.filter((s) => s === 503).length} refused: the waiting limit does not hold`);
    for (const res of answers) {
      const body = JSON.parse(res.body) as { entries?: unknown[]; total?: number; offset?: number; messages?: { detail: string }[] };
      if (res.statusCode === 200) {
        assert.equal(body.entries!.length, body.total! - body.offset!);
      } else {
        assert.equal(res.headers['retry-after'], '1');
        assert.match(body.messages![0]!.detail, /the server is busy: 2 queries are waiting for the engine; retry in a moment/);
      }
    }
    assert.equal((await byId).statusCode, 200);
  });

  test('clients that leave mid-page, or while their page is prepared, leave the engine free for the next ones', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const path = `/v3/events?datasets=${ALL}&limit=99999&offset=0&sort=-end`;
    const leave = (afterFirstChunk: boolean) => new Promise<void>((resolve) => {
      const req = get({ port, host: '127.0.0.1', path, headers: t.auth }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => resolve());
      if (!afterFirstChunk) setImmediate(() => req.destroy());
    });
    // Several times the pool's two connections, both ways of leaving...
    for (let i = 0; i < 8; i++) await Promise.all([leave(true), leave(false), leave(true)]);
    // ...and a load generator that stops with requests in flight (it closes their connections).
    await autocannon({ url: `http://127.0.0.1:${port}/v3/events?datasets=${ALL}&limit=100&offset=0&sort=-start`, connections: 8, duration: 1, headers: t.auth });
    // The requests it left may still be queued (a 503 says so, with Retry-After); a stalled engine
    // would never answer again.
    let res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: t.auth, signal: AbortSignal.timeout(15_000) });
    for (let tries = 0; res.status === 503 && tries < 10; tries++) {
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after')) * 1000));
      res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: t.auth, signal: AbortSignal.timeout(15_000) });
    }
    assert.equal(res.status, 200);
    const body = (await res.json()) as { entries: unknown[]; total: number };
    assert.equal(body.entries.length, body.total);
  });

  test('a page whose connection is not free within the time limit is a JSON 504 before any byte', async () => {
    const slow = await startTestApp({ fixture: t.fixture, store: { connections: 2, maxWaiting: 8, queryTimeoutMs: 1 } });
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, () => slow.app.inject({ url: `/v3/events?datasets=${ALL}&limit=99999&offset=0&sort=-end`, headers: slow.auth })));
      for (const res of answers) {
        const body = JSON.parse(res.body) as { entries?: unknown[]; total?: number; statusCode?: number };
        if (res.statusCode === 200) assert.equal(body.entries!.length, body.total);
        else assert.deepEqual([res.statusCode, body.statusCode], [504, 504]);
      }
      assert.ok(answers.some((r) => r.statusCode === 504), 'no query ran past a 1 ms limit');
    } finally {
      await slow.close();
    }
  });
});
