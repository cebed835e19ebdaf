// Regions, geometry and buffers against a reference done in the test: point-in-polygon with turf
// directly on the loaded entries' positions (shifted by ±360 for polygons past the antimeridian),
// and region ids against the entries' `regions` members. Same total, same ids.
// Replay a failure with AREA_TEST_SEED=<seed>.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { buffer } from '@turf/buffer';
import { difference } from '@turf/difference';
import { featureCollection, multiPolygon, point, type Units } from '@turf/helpers';
import type { Feature, MultiPolygon, Polygon as GeoPolygon } from 'geojson';
import { Random } from '../../src/data/demo/random.ts';
import { GROUNDS } from '../../src/data/demo/fleet.ts';
import type { EventRecord } from '../../src/domain/record.ts';
import { startTestApp, TEST_ENGINE, type Fixture, type TestApp } from '../helpers/fixture.ts';
import { caseCount, seedOf } from '../helpers/size.ts';

const SEED = seedOf('AREA_TEST_SEED', 20779);
const QUERIES = caseCount('AREA_TEST_QUERIES', 200, 30);
type Ring = [number, number][];
type Poly = Ring[];

function regular(cx: number, cy: number, radius: number, sides: number, jitter: (i: number) => number = () => 1, phase = 0): Ring {
  const ring: Ring = [];
  for (let i = 0; i < sides; i++) {
    const a = phase + (2 * Math.PI * i) / sides;
    ring.push([cx + radius * jitter(i) * Math.cos(a), cy + radius * jitter(i) * Math.sin(a)]);
  }
  ring.push([...ring[0]!] as [number, number]);
  return ring;
}

/**
 * A centre within a degree of a point of a fishing ground's axis, far enough from the antimeridian
 * that a shape of this radius does not cross it.
 */
function nearGround(r: Random, radius: number): [number, number] {
  const [x, y] = r.pick(r.pick(GROUNDS).axis);
  const limit = 180 - 1.6 * radius;
  return [Math.max(-limit, Math.min(limit, x + r.between(-1, 1))), y + r.between(-1, 1)];
}

/** A random polygon near a fishing ground: convex, concave (a star), with a hole, or multi-part. */
function randomShape(r: Random): { geometry: unknown; polygons: Poly[] } {
  const radius = r.between(0.1, 3);
  const [cx, cy] = nearGround(r, radius);
  const kind = r.pick(['convex', 'star', 'hole', 'multi'] as const);
  let polygons: Poly[];
  if (kind === 'convex') polygons = [[regular(cx, cy, radius, r.int(3, 12), () => 1, r.next())]];
  else if (kind === 'star') polygons = [[regular(cx, cy, radius, r.int(5, 9) * 2, (i) => (i % 2 ? 0.4 : 1), r.next())]];
  else if (kind === 'hole') polygons = [[regular(cx, cy, radius, 10), regular(cx, cy, radius * 0.4, 8).reverse()]];
  else polygons = [[regular(cx, cy, radius * 0.5, 6)], [regular(cx + radius, cy + radius * 0.3, radius * 0.5, 7)]];
  const geometry = polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0] } : { type: 'MultiPolygon', coordinates: polygons };
  const wrapped = r.pick(['bare', 'feature', 'collection'] as const);
  return {
    polygons,
    geometry: wrapped === 'bare' ? geometry : wrapped === 'feature' ? { type: 'Feature', properties: {}, geometry } : { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry }] },
  };
}

const UNITS: Record<string, Units> = { MILES: 'miles', NAUTICALMILES: 'nauticalmiles', KILOMETERS: 'kilometers', RADIANS: 'radians', DEGREES: 'degrees' };
const SIZE: Record<string, number> = { MILES: 20, NAUTICALMILES: 20, KILOMETERS: 40, RADIANS: 0.005, DEGREES: 0.3 };

function inside(polygons: Poly[], r: EventRecord): boolean {
  if (polygons.length === 0) return false;
  const area = multiPolygon(polygons);
  return [r.lon, r.lon + 360, r.lon - 360].some((lon) => booleanPointInPolygon(point([lon, r.lat]), area));
}

function buffered(polygons: Poly[], value: number, unit: string, operation: string): Poly[] {
  const original = multiPolygon(polygons);
  const grown = buffer(original, value, { units: UNITS[unit] }) as Feature<GeoPolygon | MultiPolygon> | undefined;
  const result = operation === 'DISSOLVE' ? grown : !grown ? (value < 0 ? original : undefined) : value >= 0 ? difference(featureCollection([grown, original])) : difference(featureCollection([original, grown]));
  const geometry = result?.geometry;
  if (!geometry) return [];
  return (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates) as Poly[];
}

