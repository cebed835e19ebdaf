// Vector tiles of events (GET /v3/events/tiles/{z}/{x}/{y}.pbf), decoded with @mapbox/vector-tile:
// the cells of every tile of a zoom add up to the list's total for the same filters, per kind too;
// a cell's vessels are distinct vessels; from POINT_ZOOM each event is in the tile that holds its
// position, with its id, kind, start and vessel; ETag and 304 as for lists; bad tiles are refused.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { GRID, POINT_ZOOM, TILE_EXTENT } from '../../src/shape/vector-tile.ts';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

type Entry = { id: string; type: string; start: string; position: { lat: number; lon: number }; vessel: { id: string } };
const KINDS: Record<string, string> = {
  fishing: 'public-global-fishing-events', encounter: 'public-global-encounters-events', loitering: 'public-global-loitering-events',
  port_visit: 'public-global-port-visits-events', gap: 'public-global-gaps-events',
};
const ALL = Object.values(KINDS).map((d) => `${d}:latest`).join(',');

/** The tile of a zoom that holds a position (the XYZ scheme, as any web map computes it). */
function tileOf(z: number, lon: number, lat: number): [number, number] {
  const n = 2 ** z;
  const clamped = Math.max(-85.0511287798066, Math.min(85.0511287798066, lat));
  const y = (1 - Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360)) / Math.PI) / 2;
  return [Math.min(n - 1, Math.floor(((lon + 180) / 360) * n)), Math.min(n - 1, Math.max(0, Math.floor(y * n)))];
}

