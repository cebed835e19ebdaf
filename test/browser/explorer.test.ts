// The map explorer in a real browser: Debian's chromium, headless, driven by puppeteer-core, WebGL
// by SwiftShader. The page is served by the app on a real port; each query it runs is checked
// against the API's own answer for the same request. A screenshot goes to test-output/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { launchChromium, SKIP_WITHOUT_CHROMIUM } from '../helpers/browser.ts';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

const OUTPUT = join(import.meta.dirname, '../../test-output');

type Explorer = {
  ready: boolean; total: number | null; shown: number; box: number[] | null; timeseries: unknown[]; tileUrl: string | null; entries: Map<string, unknown>;
  vessel: { id: string; loaded: boolean } | null;
  map: { jumpTo(o: object): void; queryRenderedFeatures(o: object): { properties: { id: string }; geometry: { coordinates: [number, number] } }[]; project(c: [number, number]): { x: number; y: number }; loaded(): boolean; getSource(id: string): { getData(): Promise<{ features: unknown[] }> } | undefined };
};
declare global { interface Window { explorer: Explorer } }

describe('the map explorer in a browser', { skip: SKIP_WITHOUT_CHROMIUM }, () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const errors: string[] = [];

  /** The list's total for the same body, asked of the API directly. */
  const apiTotal = async (body: object) => {
    const res = await t.app.inject({ method: 'POST', url: '/v3/events?limit=1&offset=0', headers: t.auth, payload: body });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { total: number }).total;
  };
  const run = async () => {
    await page.evaluate(() => { window.explorer.total = null; });
    await page.click('#run');
    await page.waitForFunction(() => window.explorer.total !== null || document.querySelector('#status')!.classList.contains('error'), { timeout: 30000 });
    assert.equal(await page.$eval('#status', (e) => e.classList.contains('error')), false, await page.$eval('#status', (e) => e.textContent ?? ''));
  };
  const rendered = () => page.waitForFunction(() => window.explorer.map.loaded() && window.explorer.map.queryRenderedFeatures({ layers: ['events'] }).length > 0, { timeout: 30000 });

  before(async () => {
    t = await startTestApp({ events: 3000, seed: 7 });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    // MapLibre cancels the tiles it no longer needs when the view or the source changes.
    page.on('requestfailed', (r) => {
      if (!(r.url().includes('/v3/events/tiles/') && r.failure()?.errorText === 'net::ERR_ABORTED')) errors.push(`${r.url()} ${r.failure()?.errorText}`);
    });
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(`${origin}/explorer`);
    await page.waitForFunction(() => window.explorer?.ready === true && document.querySelectorAll('#datasets input').length > 0, { timeout: 30000 });
    await page.type('#token', t.auth.authorization.replace('Bearer ', ''));
    await page.$eval('#start', (e) => { (e as HTMLInputElement).value = '2017-01-01'; });
    await page.$eval('#end', (e) => { (e as HTMLInputElement).value = '2025-01-01'; });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('a query draws its events on the map, gives the total, and charts the time series', async () => {
    await run();
    const body = { datasets: ['public-global-fishing-events:latest'], startDate: '2017-01-01', endDate: '2025-01-01' };
    const total = await apiTotal(body);
    const shown = await page.evaluate(() => ({ total: window.explorer.total, shown: window.explorer.shown, buckets: window.explorer.timeseries.length }));
    assert.equal(shown.total, total);
    assert.equal(shown.shown, Math.min(total, 2000));
    // Eight years are charted by year.
    assert.ok(shown.buckets >= 6 && shown.buckets <= 8, `${shown.buckets} years charted`);
    assert.match(await page.$eval('#chart', (e) => e.textContent ?? ''), /Events per year/);
    await rendered();
    // The chart is drawn: its canvas holds painted pixels.
    const painted = await page.$eval('#chart canvas', (c) => {
      const canvas = c as HTMLCanvasElement;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
      return n;
    });
    assert.ok(painted > 500, `${painted} pixels painted in the chart`);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'explorer.png') });
  });

  test('a click on a point shows its entry', async () => {
    await rendered();
    const target = await page.evaluate(() => {
      const f = window.explorer.map.queryRenderedFeatures({ layers: ['events'] })[0]!;
      const p = window.explorer.map.project(f.geometry.coordinates);
      const box = document.getElementById('map')!.getBoundingClientRect();
      return { id: f.properties.id, x: box.left + p.x, y: box.top + p.y };
    });
    await page.mouse.click(target.x, target.y);
    await page.waitForFunction(() => !document.getElementById('entry')!.hidden, { timeout: 10000 });
    const entry = JSON.parse(await page.$eval('#entry-json', (e) => e.textContent ?? '')) as { id: string; type: string };
    assert.equal(entry.type, 'fishing');
    assert.ok(typeof entry.id === 'string' && entry.id.length > 0);
    await page.click('#entry-close');
  });

  test('every matching event from the vector tiles: the world tile adds up to the total; zoomed in, each event, and a click opens it', async () => {
    const tileUrl = await page.evaluate(() => window.explorer.tileUrl);
    assert.ok(tileUrl, 'the explorer asks for tiles');
    const world = await t.app.inject({ url: new URL(tileUrl.replace('{z}/{x}/{y}', '0/0/0')).pathname + new URL(tileUrl.replace('{z}/{x}/{y}', '0/0/0')).search, headers: t.auth });
    assert.equal(world.statusCode, 200, world.body);
    const cells = new VectorTile(new Pbf(world.rawPayload)).layers['cells']!;
    const counted = Array.from({ length: cells.length }, (_, i) => Number(cells.feature(i).properties['count'])).reduce((a, b) => a + b, 0);
    assert.equal(counted, await page.evaluate(() => window.explorer.total));
    // Density at the first zoom.
    await page.waitForFunction(() => window.explorer.map.loaded() && window.explorer.map.queryRenderedFeatures({ layers: ['tile-cells'] }).length > 0, { timeout: 30000 });
    // Zoomed in on an event: the events themselves; a click on one the page did not list asks the API for it.
    const [lon, lat] = await page.evaluate(() => {
      const e = [...window.explorer.entries.values()][0] as { position: { lon: number; lat: number } };
      return [e.position.lon, e.position.lat];
    });
    await page.evaluate((center) => { window.explorer.map.jumpTo({ center, zoom: 11 }); }, [lon, lat]);
    await page.waitForFunction(() => window.explorer.map.loaded() && window.explorer.map.queryRenderedFeatures({ layers: ['tile-events'] }).length > 0, { timeout: 30000 });
    const target = await page.evaluate(() => {
      window.explorer.entries.clear();
      const f = window.explorer.map.queryRenderedFeatures({ layers: ['tile-events'] })[0]!;
      const p = window.explorer.map.project(f.geometry.coordinates);
      const box = document.getElementById('map')!.getBoundingClientRect();
      return { id: f.properties.id, x: box.left + p.x, y: box.top + p.y };
    });
    await page.mouse.click(target.x, target.y);
    await page.waitForFunction((id) => !document.getElementById('entry')!.hidden && (document.getElementById('entry-json')!.textContent ?? '').includes(id), { timeout: 10000 }, target.id);
    await page.click('#entry-close');
    await page.evaluate(() => { window.explorer.map.jumpTo({ center: [0, 15], zoom: 1.2 }); });
    assert.deepEqual(errors, [], 'no page errors and no failed requests');
  });

  test('a region picked from the list: its outline, and only its events', async () => {
    await page.select('#region-dataset', 'public-eez-areas');
    await page.waitForFunction(() => document.querySelectorAll('#region-options option').length > 100, { timeout: 10000 });
    const option = await page.$eval('#region-options', (d) => [...d.querySelectorAll('option')].map((o) => o.value).find((v) => v.endsWith('(8371)'))!);
    await page.$eval('#region-id', (e, v) => {
      (e as HTMLInputElement).value = v;
      e.dispatchEvent(new Event('change'));
    }, option);
    await page.waitForFunction(() => /Senegal/.test(document.getElementById('area-note')!.textContent ?? ''), { timeout: 10000 });
    await run();
    const total = await apiTotal({ datasets: ['public-global-fishing-events:latest'], startDate: '2017-01-01', endDate: '2025-01-01', region: { dataset: 'public-eez-areas', id: '8371' } });
    assert.ok(total > 0);
    assert.equal(await page.evaluate(() => window.explorer.total), total);
    await page.click('#clear-area');
  });

  test('a box drawn with the mouse filters by its polygon', async () => {
    await page.click('#draw-box');
    const map = (await (await page.$('#map'))!.boundingBox())!;
    await page.mouse.move(map.x + 200, map.y + 150);
    await page.mouse.down();
    await page.mouse.move(map.x + 500, map.y + 350, { steps: 5 });
    await page.mouse.up();
    const box = await page.evaluate(() => window.explorer.box);
    assert.ok(box && box[0]! < box[2]! && box[1]! < box[3]!, JSON.stringify(box));
    await run();
    const [w, s, e, n] = box as [number, number, number, number];
    const total = await apiTotal({ datasets: ['public-global-fishing-events:latest'], startDate: '2017-01-01', endDate: '2025-01-01', geometry: { type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] } });
    assert.equal(await page.evaluate(() => window.explorer.total), total);
  });

  test('the same request in curl, Python and R', async () => {
    const curl = await page.$eval('#curl', (e) => e.textContent ?? '');
    assert.ok(curl.includes(`${origin}/v3/events?limit=2000&offset=0`), curl);
    const body = JSON.parse(/-d '(.*)'$/s.exec(curl)![1]!) as { geometry?: unknown; datasets: string[] };
    assert.deepEqual(body.datasets, ['public-global-fishing-events:latest']);
    assert.ok(body.geometry, 'the box travels in the body');
    assert.match(await page.$eval('#python', (e) => e.textContent ?? ''), /client\.events\.get_events\(\n {4}datasets=\["public-global-fishing-events:latest"\]/);
    assert.match(await page.$eval('#r', (e) => e.textContent ?? ''), /gfw_event\(\n {2}event_type = "FISHING"[\s\S]*region_source = "USER_SHAPEFILE"/);
    // Every matching event as GeoParquet: the same body, the total as the limit.
    const parquet = await page.$eval('#parquet', (e) => e.textContent ?? '');
    const total = await page.evaluate(() => window.explorer.total);
    const url = new RegExp(`${origin}(/v3/events\\?limit=(\\d+)&offset=0&format=parquet)`).exec(parquet);
    assert.ok(url && Number(url[2]) === total, parquet);
    assert.deepEqual(JSON.parse(/-d '(.*)' -o events\.parquet/s.exec(parquet)![1]!), body);
    const file = await t.app.inject({ method: 'POST', url: url[1]!, headers: t.auth, payload: body });
    assert.equal(file.headers['content-type'], 'application/vnd.apache.parquet');
    assert.equal(file.headers['x-total-count'], String(total));
    assert.equal(file.headers['x-next-offset'], '', 'one file holds every matching event');
    assert.deepEqual(errors, [], 'no page errors and no failed requests');
  });

  test('a vessel found by name: its identity, its insights, and its events joined as a track', async () => {
    type Identity = { id: string; shipname: string; transmissionDateFrom: string; transmissionDateTo: string | null };
    const apiGet = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: t.auth });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Record<string, unknown>;
    };
    // A loaded vessel that the first word of its name (3 characters or more) finds first.
    const listed = (await apiGet('/v3/events?datasets=public-global-fishing-events:latest&limit=200&offset=0')).entries as { vessel: { id: string; name: string } }[];
    let vessel: { id: string; word: string } | undefined;
    for (const { vessel: { id, name } } of listed) {
      const word = name.split(/\s+/)[0]!;
      if (word.length < 3) continue;
      const found = (await apiGet(`/v3/vessels/search?query=${encodeURIComponent(word)}&limit=10`)).entries as { selfReportedInfo: Identity[] }[];
      if (found[0]?.selfReportedInfo[0]?.id === id) {
        vessel = { id, word };
        break;
      }
    }
    assert.ok(vessel, 'a vessel found first by the first word of its name');
    const identities = (await apiGet(`/v3/vessels/${vessel.id}`)).selfReportedInfo as Identity[];

    await page.type('#vessel-query', vessel.word);
    await page.waitForFunction((word) => document.getElementById('vessel-results')!.dataset.query === word && document.querySelectorAll('#vessel-results button').length > 0, { timeout: 10000 }, vessel.word);
    await page.click('#vessel-results li:first-child button');
    await page.waitForFunction((id) => window.explorer.vessel?.id === id && window.explorer.vessel.loaded, { timeout: 30000 }, vessel.id);

    assert.equal(await page.$eval('#vessel-name', (e) => e.textContent), identities[0]!.shipname);
    assert.ok((await page.$eval('#vessel-identity', (e) => e.textContent ?? '')).includes(identities[0]!.shipname));
    assert.equal(await page.evaluate(() => window.location.hash), `#vessel=${vessel.id}`);

    // The counters cover the years the vessel was seen, as the API counts them.
    const first = Math.min(...identities.map((i) => Number(i.transmissionDateFrom.slice(0, 4))));
    const last = Math.max(...identities.map((i) => Number((i.transmissionDateTo ?? i.transmissionDateFrom).slice(0, 4))));
    const insights = await t.app.inject({
      method: 'POST', url: '/v3/insights/vessels', headers: t.auth,
      payload: { includes: ['FISHING', 'GAP'], startDate: `${first}-01-01`, endDate: `${last + 1}-01-01`, vessels: [{ datasetId: 'public-global-vessel-identity:latest', vesselId: vessel.id }] },
    });
    assert.equal(insights.statusCode, 200, insights.body);
    const counters: Record<string, string> = Object.fromEntries(await page.$$eval('#vessel-insights [data-counter]', (cells) => cells.map((c) => [(c as HTMLElement).dataset.counter!, c.textContent ?? ''])));
    assert.equal(Object.keys(counters).length, 5, JSON.stringify(counters));
    for (const [name, text] of Object.entries(counters)) assert.match(text, /^\d[\d,]*$/, `${name}: ${text}`);
    const answer = insights.json() as { apparentFishing: { periodSelectedCounters: { events: number } }; gap: { periodSelectedCounters: { events: number } } };
    assert.equal(Number(counters['apparentFishing.events']!.replaceAll(',', '')), answer.apparentFishing.periodSelectedCounters.events);
    assert.equal(Number(counters['gap.events']!.replaceAll(',', '')), answer.gap.periodSelectedCounters.events);

    // The same list of events, asked of the API: one point on the map for each, up to the page's 2,000.
    const datasets = ((await apiGet('/readyz')).latest as string[]).map((name) => `${name.slice(0, name.lastIndexOf(':'))}:latest`);
    const { total } = await apiGet(`/v3/events?datasets=${datasets.join(',')}&vessels=${vessel.id}&limit=1&offset=0&sort=%2Bstart`) as { total: number };
    assert.ok(total > 0);
    const points = await page.evaluate(async () => (await window.explorer.map.getSource('vessel-points')!.getData()).features.length);
    assert.equal(points, Math.min(total, 2000));

    await page.click('#vessel-close');
    assert.equal(await page.$eval('#vessel', (e) => (e as HTMLElement).hidden), true);
    assert.equal(await page.evaluate(() => window.explorer.map.getSource('vessel-points') === undefined && window.explorer.map.getSource('vessel-track') === undefined), true);
    assert.deepEqual(errors, [], 'no page errors and no failed requests');
  });
});
