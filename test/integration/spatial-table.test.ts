// The table sorted by place (src/store/duckdb/spatial-table.ts, src/geo/grid.ts): the grid's keys
// in JS are the loader's in SQL; the cells a polygon is said to fill or miss hold only positions
// the exact test puts inside or outside; polygon queries answered from the table are the events
// table's answers (which test/api/area-differential.test.ts holds to turf); and a database
// without the table's rows is answered from events until migrate writes them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { bandedPolygon, passesEvenOdd } from '../../src/geo/even-odd.ts';
import { CELL_KEY_SQL, cellKey, coverCells } from '../../src/geo/grid.ts';
import { compilePolygons } from '../../src/store/duckdb/polygon-sql.ts';
import { SqlBuilder } from '../../src/store/sql.ts';
import type { Polygon, Ring } from '../../src/geo/geojson.ts';
import { GROUNDS } from '../../src/data/demo/fleet.ts';
import { Random } from '../../src/data/demo/random.ts';
import { normalizeListQuery } from '../../src/query/normalize.ts';
import type { EventFilters } from '../../src/query/schema.ts';
import { EVENT_TYPE_FILTER_VALUES, SORT_VALUES, TIME_FILTER_MODES } from '../../src/query/enumerations.ts';
import { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import { readSpatialCells, SPATIAL_PAGE_LIMIT, spatialPlan } from '../../src/store/duckdb/spatial-table.ts';
import { copyDuckDbFiles, migrateDatabase } from '../../src/store/engines.ts';
import { readOnly } from '../../src/store/duckdb/inspect.ts';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';
import { eventsAnswer, storeAnswer, writing } from '../helpers/store-answers.ts';

let fixture: Fixture;
let scratch: string;
before(async () => {
  fixture = await buildFixtureDb({ events: 3000, seed: 11 });
  scratch = mkdtempSync(join(tmpdir(), 'vessel-events-spatial-'));
});
after(async () => {
  await fixture.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

const latitude = fc.oneof(fc.double({ min: -90, max: 90, noNaN: true }), fc.constantFrom(-90, 90, 0, -89.75, 89.5), fc.integer({ min: -180, max: 180 }).map((k) => k / 2));
const longitude = fc.oneof(fc.double({ min: -180, max: 180, noNaN: true }), fc.constantFrom(-180, 180, 0, 179.5, -179.75), fc.integer({ min: -360, max: 360 }).map((k) => k / 2));

test('a position\'s cell key in JS is the one the loader writes in SQL, at cell edges and the poles too', async () => {
  await writing(':memory:', async (c) => {
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(latitude, longitude), { minLength: 1, maxLength: 50 }), async (points) => {
      const rows = (await c.runAndReadAll(`SELECT ${CELL_KEY_SQL} FROM (SELECT unnest(?::DOUBLE[]) AS lat, unnest(?::DOUBLE[]) AS lon)`, [
        JSON.stringify(points.map((p) => p[0])), JSON.stringify(points.map((p) => p[1])),
      ] as never)).getRowsJS().map((r) => r[0]);
      assert.deepEqual(rows, points.map(([lat, lon]) => cellKey(lat, lon)));
    }), { numRuns: 60 });
  });
});

/** The SQL's exact test (polygon-sql.ts), written again: bounding box, then even-odd crossings east of the point. */
function passesExactTest(polygons: readonly Polygon[], lon: number, lat: number): boolean {
  return polygons.some((p) => {
    const xs = p.flat().map((q) => q[0]);
    const ys = p.flat().map((q) => q[1]);
    if (lon < Math.min(...xs) || lon > Math.max(...xs) || lat < Math.min(...ys) || lat > Math.max(...ys)) return false;
    let crossings = 0;
    for (const ring of p) for (let i = 0; i + 1 < ring.length; i++) {
      const [x1, y1] = ring[i]!;
      const [x2, y2] = ring[i + 1]!;
      if (y1 > lat !== y2 > lat && lon < ((x2 - x1) * (lat - y1)) / (y2 - y1) + x1) crossings++;
    }
    return crossings % 2 === 1;
  });
}

