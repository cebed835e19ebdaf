// /metrics (--metrics): absent unless enabled; with a token, Prometheus' text format with the
// requests by route and status, the store's query times by class, the engine's connections, the
// loaded versions and rows, and the process's memory.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, TEST_ENGINE, type TestApp } from '../helpers/fixture.ts';

/** A sample's value: `name{labels} value`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inside = /\{([^}]*)\}/.exec(line)?.[1] ?? '';
    if (Object.entries(labels).every(([k, v]) => inside.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('/metrics', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ events: 3000, seed: 7, metrics: true });
  });
  after(() => t.close());

  test('is not served unless enabled', async () => {
    const plain = await startTestApp({ fixture: t.fixture });
    try {
      assert.equal((await plain.app.inject({ url: '/metrics', headers: plain.auth })).statusCode, 404);
    } finally {
      await plain.close();
    }
  });

  test('needs a token, as the API does', async () => {
    assert.equal((await t.app.inject({ url: '/metrics' })).statusCode, 401);
    assert.equal((await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer nope' } })).statusCode, 401);
  });

  test('counts requests by route and status, times the store by class, and reports the engine, the data and the process', async () => {
    const list = '/v3/events?datasets=public-global-fishing-events:latest&limit=5&offset=0';
    for (let i = 0; i < 3; i++) assert.equal((await t.app.inject({ url: list, headers: t.auth })).statusCode, 200);
    const record = t.fixture.records.find((r) => r.kind === 'fishing')!;
    assert.equal((await t.app.inject({ url: `/v3/events/${record.id}?dataset=public-global-fishing-events:latest`, headers: t.auth })).statusCode, 200);
    assert.equal((await t.app.inject({ url: '/v3/events/stats?datasets=public-global-fishing-events:latest&timeseries-interval=YEAR', headers: t.auth })).statusCode, 200);
    assert.equal((await t.app.inject({ url: '/v3/events?limit=1&offset=0', headers: t.auth })).statusCode, 422);

    const res = await t.app.inject({ url: '/metrics', headers: t.auth });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const text = res.body;
    assert.equal(sample(text, 'vessel_events_http_requests_total', { route: '/v3/events', method: 'GET', status: '200' }), 3);
    assert.equal(sample(text, 'vessel_events_http_requests_total', { route: '/v3/events', method: 'GET', status: '422' }), 1);
    assert.equal(sample(text, 'vessel_events_http_requests_total', { route: '/v3/events/:eventId', status: '200' }), 1);
    assert.equal(sample(text, 'vessel_events_http_request_duration_seconds_count', { route: '/v3/events', status: '200' }), 3);
    // A list's total and page are asked for together (the page may be found while it is counted).
    assert.equal(sample(text, 'vessel_events_query_duration_seconds_count', { class: 'list' }), 3);
    assert.equal(sample(text, 'vessel_events_query_duration_seconds_count', { class: 'by_id' }), 1);
    assert.equal(sample(text, 'vessel_events_query_duration_seconds_count', { class: 'stats' }), 1);
    assert.ok(sample(text, 'vessel_events_engine_connections', { state: 'size' })! >= 1);
    assert.equal(sample(text, 'vessel_events_engine_connections', { state: 'waiting' }), 0);
    const rows = t.fixture.records.filter((r) => r.kind === 'fishing').length;
    assert.equal(sample(text, 'vessel_events_loaded_rows', { dataset: 'public-global-fishing-events:v20240101' }), rows);
    assert.equal(sample(text, 'vessel_events_loaded_versions'), 5);
    assert.ok(sample(text, 'vessel_events_process_resident_memory_bytes')! > 10_000_000);
    // The embedded engine's buffer pool holds at least the blocks the requests above read; a
    // PostgreSQL server's memory is its own.
    const engineMemory = sample(text, 'vessel_events_engine_memory_bytes', { engine: 'duckdb' });
    if (TEST_ENGINE === 'duckdb') assert.ok(engineMemory! > 100_000, `engine memory ${engineMemory}`);
    else assert.equal(engineMemory, undefined);
    // An unknown URL is one label, whatever was asked.
    await t.app.inject({ url: '/no/such/thing/1', headers: t.auth });
    await t.app.inject({ url: '/no/such/thing/2', headers: t.auth });
    const after = (await t.app.inject({ url: '/metrics', headers: t.auth })).body;
    assert.equal(sample(after, 'vessel_events_http_requests_total', { route: 'unmatched', status: '404' }), 2);
  });
});
