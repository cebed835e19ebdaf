// Browser caching must never answer one query with another's result: the ETag stands for the whole
// normalised query (the area included) and for the data as of the last load of anything.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { editDatabase } from '../../src/store/engines.ts';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

const LIST = '/v3/events?datasets=public-global-fishing-events:latest&limit=5&offset=0';
const STATS = '/v3/events/stats?datasets=public-global-fishing-events:latest&timeseries-interval=YEAR&includes=TOTAL_COUNT';
const AREAS = [
  '',
  '&region-datasets=public-eez-areas&region-ids=8463',
  '&region-datasets=public-eez-areas&region-ids=8371',
  '&region-datasets=public-eez-areas&region-ids=8371&buffer-value=50&buffer-unit=NAUTICALMILES',
  '&region-datasets=public-eez-areas&region-ids=8371&buffer-value=100&buffer-unit=NAUTICALMILES',
  '&region-datasets=public-eez-areas&region-ids=8371&buffer-value=50&buffer-unit=NAUTICALMILES&buffer-operation=DIFFERENCE',
];

describe('caching: ETags', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ events: 3000, seed: 7 });
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...t.auth, ...headers } });

  for (const [operation, base] of [['list', LIST], ['stats', STATS]] as const) {
    test(`${operation}: no region, two regions and buffered regions get different ETags, and none revalidates another`, async () => {
      const etags: string[] = [];
      for (const area of AREAS) {
        const res = await get(`${base}${area}`);
        assert.equal(res.statusCode, 200, `${area}: ${res.body}`);
        etags.push(res.headers['etag'] as string);
      }
      assert.equal(new Set(etags).size, AREAS.length, etags.join(' '));
      for (const [i, area] of AREAS.entries()) {
        const other = etags[(i + 1) % etags.length]!;
        assert.equal((await get(`${base}${area}`, { 'if-none-match': other })).statusCode, 200, area);
        assert.equal((await get(`${base}${area}`, { 'if-none-match': etags[i]! })).statusCode, 304, area);
      }
    });
  }

  test('metadata echoes the area: the regions, or what the polygons were made of and the buffer', async () => {
    const regions = ((await get(`${LIST}${AREAS[2]}`)).json() as { metadata: { area: unknown } }).metadata.area;
    assert.deepEqual(regions, { type: 'regions', regions: [{ dataset: 'public-eez-areas', member: 'eez', id: '8371' }] });
    const buffered = ((await get(`${LIST}${AREAS[3]}`)).json() as { metadata: { area: Record<string, unknown> } }).metadata.area;
    assert.deepEqual(buffered['from'], [{ dataset: 'public-eez-areas', id: '8371' }]);
    assert.deepEqual(buffered['buffer'], { value: 50, unit: 'NAUTICALMILES', operation: 'DISSOLVE' });
    assert.ok((buffered['vertices'] as number) > 4);
    assert.match(buffered['digest'] as string, /^[\w-]{22}$/);
  });

  test('a load of reference data (vessel groups) changes the ETag of the same URL, so the old one gets 200', async () => {
    const [group, members] = [...t.fixture.groups].find(([, m]) => m.size > 1)!;
    const url = `${LIST}&vessel-groups=${group}`;
    const before = await get(url);
    const beforeTotal = (before.json() as { total: number }).total;
    const etag = before.headers['etag'] as string;
    const statsUrl = `${STATS}&vessel-groups=${group}`;
    const statsEtag = (await get(statsUrl)).headers['etag'] as string;

    // The group keeps one vessel: fewer events match.
    await editDatabase(t.fixture.database, (w) => w.replaceGroups([{ groupId: group, vesselId: [...members][0]! }]));
    await t.stores.refresh('test');

    const after = await get(url, { 'if-none-match': etag });
    assert.equal(after.statusCode, 200);
    assert.notEqual(after.headers['etag'], etag);
    assert.ok((after.json() as { total: number }).total < beforeTotal);
    const statsAfter = await get(statsUrl, { 'if-none-match': statsEtag });
    assert.equal(statsAfter.statusCode, 200);
    assert.notEqual(statsAfter.headers['etag'], statsEtag);
  });
});
