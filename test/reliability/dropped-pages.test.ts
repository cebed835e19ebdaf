// Requests cut short (clients gone mid-page, queries interrupted at the time limit) leave nothing
// held in the engine: the requests after them get their whole answers. An engine that reaches its
// memory limit while other queries hold memory answers a JSON 503 naming the limit, never a 500.
// The engine's memory is kept small here, so that what one dropped page's sort held matters.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { DATASET_ID_BY_KIND } from '../../src/domain/kinds.ts';
import { startTestApp, TEST_ENGINE, type TestApp } from '../helpers/fixture.ts';
import { caseCount } from '../helpers/size.ts';

const ALL = Object.values(DATASET_ID_BY_KIND).map((d) => `${d}:latest`);
/** Rounds of clients leaving mid-page, each followed by one reading its page whole. */
const ROUNDS = caseCount('DROPPED_PAGE_ROUNDS', 24, 8);
const THREE = ['public-global-fishing-events:latest', 'public-global-port-visits-events:latest', 'public-global-gaps-events:latest'].join(',');
const SORTS = ['start', '-start', 'end', '-end'];
/** Bytes after which a round's client leaves: at once, within the first chunk, later. */
const CUTS = [1, 2048, 50_000, 400_000];

interface Answer {
  status: number;
  body: string;
}

/** One request over a real socket; with `leaveAfter`, the client closes it once that many bytes came. */
function ask(port: number, auth: Record<string, string>, path: string, options: { body?: object; leaveAfter?: number } = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const headers = { ...auth, ...(options.body ? { 'content-type': 'application/json' } : {}) };
    const req = request({ host: '127.0.0.1', port, path, method: options.body ? 'POST' : 'GET', headers }, (res) => {
      const parts: Buffer[] = [];
      let bytes = 0;
      const done = () => resolve({ status: res.statusCode!, body: Buffer.concat(parts).toString('utf8') });
      res.on('data', (d: Buffer) => {
        parts.push(d);
        bytes += d.length;
        if (options.leaveAfter !== undefined && bytes >= options.leaveAfter) {
          req.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.on('error', () => resolve({ status: -1, body: '' }));
    if (options.body) req.write(JSON.stringify(options.body));
    req.end();
  });
}

function statuses(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

describe('requests cut short', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    // 16 MB: a page of every entry of three datasets sorts about 3.5 MB here, so the pool's three
    // heavy connections each holding a dropped page's sort leave no room for a fourth.
    t = await startTestApp({ events: 3000, seed: 7, metrics: true, store: { memoryLimit: '16MB', queryTimeoutMs: 2000 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  test('after a burst of heavy requests and rounds of dropped pages, every round answers 200', async () => {
    const burst = await Promise.all(Array.from({ length: 24 }, (_, i) =>
      i % 5 === 4
        ? ask(port, t.auth, '/v3/events/stats', { body: { datasets: ALL, startDate: '2012-01-01', endDate: '2026-01-01', timeseriesInterval: 'DAY', groupBy: 'FLAG', includes: ['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED'] } })
        : ask(port, t.auth, `/v3/events?datasets=${ALL.join(',')}&limit=99999&offset=${(i % 3) * 100}&sort=${SORTS[i % 4]}`)));
    // A burst may be refused (503) or cut at the time limit (504), in JSON; never a 500.
    assert.ok(burst.every((a) => [200, 503, 504].includes(a.status)), JSON.stringify(statuses(burst)));

    const leavers: Answer[] = [];
    const rounds: Answer[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const path = round % 5 === 4 ? '/v3/events?datasets=public-global-fishing-events:latest&limit=99999&offset=100' : `/v3/events?datasets=${THREE}&limit=99999&offset=0&sort=${SORTS[round % 4]}`;
      // Three clients leave at once, so that each heavy connection is given back with its page
      // unread. Their own answers compete with each other for the small limit: JSON, never a 500...
      leavers.push(...(await Promise.all([0, 1, 2].map((k) => ask(port, t.auth, path, { leaveAfter: CUTS[(round + k) % CUTS.length] })))));
      // ...and the client that comes after them, alone, reads its page whole.
      const whole = await ask(port, t.auth, `/v3/events?datasets=${THREE}&limit=99999&offset=0&sort=${SORTS[(round + 1) % 4]}`);
      rounds.push(whole);
      if (whole.status === 200) {
        const page = JSON.parse(whole.body) as { entries: unknown[]; total: number };
        assert.equal(page.entries.length, page.total, `round ${round}: the page is not whole`);
      }
    }
    assert.ok(leavers.every((a) => [-1, 200, 503, 504].includes(a.status)), JSON.stringify(statuses(leavers)));
    assert.deepEqual(statuses(rounds), { 200: rounds.length }, rounds.filter((a) => a.status !== 200).map((a) => a.body.slice(0, 300)).join('\n'));
  });

  test('a query past the memory limit is a JSON 503 with Retry-After that names the limit, and is counted', { skip: TEST_ENGINE !== 'duckdb' && 'the memory limit is the embedded engine\'s' }, async () => {
    // 6 MB holds the catalog, not the sort of every entry of all five datasets (sorted with their
    // entries here: sorted on their columns alone, as a list past 1,000 rows is, they fit).
    const small = await startTestApp({ fixture: t.fixture, metrics: true, store: { memoryLimit: '6MB', sortedWithEntriesMax: 1e9 } });
    try {
      const res = await small.app.inject({ url: `/v3/events?datasets=${ALL.join(',')}&limit=99999&offset=0&sort=-end`, headers: small.auth });
      assert.equal(res.statusCode, 503, res.body.slice(0, 300));
      assert.equal(res.headers['retry-after'], '2');
      const body = JSON.parse(res.body) as { statusCode: number; messages: { detail: string }[] };
      assert.equal(body.statusCode, 503);
      assert.match(body.messages[0]!.detail, /the query alone needs more than the engine's memory limit of 6MB \(--memory-limit\); narrow its filters, or raise --memory-limit/);
      const metrics = (await small.app.inject({ url: '/metrics', headers: small.auth })).body;
      assert.match(metrics, /^vessel_events_engine_out_of_memory_total 1$/m);
    } finally {
      await small.close();
    }
  });
});
