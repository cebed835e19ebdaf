// The region lists the official clients call (/v3/datasets/{dataset}/context-layers) and the labels
// of REGION_* statistics groups, on the loaded demo regions (real EEZs with Marine Regions ids,
// MPAs, RFMOs), on whichever engine the suite runs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REGION_DATASETS } from '../../src/domain/regions.ts';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

type Item = { id: number | string; label: string; iso3?: string | null; NAME?: string; ID?: string };

describe('context layers: the regions the clients list', () => {
  let t: TestApp;
  const list = async (dataset: string, prefix = '/v3') => {
    const res = await t.app.inject({ url: `${prefix}/datasets/${dataset}/context-layers`, headers: t.auth });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Item[];
  };
  /** Region ids the loaded events carry in a `regions` member. */
  const carried = (member: string) => new Set(t.fixture.records.flatMap((r) => (r.regions as Record<string, string[]>)[member]!));

  before(async () => {
    t = await startTestApp({ events: 3000, seed: 7 });
  });
  after(() => t.close());

  test('EEZs: numeric ids, labels and ISO3 as the Python client and gfwr read them; every EEZ an event carries is listed', async () => {
    const eez = await list('public-eez-areas');
    assert.ok(eez.length >= 200, `${eez.length} EEZs`);
    for (const item of eez) {
      assert.deepEqual(Object.keys(item), ['id', 'label', 'iso3']);
      assert.equal(typeof item.id, 'number');
    }
    const senegal = eez.find((e) => e.id === 8371);
    assert.ok(senegal && /Senegal/.test(senegal.label) && senegal.iso3 === 'SEN', JSON.stringify(senegal));
    const ids = new Set(eez.map((e) => String(e.id)));
    for (const id of carried('eez')) assert.ok(ids.has(id), `EEZ ${id} carried by events but not listed`);
    const labels = eez.map((e) => e.label);
    assert.deepEqual(labels, [...labels].sort((a, b) => a.localeCompare(b)));
  });

  test('MPAs carry NAME and RFMOs ID, as GFW spells them; the /api/v3 form answers the same', async () => {
    const mpa = await list('public-mpa-all');
    assert.ok(mpa.length > 0);
    for (const item of mpa) {
      assert.deepEqual(Object.keys(item), ['id', 'label', 'NAME']);
      assert.equal(item.NAME, item.label);
    }
    const mpaIds = new Set(mpa.map((m) => String(m.id)));
    for (const id of carried('mpa')) assert.ok(mpaIds.has(id), `MPA ${id}`);
    const rfmo = await list('public-rfmo');
    assert.ok(rfmo.some((r) => r.id === 'ICCAT'), JSON.stringify(rfmo.slice(0, 5)));
    for (const item of rfmo) assert.equal(item.ID, item.id);
    assert.deepEqual(await list('public-rfmo', '/api/v3'), rfmo);
  });

  test('every region dataset answers; one whose regions have no loaded name is labelled by id', async () => {
    for (const dataset of Object.keys(REGION_DATASETS)) {
      const items = await list(dataset);
      const member = REGION_DATASETS[dataset]!;
      for (const id of carried(member)) assert.ok(items.some((i) => String(i.id) === id), `${dataset} ${id}`);
    }
    // The demo loads no geometries for the 12-nautical-mile band: its EEZ ids stand as labels.
    for (const item of await list('public-eez-areas-12nm')) assert.equal(item.label, String(item.id));
  });

  test('an unknown region dataset is a 404 naming it; no token is a 401; a current copy is a 304', async () => {
    const unknown = await t.app.inject({ url: '/v3/datasets/public-whales/context-layers', headers: t.auth });
    assert.equal(unknown.statusCode, 404);
    assert.equal((unknown.json() as { messages: { title: string }[] }).messages[0]!.title, 'dataset');
    assert.equal((await t.app.inject({ url: '/v3/datasets/public-eez-areas/context-layers' })).statusCode, 401);
    const first = await t.app.inject({ url: '/v3/datasets/public-eez-areas/context-layers', headers: t.auth });
    const again = await t.app.inject({ url: '/v3/datasets/public-eez-areas/context-layers', headers: { ...t.auth, 'if-none-match': first.headers['etag'] as string } });
    assert.equal(again.statusCode, 304);
  });

  test('statistics grouped by a region layer carry each region\'s label where its name is loaded', async () => {
    const eez = new Map((await list('public-eez-areas')).map((e) => [String(e.id), e.label]));
    const res = await t.app.inject({ url: '/v3/events/stats?datasets=public-global-fishing-events:latest&timeseries-interval=YEAR&group-by=REGION_EEZ&includes=EVENTS_GROUPED', headers: t.auth });
    assert.equal(res.statusCode, 200, res.body);
    const groups = (res.json() as { groups: { name: string; label?: string; value: number }[] }).groups;
    assert.ok(groups.length > 0);
    for (const g of groups) {
      assert.deepEqual(Object.keys(g), ['name', 'label', 'value']);
      assert.equal(g.label, eez.get(g.name));
    }
    // No names are loaded for the 12-nautical-mile band: its groups carry none.
    const band = await t.app.inject({ url: '/v3/events/stats?datasets=public-global-fishing-events:latest&timeseries-interval=YEAR&group-by=REGION_EEZ12NM&includes=EVENTS_GROUPED', headers: t.auth });
    for (const g of (band.json() as { groups: object[] }).groups) assert.deepEqual(Object.keys(g), ['name', 'value']);
  });
});