function star(cx: number, cy: number, radius: number, points: number, inner: number, phase: number): Ring {
  const ring: Ring = [];
  for (let i = 0; i < points * 2; i++) {
    const a = phase + (Math.PI * i) / points;
    const r = i % 2 ? radius * inner : radius;
    ring.push([Math.max(-180, Math.min(180, cx + r * Math.cos(a))), Math.max(-90, Math.min(90, cy + r * Math.sin(a)))]);
  }
  ring.push([...ring[0]!]);
  return ring;
}

const polygonArb = fc.record({
  cx: fc.double({ min: -179, max: 179, noNaN: true }), cy: fc.double({ min: -89, max: 89, noNaN: true }),
  radius: fc.double({ min: 0.01, max: 4, noNaN: true }), points: fc.integer({ min: 3, max: 9 }), inner: fc.double({ min: 0.2, max: 1, noNaN: true }),
  phase: fc.double({ min: 0, max: 6.3, noNaN: true }), hole: fc.boolean(),
}).map(({ cx, cy, radius, points, inner, phase, hole }): Polygon => [star(cx, cy, radius, points, inner, phase), ...(hole ? [star(cx, cy, radius * inner * 0.5, points, 1, phase).reverse()] : [])]);

test('cells said to be inside hold only positions the exact test passes; cells left out, only positions it fails', () => {
  fc.assert(fc.property(fc.array(polygonArb, { minLength: 1, maxLength: 3 }), fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: -3, max: 3 })), { minLength: 20, maxLength: 60 }), (polygons, picks) => {
    const cover = coverCells(polygons, 1_000_000)!;
    const inside = new Set(cover.inside);
    const edge = new Set(cover.edge);
    for (const key of cover.inside) assert.ok(!edge.has(key));
    // Positions anywhere near the polygons, on their edges and vertices, and a hair off them.
    const vertices = polygons.flat(2);
    const [minX, minY, maxX, maxY] = [Math.min(...vertices.map((v) => v[0])) - 1, Math.min(...vertices.map((v) => v[1])) - 1, Math.max(...vertices.map((v) => v[0])) + 1, Math.max(...vertices.map((v) => v[1])) + 1];
    const positions: [number, number][] = [];
    picks.forEach(([u, v, nudge], i) => {
      positions.push([minX + u * (maxX - minX), minY + v * (maxY - minY)]);
      const a = vertices[i % vertices.length]!;
      const b = vertices[(i + 1) % vertices.length]!;
      positions.push([a[0] + u * (b[0] - a[0]) + nudge * 1e-12, a[1] + u * (b[1] - a[1]) - nudge * 1e-12]);
    });
    for (const [lon, lat] of positions) {
      if (lat < -90 || lat > 90 || lon < -180 || lon > 180) continue;
      const key = cellKey(lat, lon);
      const passes = passesExactTest(polygons, lon, lat);
      if (inside.has(key)) assert.ok(passes, `(${lon}, ${lat}) is in a cell said inside but fails the exact test`);
      else if (!edge.has(key)) assert.ok(!passes, `(${lon}, ${lat}) is in a cell left out but passes the exact test`);
    }
  }), { numRuns: 300 });
});

test('the exact test in TypeScript gives DuckDB\'s SQL answer, on edges, vertices and a hair off them', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    await fc.assert(fc.asyncProperty(fc.array(polygonArb, { minLength: 1, maxLength: 3 }), fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: -3, max: 3 })), { minLength: 20, maxLength: 60 }), async (polygons, picks) => {
      const vertices = polygons.flat(2);
      const positions: [number, number][] = [];
      picks.forEach(([u, v, nudge], i) => {
        const a = vertices[i % vertices.length]!;
        const b = vertices[(i + 1) % vertices.length]!;
        positions.push([a[0] + u * (b[0] - a[0]) + nudge * 1e-12, a[1] + u * (b[1] - a[1]) - nudge * 1e-12], [a[0], a[1] + nudge * 1e-13], [a[0] + v - 0.5, a[1] + u - 0.5]);
      });
      const b = new SqlBuilder<DuckDBValue>();
      const condition = compilePolygons(b, polygons);
      const sql = `SELECT ${condition} FROM (SELECT unnest(${b.param(JSON.stringify(positions.map((p) => p[0])))}::DOUBLE[]) AS lon, unnest(${b.param(JSON.stringify(positions.map((p) => p[1])))}::DOUBLE[]) AS lat)`;
      const fromSql = (await c.runAndReadAll(sql, b.params)).getRowsJS().map((row) => row[0]);
      const banded = polygons.map(bandedPolygon);
      const fromTs = positions.map(([lon, lat]) => banded.some((p) => passesEvenOdd(p, lat, lon)));
      assert.deepEqual(fromTs, fromSql);
    }), { numRuns: 200 });
  } finally {
    c.closeSync();
    instance.closeSync();
  }
});

