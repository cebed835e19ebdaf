// One request must not freeze the server: buffers run in a worker thread with a deadline, and a
// buffer wider than the Earth is refused before any work. (A 4 KB body with buffer-value 1e308 held
// the event loop, /healthz included, for minutes.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

/** A small ring around (lon, lat). */
function ring(lon: number, lat: number, r: number, sides = 100): number[][] {
  const points = Array.from({ length: sides }, (_, i) => {
    const a = (2 * Math.PI * i) / sides;
    return [lon + r * Math.cos(a), lat + r * Math.sin(a) * (1 + 0.3 * Math.sin(5 * a))];
  });
  return [...points, points[0]!];
}

describe('hostile geometry', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ events: 3000, seed: 7, bufferDeadlineMs: 300 });
  });
  after(() => t.close());

  const post = (payload: object) => t.app.inject({ method: 'POST', url: '/v3/events?limit=1&offset=0', headers: t.auth, payload: { datasets: ['public-global-fishing-events:latest'], ...payload } });

  for (const [unit, value] of [['KILOMETERS', 1e308], ['NAUTICALMILES', 20000], ['DEGREES', 181], ['RADIANS', -4], ['MILES', 1e300]] as const) {
    test(`a ${value} ${unit} buffer is a 422 naming buffer-value, before any work`, async () => {
      const res = await post({ geometry: { type: 'Polygon', coordinates: [ring(0, 0, 3)] }, 'buffer-value': value, 'buffer-unit': unit });
      assert.equal(res.statusCode, 422, res.body);
      const [message] = (res.json() as { messages: { title: string; detail: string }[] }).messages;
      assert.equal(message!.title, 'buffer-value');
      assert.match(message!.detail, /no buffer is wider than the Earth|must be a number >= /);
    });
  }

  test('a buffer past its deadline is a 413, and the server answers others meanwhile', async () => {
    // A thousand small polygons: seconds of buffering, far past the 300 ms deadline of this app.
    // They cover the West African grounds, where events lie: a buffer out of reach of every event
    // is not computed at all.
    const features = Array.from({ length: 1000 }, (_, i) => ({
      type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring((i % 40) - 30, Math.floor(i / 40) + 2, 0.05, 8)] },
    }));
    const order: string[] = [];
    const costly = post({ geometry: { type: 'FeatureCollection', features }, bufferValue: 1, bufferUnit: 'KILOMETERS' }).then((res) => {
      order.push('buffer');
      return res;
    });
    const health = t.app.inject({ url: '/healthz' }).then((res) => {
      order.push('healthz');
      return res;
    });
    const [res, healthz] = await Promise.all([costly, health]);
    assert.equal(healthz.statusCode, 200);
    assert.deepEqual(order, ['healthz', 'buffer'], 'the health check waited for the buffer');
    assert.equal(res.statusCode, 413, res.body);
    assert.match((res.json() as { messages: { detail: string }[] }).messages[0]!.detail, /too costly to compute \(buffering took longer than 0.3 s\)/);
    // The next buffer (on the Senegal shelf, which holds events) gets a fresh worker.
    const small = await post({ geometry: { type: 'Polygon', coordinates: [ring(-18.1, 13.9, 1, 8)] }, bufferValue: 10, bufferUnit: 'NAUTICALMILES' });
    assert.equal(small.statusCode, 200, small.body);
    assert.equal((small.json() as { metadata: { area: { outOfReach?: unknown } } }).metadata.area.outOfReach, undefined, 'the buffer was computed');
    assert.ok((small.json() as { total: number }).total > 0);
  });
});
