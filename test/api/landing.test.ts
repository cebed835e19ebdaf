// GET /: links for clients (JSON) and a page for browsers, both without a token.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

describe('the landing page', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ events: 300, seed: 3 });
  });
  after(() => t.close());

  test('a client gets JSON links that lead somewhere, and the loaded datasets', async () => {
    const res = await t.app.inject({ url: '/' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const body = res.json() as { links: { rel: string; href: string }[]; datasets: { dataset: string; rows: number }[]; latest: string[] };
    assert.deepEqual(body.links.map((l) => l.rel), ['service-doc', 'explorer', 'service-desc', 'data', 'status']);
    for (const link of body.links) {
      const status = (await t.app.inject({ url: link.href })).statusCode;
      // The events need a token: a 401 says so; every other link answers as it is.
      assert.equal(status, link.rel === 'data' ? 401 : 200, link.href);
    }
    const ready = (await t.app.inject({ url: '/readyz' })).json() as { datasets: unknown[]; latest: string[] };
    assert.deepEqual(body.datasets, ready.datasets);
    assert.deepEqual(body.latest, ready.latest);
    assert.equal(body.datasets.reduce((n, d) => n + d.rows, 0), t.fixture.records.length);
  });

  test('a browser gets a page with the same links and datasets', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', host: 'events.example.org' } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<title>Vessel Activity Events Service<\/title>/);
    for (const href of ['/docs/', '/explorer/', '/openapi.json', '/readyz']) assert.ok(res.body.includes(`href="${href}"`), href);
    const json = (await t.app.inject({ url: '/' })).json() as { latest: string[] };
    for (const dataset of json.latest) assert.ok(res.body.includes(`<code>${dataset}</code> (latest)`), dataset);
    assert.ok(res.body.includes('http://events.example.org/v3/events?datasets='), 'the first request names this server');
  });

  test('what the request carries is escaped in the page', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'text/html', host: 'x"><script>alert(1)</script>' } });
    assert.equal(res.statusCode, 200);
    assert.ok(!res.body.includes('<script>alert(1)</script>'));
    assert.ok(res.body.includes('&#60;script&#62;alert(1)'));
  });
});