let t: TestApp;
let fixture: Fixture;
before(async () => {
  t = await startTestApp({ events: 8000, seed: 41 });
  fixture = t.fixture;
});
after(() => t.close());

const ALL = ['public-global-fishing-events:latest', 'public-global-encounters-events:latest', 'public-global-loitering-events:latest', 'public-global-port-visits-events:latest', 'public-global-gaps-events:latest'];

async function ids(payload: Record<string, unknown>): Promise<{ total: number; ids: string[] }> {
  const res = await t.app.inject({ method: 'POST', url: '/v3/events?limit=100000&offset=0', headers: t.auth, payload: { datasets: ALL, ...payload } });
  assert.equal(res.statusCode, 200, `${JSON.stringify(payload).slice(0, 400)}\n${res.body}`);
  const body = res.json() as { total: number; entries: { id: string }[] };
  return { total: body.total, ids: body.entries.map((e) => e.id).sort() };
}

test(`${QUERIES} random polygons and buffers agree with turf point-in-polygon (AREA_TEST_SEED=${SEED})`, async () => {
  const r = new Random(SEED);
  let nonEmpty = 0;
  for (let i = 0; i < QUERIES; i++) {
    const shape = randomShape(r);
    const payload: Record<string, unknown> = { geometry: shape.geometry };
    let polygons = shape.polygons;
    if (r.chance(0.5)) {
      const unit = r.pick(Object.keys(UNITS));
      const value = SIZE[unit]! * r.between(-0.8, 1.5);
      const operation = r.pick(['DISSOLVE', 'DIFFERENCE']);
      Object.assign(payload, { 'buffer-value': value, 'buffer-unit': unit, ...(operation === 'DIFFERENCE' || r.chance(0.5) ? { bufferOperation: operation } : {}) });
      polygons = buffered(polygons, value, unit, operation);
    }
    const got = await ids(payload);
    const expected = fixture.records.filter((rec) => inside(polygons, rec)).map((rec) => rec.id).sort();
    const where = `query ${i} of AREA_TEST_SEED=${SEED}: ${JSON.stringify(payload).slice(0, 600)}`;
    assert.equal(got.total, expected.length, where);
    assert.deepEqual(got.ids, expected, where);
    if (expected.length) nonEmpty++;
  }
  assert.ok(nonEmpty > QUERIES * 0.3, `only ${nonEmpty} of ${QUERIES} polygons held any event`);
});

test('a FeatureCollection of many polygons (past 16 they are joined, not OR terms), overlapping and with holes, agrees with turf', async () => {
  const r = new Random(SEED + 2);
  let nonEmpty = 0;
  for (let i = 0; i < 12; i++) {
    const polygons: Poly[] = [];
    for (let k = r.int(17, 90); k > 0; k--) {
      const radius = r.between(0.2, 2);
      const [cx, cy] = nearGround(r, radius);
      polygons.push(r.chance(0.2) ? [regular(cx, cy, radius, 10), regular(cx, cy, radius * 0.5, 8).reverse()] : [regular(cx, cy, radius, r.int(3, 12), () => 1, r.next())]);
    }
    const geometry = { type: 'FeatureCollection', features: polygons.map((coordinates) => ({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates } })) };
    const got = await ids({ geometry });
    const expected = fixture.records.filter((rec) => polygons.some((p) => inside([p], rec))).map((rec) => rec.id).sort();
    assert.equal(got.total, expected.length, `collection ${i} of ${polygons.length} polygons`);
    assert.deepEqual(got.ids, expected, `collection ${i} of ${polygons.length} polygons`);
    if (expected.length) nonEmpty++;
  }
  assert.ok(nonEmpty >= 6, `only ${nonEmpty} of 12 collections held any event`);
});

test('a polygon across the antimeridian: one ring past 180, or split at 180 (RFC 7946), mean the same area', async () => {
  const ring: Ring = [[170, -4], [190, -4], [190, 6], [170, 6], [170, -4]];
  const split = { type: 'MultiPolygon', coordinates: [[[[170, -4], [180, -4], [180, 6], [170, 6], [170, -4]]], [[[-180, -4], [-170, -4], [-170, 6], [-180, 6], [-180, -4]]]] };
  const one = await ids({ geometry: { type: 'Polygon', coordinates: [ring] } });
  const two = await ids({ geometry: split });
  const expected = fixture.records.filter((rec) => inside([[ring]], rec)).map((rec) => rec.id).sort();
  assert.ok(expected.length > 0, 'the Western Central Pacific ground reaches past 170E');
  assert.deepEqual(one.ids, expected);
  assert.deepEqual(two.ids, expected);
});