test('a bounding box past the cell limit is left to the events table', () => {
  const big: Polygon = [[[-60, -40], [60, -40], [60, 40], [-60, 40], [-60, -40]]];
  assert.equal(coverCells([big], 1600), undefined);
  assert.ok(coverCells([big], 1_000_000));
});

test('a box said to hold no event of a version holds none (its events counted in SQL); a box round an event is said to hold it', async () => {
  const store = await DuckDbStore.open({ path: fixture.dbPath });
  try {
    await readOnly(fixture.dbPath, async (c) => {
      const positions = (await c.runAndReadAll('SELECT version_id::INTEGER, lat, lon FROM events WHERE lat IS NOT NULL')).getRowsJS() as [number, number, number][];
      const versions = [...new Set(positions.map((p) => p[0]))];
      const r = new Random(37);
      let empty = 0;
      for (let i = 0; i < 300; i++) {
        const chosen = versions.filter(() => r.chance(0.5));
        if (chosen.length === 0) chosen.push(r.pick(versions));
        // Boxes from a hundredth of a degree to 20 degrees across, anywhere, or next to an event.
        const [, lat, lon] = r.chance(0.5) ? r.pick(positions) : [0, r.between(-85, 85), r.between(-175, 175)];
        const [w, h] = [r.between(0.01, 20) * r.next(), r.between(0.01, 20) * r.next()];
        const [dx, dy] = [r.between(-w, w), r.between(-h, h)];
        const box = [lon + dx - w / 2, lat + dy - h / 2, lon + dx + w / 2, lat + dy + h / 2] as const;
        const inside = positions.filter(([v, y, x]) => chosen.includes(v) && x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]).length;
        const said = store.eventsMayLieIn(chosen, box);
        if (!said) {
          empty++;
          assert.equal(inside, 0, `box ${box.join(', ')} of versions ${chosen.join(', ')} holds ${inside} events`);
        }
      }
      assert.ok(empty > 30, `only ${empty} of 300 boxes were said to hold nothing`);
      for (const [v, lat, lon] of positions.filter(() => r.chance(0.05))) assert.equal(store.eventsMayLieIn([v], [lon, lat, lon, lat]), true);
    });
  } finally {
    await store.close();
  }
});

const ALL_DATASETS = [
  'public-global-fishing-events:latest', 'public-global-encounters-events:latest', 'public-global-loitering-events:latest',
  'public-global-port-visits-events:latest', 'public-global-gaps-events:latest',
];

function randomPolygonQuery(r: Random): { filters: EventFilters; paging: { limit: number; offset: number; sort: (typeof SORT_VALUES)[number] } } {
  const g = r.pick(GROUNDS);
  const [cx, cy, radius] = [g.lon + r.between(-g.spread, g.spread), g.lat + r.between(-g.spread, g.spread), r.between(0.05, g.spread * 2)];
  const polygons = [[star(cx, cy, radius, r.int(3, 8), r.between(0.3, 1), r.next())]];
  if (r.chance(0.3)) polygons.push([star(cx + radius, cy - radius / 2, radius / 2, 5, 0.5, 0)]);
  const filters: EventFilters = { datasets: ALL_DATASETS.filter(() => r.chance(0.5)), geometry: { type: 'MultiPolygon', coordinates: polygons } };
  if (filters.datasets!.length === 0) filters.datasets!.push(ALL_DATASETS[0]!);
  if (r.chance(0.6)) {
    const start = Date.UTC(2017, 0, 1) + Math.floor(r.next() * 7 * 365) * 86_400_000;
    filters.startDate = new Date(start).toISOString().slice(0, 10);
    filters.endDate = new Date(start + r.int(1, 900) * 86_400_000).toISOString().slice(0, 10);
    if (r.chance(0.5)) filters.timeFilterMode = r.pick(TIME_FILTER_MODES);
  }
  if (r.chance(0.2)) filters.types = [r.pick(EVENT_TYPE_FILTER_VALUES)];
  if (r.chance(0.2)) filters.duration = r.int(0, 300);
  // A filter the table has no column for: the query reads events, with the same answers.
  if (r.chance(0.1)) filters.flags = [r.pick(g.flags)[0]];
  return { filters, paging: { limit: r.pick([1, 7, 100, SPATIAL_PAGE_LIMIT, SPATIAL_PAGE_LIMIT + 1]), offset: r.pick([0, 0, 3, 40]), sort: r.pick(SORT_VALUES) } };
}