describe('vector tiles of events', () => {
  let t: TestApp;
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...t.auth, ...headers } });
  const layerOf = (body: Buffer, name: string) => new VectorTile(new Pbf(body)).layers[name];
  const featuresOf = (body: Buffer, name: string) => {
    const layer = layerOf(body, name);
    return layer ? Array.from({ length: layer.length }, (_, i) => layer.feature(i)) : [];
  };
  const total = async (filters: string) => Number((await get(`/v3/events?${filters}&limit=1&offset=0`)).headers['x-total-count']);

  before(async () => {
    t = await startTestApp({ events: 3000, seed: 21 });
  });
  after(() => t?.close());

  for (const asked of [`datasets=${ALL}`, `datasets=${ALL}&flags=CHN,ESP&start-date=2019-01-01&end-date=2023-01-01`, `datasets=${KINDS.port_visit}:latest,${KINDS.gap}:latest&region-datasets=public-eez-areas&region-ids={eez}`]) {
    test(`the cells of every tile of a zoom add up to the list's total, per kind too (${asked.slice(0, 60)})`, async () => {
      // An EEZ that some port visit lies in.
      const visit = ((await get(`/v3/events?datasets=${KINDS.port_visit}:latest&limit=50&offset=0`)).json() as { entries: { regions: { eez: string[] } }[] }).entries.find((e) => e.regions.eez.length > 0)!;
      const filters = asked.replace('{eez}', visit.regions.eez[0]!);
      const expected = await total(filters);
      const perKind = Object.fromEntries(await Promise.all(Object.entries(KINDS).map(async ([kind, d]) => [kind, filters.includes(d) || filters.includes(ALL) ? await total(filters.replace(/datasets=[^&]+/, `datasets=${d}:latest`)) : 0])));
      for (const z of [0, 1, 2]) {
        let sum = 0;
        const kindSums: Record<string, number> = {};
        for (let x = 0; x < 2 ** z; x++) {
          for (let y = 0; y < 2 ** z; y++) {
            const res = await get(`/v3/events/tiles/${z}/${x}/${y}.pbf?${filters}`);
            assert.equal(res.statusCode, 200, res.body);
            assert.equal(res.headers['content-type'], 'application/vnd.mapbox-vector-tile');
            for (const f of featuresOf(res.rawPayload, 'cells')) {
              const p = f.properties as Record<string, number>;
              const kinds = Object.keys(KINDS).filter((k) => p[k] !== undefined);
              assert.equal(kinds.reduce((s, k) => s + p[k]!, 0), p['count'], 'a cell\'s count is its kinds\' counts');
              assert.ok(p['vessels']! >= 1 && p['vessels']! <= p['count']!, JSON.stringify(p));
              const [point] = f.loadGeometry()[0]!;
              assert.ok(point!.x > 0 && point!.x < TILE_EXTENT && point!.y > 0 && point!.y < TILE_EXTENT, 'the cell is in the tile');
              sum += p['count']!;
              for (const k of kinds) kindSums[k] = (kindSums[k] ?? 0) + p[k]!;
            }
          }
        }
        assert.equal(sum, expected, `zoom ${z}`);
        for (const [kind, n] of Object.entries(perKind)) assert.equal(kindSums[kind] ?? 0, n, `zoom ${z}, ${kind}`);
      }
      assert.ok(expected > 0, 'the filters find events');
    });
  }

  test('a cell of one vessel\'s events counts one vessel; two vessels at most two', async () => {
    const entries = ((await get(`/v3/events?datasets=${ALL}&limit=3000&offset=0`)).json() as { entries: Entry[] }).entries;
    const byVessel = new Map<string, Entry[]>();
    for (const e of entries) (byVessel.get(e.vessel.id) ?? byVessel.set(e.vessel.id, []).get(e.vessel.id)!).push(e);
    const [a, b] = [...byVessel.entries()].sort((p, q) => q[1].length - p[1].length).map(([id]) => id);
    const cells = featuresOf((await get(`/v3/events/tiles/0/0/0.pbf?datasets=${ALL}&vessels=${a}`)).rawPayload, 'cells');
    assert.ok(cells.length > 0);
    for (const c of cells) assert.equal(c.properties['vessels'], 1);
    assert.equal(cells.reduce((s, c) => s + Number(c.properties['count']), 0), byVessel.get(a!)!.length);
    const two = featuresOf((await get(`/v3/events/tiles/0/0/0.pbf?datasets=${ALL}&vessels=${a},${b}`)).rawPayload, 'cells');
    assert.equal(two.reduce((s, c) => s + Number(c.properties['count']), 0), byVessel.get(a!)!.length + byVessel.get(b!)!.length);
    for (const c of two) assert.ok(Number(c.properties['vessels']) <= 2);
  });

  test('each cell of the world tile has the counts per kind and the distinct vessels of the list\'s events in it', async () => {
    const entries = ((await get(`/v3/events?datasets=${ALL}&limit=5000&offset=0`)).json() as { entries: Entry[] }).entries;
    assert.equal(entries.length, await total(`datasets=${ALL}`), 'every event is on the page');
    const expected = new Map<string, { kinds: Record<string, number>; vessels: Set<string> }>();
    const size = TILE_EXTENT / GRID;
    for (const e of entries) {
      const lat = Math.max(-85.0511287798066, Math.min(85.0511287798066, e.position.lat));
      const cx = Math.min(GRID - 1, Math.floor(((e.position.lon + 180) / 360) * GRID));
      const cy = Math.min(GRID - 1, Math.max(0, Math.floor(((1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2) * GRID)));
      const key = `${Math.round((cx + 0.5) * size)},${Math.round((cy + 0.5) * size)}`;
      const cell = expected.get(key) ?? expected.set(key, { kinds: {}, vessels: new Set() }).get(key)!;
      cell.kinds[e.type] = (cell.kinds[e.type] ?? 0) + 1;
      cell.vessels.add(e.vessel.id);
    }
    const cells = featuresOf((await get(`/v3/events/tiles/0/0/0.pbf?datasets=${ALL}`)).rawPayload, 'cells');
    assert.equal(cells.length, expected.size);
    for (const f of cells) {
      const [point] = f.loadGeometry()[0]!;
      const want = expected.get(`${point!.x},${point!.y}`);
      assert.ok(want, `a cell at ${point!.x},${point!.y}`);
      const { count, vessels, ...kinds } = f.properties as Record<string, number>;
      assert.deepEqual({ count, vessels, ...kinds }, { count: Object.values(want.kinds).reduce((a, b) => a + b, 0), vessels: want.vessels.size, ...want.kinds });
    }
  });

  test(`from zoom ${POINT_ZOOM}, each event is in the tile holding its position, with its id, kind, start and vessel`, async () => {
    const entries = ((await get(`/v3/events?datasets=${ALL}&limit=40&offset=200`)).json() as { entries: Entry[] }).entries;
    for (const e of entries) {
      const [x, y] = tileOf(POINT_ZOOM, e.position.lon, e.position.lat);
      const res = await get(`/v3/events/tiles/${POINT_ZOOM}/${x}/${y}.pbf?datasets=${ALL}`);
      const events = featuresOf(res.rawPayload, 'events');
      const found = events.find((f) => f.properties['id'] === e.id);
      assert.ok(found, `${e.id} in ${POINT_ZOOM}/${x}/${y}`);
      assert.deepEqual({ ...found.properties }, { id: e.id, type: e.type, start: e.start, vesselId: e.vessel.id });
      // Its place in the tile is its position, to a unit of the tile's extent.
      const [point] = found.loadGeometry()[0]!;
      const n = 2 ** POINT_ZOOM;
      const px = (((e.position.lon + 180) / 360) * n - x) * TILE_EXTENT;
      const merc = (1 - Math.log(Math.tan(Math.PI / 4 + (e.position.lat * Math.PI) / 360)) / Math.PI) / 2;
      const py = (merc * n - y) * TILE_EXTENT;
      assert.ok(Math.abs(point!.x - px) <= 1 && Math.abs(point!.y - py) <= 1, `${point!.x},${point!.y} against ${px},${py}`);
      assert.equal(layerOf(res.rawPayload, 'cells'), undefined);
    }
    // A tile below the point zoom has cells only.
    assert.equal(layerOf((await get(`/v3/events/tiles/${POINT_ZOOM - 1}/0/0.pbf?datasets=${ALL}`)).rawPayload, 'events'), undefined);
    assert.ok(GRID > 1);
  });

  test('ETag and 304 as for lists, Cache-Control from --cache-max-age; a tile with no event is an empty tile', async () => {
    const url = `/v3/events/tiles/3/2/3.pbf?datasets=${ALL}`;
    const first = await get(url);
    assert.match(String(first.headers['cache-control']), /max-age=600/);
    const again = await get(url, { 'if-none-match': String(first.headers['etag']) });
    assert.equal(again.statusCode, 304);
    const other = await get(`/v3/events/tiles/3/2/3.pbf?datasets=${KINDS.fishing}:latest`);
    assert.notEqual(other.headers['etag'], first.headers['etag']);
    const empty = await get(`/v3/events/tiles/0/0/0.pbf?datasets=${ALL}&flags=XYZ`);
    assert.equal(empty.statusCode, 200);
    assert.deepEqual(Object.keys(new VectorTile(new Pbf(empty.rawPayload)).layers), []);
  });

  test('a tile that is not one, or a filter the list refuses, is a 422 naming the parameter', async () => {
    for (const [url, name] of [
      [`/v3/events/tiles/23/0/0.pbf?datasets=${ALL}`, 'tile'],
      [`/v3/events/tiles/2/4/0.pbf?datasets=${ALL}`, 'tile'],
      [`/v3/events/tiles/2/0/-1.pbf?datasets=${ALL}`, 'tile'],
      [`/v3/events/tiles/2/0x1/0.pbf?datasets=${ALL}`, 'tile'],
      [`/v3/events/tiles/2/0/0.pbf?datasets=${ALL}&limit=5`, 'limit'],
      [`/v3/events/tiles/2/0/0.pbf?datasets=${ALL}&start-date=yesterday`, 'start-date'],
    ] as const) {
      const res = await get(url);
      assert.equal(res.statusCode, 422, `${url}: ${res.body}`);
      assert.ok((res.json() as { messages: { title: string }[] }).messages.some((m) => m.title.includes(name)), `${url}: ${res.body}`);
    }
  });

  test('the error of a tile that is not one quotes the path as given', async () => {
    for (const [path, said] of [['z/0/0', 'z/0/0 is not a tile'], ['23/0/0', '23/0/0 is not a tile'], ['2/4/0', '(3 at z 2)']] as const) {
      const res = await get(`/v3/events/tiles/${path}.pbf?datasets=${ALL}`);
      assert.equal(res.statusCode, 422);
      assert.ok(res.body.includes(said) && !res.body.includes('NaN'), res.body);
    }
  });
});