test('region ids, alone and as unions, in every spelling, match the entries\' regions members', async () => {
  const r = new Random(SEED + 1);
  const members = [['public-eez-areas', 'eez'], ['public-rfmo', 'rfmo'], ['public-fao-major', 'majorFao'], ['public-mpa-all', 'mpa'], ['public-high-seas', 'highSeas'], ['public-eez-areas-12nm', 'eez12Nm'], ['public-fao-areas', 'fao']] as const;
  for (let i = 0; i < 60; i++) {
    const picks = Array.from({ length: r.int(1, 3) }, () => {
      const [dataset, member] = r.pick(members);
      const carriers = fixture.records.filter((rec) => rec.regions[member].length > 0);
      return { dataset, member, id: r.pick(r.pick(carriers).regions[member]) };
    });
    const expected = fixture.records.filter((rec) => picks.some((p) => rec.regions[p.member].includes(p.id))).map((rec) => rec.id).sort();
    const form = r.pick(['pairs', 'region', 'regions'] as const);
    const payload =
      form === 'pairs' ? { regionDatasets: picks.map((p) => p.dataset), regionIds: picks.map((p) => (/^\d+$/.test(p.id) && r.chance(0.5) ? Number(p.id) : p.id)) }
      : form === 'region' && picks.length === 1 ? { region: { dataset: [picks[0]!.dataset], id: [picks[0]!.id] } }
      : { regions: picks.map((p) => ({ dataset: p.dataset, id: p.id })) };
    const got = await ids(payload);
    assert.deepEqual(got.ids, expected, `${JSON.stringify(payload)} (AREA_TEST_SEED=${SEED})`);
  }
});

test('a polygon whose first coordinates are whole numbers and later ones decimals (bound as doubles)', async () => {
  const ring: Ring = [[-19, 13], [-17.25, 13.5], [-17.5, 15.75], [-19, 15], [-19, 13]];
  const got = await ids({ geometry: { type: 'Polygon', coordinates: [ring] } });
  const expected = fixture.records.filter((rec) => inside([[ring]], rec)).map((rec) => rec.id).sort();
  assert.ok(expected.length > 0);
  assert.deepEqual(got.ids, expected);
});

const DATASET_OF_KIND: Record<string, string> = {
  fishing: ALL[0]!, encounter: ALL[1]!, loitering: ALL[2]!, port_visit: ALL[3]!, gap: ALL[4]!,
};

test('buffered shapes near events, some out of reach of all of them: the buffer is left uncomputed only where turf finds nothing', async () => {
  const r = new Random(SEED + 3);
  let [outOfReach, nonEmpty] = [0, 0];
  for (let i = 0; i < 100; i++) {
    // A shape some way off a random event, so that its buffer reaches that event or falls just short.
    const near = r.pick(fixture.records);
    const [distance, bearing] = [r.between(0.3, 4), r.between(0, 2 * Math.PI)];
    const [cx, cy] = [near.lon + distance * Math.cos(bearing), Math.max(-80, Math.min(80, near.lat + distance * Math.sin(bearing)))];
    const polygons: Poly[] = [[regular(cx, cy, r.between(0.05, 1), r.int(3, 10), () => 1, r.next())]];
    const unit = r.pick(['NAUTICALMILES', 'KILOMETERS', 'DEGREES'] as const);
    const value = { NAUTICALMILES: 60, KILOMETERS: 110, DEGREES: 1 }[unit] * r.between(0.02, 2);
    const operation = r.pick(['DISSOLVE', 'DIFFERENCE']);
    const datasets = r.chance(0.7) ? [DATASET_OF_KIND[near.kind]!] : ALL;
    const payload = { datasets, geometry: { type: 'Polygon', coordinates: polygons[0] }, 'buffer-value': value, 'buffer-unit': unit, bufferOperation: operation };
    const res = await t.app.inject({ method: 'POST', url: '/v3/events?limit=100000&offset=0', headers: t.auth, payload });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { total: number; entries: { id: string }[]; metadata: { area: { outOfReach?: number[] } } };
    const kinds = new Set(datasets.map((d) => Object.keys(DATASET_OF_KIND).find((k) => DATASET_OF_KIND[k] === d)));
    const area = buffered(polygons, value, unit, operation);
    const expected = fixture.records.filter((rec) => kinds.has(rec.kind) && inside(area, rec)).map((rec) => rec.id).sort();
    const where = `shape ${i} (AREA_TEST_SEED=${SEED}): ${JSON.stringify(payload)}`;
    assert.equal(body.total, expected.length, where);
    assert.deepEqual(body.entries.map((e) => e.id).sort(), expected, where);
    if (body.metadata.area.outOfReach) outOfReach++;
    if (expected.length) nonEmpty++;
  }
  assert.ok(nonEmpty >= 10, `only ${nonEmpty} of 100 shapes held events`);
  assert.ok(outOfReach >= 10, `only ${outOfReach} of 100 shapes were out of reach (${TEST_ENGINE})`);
});