test('150 random polygon queries answered from the table sorted by place: the events table\'s totals and pages', async () => {
  const store = await DuckDbStore.open({ path: fixture.dbPath });
  const versions = await readOnly(fixture.dbPath, readSpatialCells);
  assert.equal(versions.size, store.versions().length, 'the loader writes every version\'s rows');
  const r = new Random(31);
  const ctx = { catalog: store, access: { canRead: () => true } };
  let answeredByTable = 0;
  let nonEmpty = 0;
  try {
    await readOnly(fixture.dbPath, async (c) => {
      for (let i = 0; i < 150; i++) {
        const { filters, paging } = randomPolygonQuery(r);
        const query = await normalizeListQuery(filters, paging, ctx);
        const where = `polygon query ${i}: ${JSON.stringify({ filters, paging })}`;
        if (spatialPlan(query, versions)) answeredByTable++;
        else assert.ok(filters.flags, `${where}: only a flag filter sends it to events`);
        const expected = await eventsAnswer(c, query);
        assert.deepEqual(await storeAnswer(store, query), expected, where);
        // A page searched without its count first (another query object): found without the count's starts.
        const uncounted: string[] = [];
        for await (const chunk of await store.search({ ...query })) uncounted.push(...chunk.map((text) => (JSON.parse(text) as { id: string }).id));
        assert.deepEqual(uncounted, expected.ids, `${where}, searched without a count`);
        if (expected.total > 0) nonEmpty++;
      }
    });
  } finally {
    await store.close();
  }
  assert.ok(answeredByTable > 100, `only ${answeredByTable} of 150 queries were answered from the table`);
  assert.ok(nonEmpty > 60, `only ${nonEmpty} of 150 queries found anything: the generator is too narrow`);
});

test('a database without the table\'s rows answers from events, and migrate writes them', async () => {
  const dir = mkdtempSync(join(scratch, 'older-'));
  const path = join(dir, 'events.duckdb');
  copyDuckDbFiles(fixture.dbPath, path);
  // A file of this layout from before the table: it has neither table.
  await writing(path, async (c) => {
    for (const statement of ['DROP TABLE spatial_events', 'DROP TABLE spatial_versions', 'CHECKPOINT']) await c.run(statement);
  });
  const r = new Random(5);
  const requests = Array.from({ length: 20 }, () => randomPolygonQuery(r));
  const answers = async () => {
    const store = await DuckDbStore.open({ path });
    try {
      const ctx = { catalog: store, access: { canRead: () => true } };
      const out = [];
      for (const { filters, paging } of requests) out.push(await storeAnswer(store, await normalizeListQuery(filters, paging, ctx)));
      return out;
    } finally {
      await store.close();
    }
  };
  const before = await answers();
  assert.equal((await readOnly(path, readSpatialCells)).size, 0);
  const { from, to, pointFiles, spatialVersions } = await migrateDatabase(path);
  assert.deepEqual([from, to, pointFiles], [3, 3, 0]);
  assert.equal(spatialVersions, await readOnly(path, async (c) => Number((await c.runAndReadAll('SELECT count(*) FROM dataset_versions')).getRowsJS()[0]![0])));
  assert.equal(await readOnly(path, async (c) => Number((await c.runAndReadAll('SELECT count(*) FROM spatial_events')).getRowsJS()[0]![0])), fixture.records.length);
  assert.deepEqual(await answers(), before);
  await assert.rejects(migrateDatabase(path), /already has this version's storage layout \(3\), its point files, its spatial, region, vessel identity and monthly statistics tables/);
});
