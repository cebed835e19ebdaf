// The analyst formats: every format carries the same entries as the JSON page (and the same total
// and paging), in both wire formats, with shaping; the Accept header chooses when `format` is not
// given; one event as a GeoJSON Feature; CSV fields quoted and guarded against spreadsheet formulas.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { csvField } from '../../src/shape/formats.ts';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

type Entry = Record<string, unknown> & { id: string; position?: { lat: number | string; lon: number | string } };
type Page = { entries: Entry[]; total: number; limit: number; offset: number; nextOffset: number | null; metadata: unknown };

/** RFC 4180: quoted fields may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; } else field += c;
  }
  assert.equal(field, '', 'the CSV ends with a line break');
  return rows;
}

const at = (entry: unknown, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), entry);
const DATASETS = ['fishing', 'encounters', 'loitering', 'port-visits', 'gaps'].map((k) => `public-global-${k}-events:latest`).join(',');

describe('list formats: CSV, GeoJSON, NDJSON', () => {
  let t: TestApp;
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...t.auth, ...headers } });
  before(async () => {
    t = await startTestApp({ events: 3000, seed: 7 });
  });
  after(() => t.close());

  for (const wire of ['gfw', 'spec']) {
    for (const shaping of ['', '&summary=true', '&includes=id,vessel.name,regions.eez,port_visit.intermediateAnchorage.id,encounter.vessel.flag', '&include-regions=false']) {
      test(`the same entries in every format (${wire} wire${shaping ? `, ${shaping.slice(1)}` : ''})`, async () => {
        const url = `/v3/events?datasets=${DATASETS}&limit=60&offset=30&sort=-start${shaping}`;
        const headers = { 'x-wire-format': wire };
        const json = (await get(url, headers)).json() as Page;
        assert.equal(json.entries.length, 60);

        const ndjson = await get(`${url}&format=ndjson`, headers);
        assert.match(String(ndjson.headers['content-type']), /^application\/x-ndjson/);
        assert.deepEqual(ndjson.body.trimEnd().split('\n').map((line) => JSON.parse(line) as Entry), json.entries);
        assert.equal(ndjson.headers['x-total-count'], String(json.total));
        assert.equal(ndjson.headers['x-next-offset'], String(json.nextOffset ?? ''));

        const geo = await get(`${url}&format=geojson`, headers);
        assert.match(String(geo.headers['content-type']), /^application\/geo\+json/);
        const collection = geo.json() as { type: string; features: { type: string; id: string; geometry: { type: string; coordinates: number[] } | null; properties: Entry }[] } & Omit<Page, 'entries'>;
        assert.equal(collection.type, 'FeatureCollection');
        assert.deepEqual(collection.features.map((f) => f.properties), json.entries);
        assert.deepEqual([collection.total, collection.limit, collection.offset, collection.nextOffset, collection.metadata], [json.total, json.limit, json.offset, json.nextOffset, json.metadata]);
        // The point comes from the event, even when the shaped entry leaves its position out.
        const full = (await get(url.replace(shaping, ''), headers)).json() as Page;
        collection.features.forEach((f, i) => {
          assert.equal(f.type, 'Feature');
          assert.equal(f.id, full.entries[i]!.id);
          assert.deepEqual(f.geometry, { type: 'Point', coordinates: [Number(full.entries[i]!.position!.lon), Number(full.entries[i]!.position!.lat)] });
        });

        const csv = await get(`${url}&format=csv`, headers);
        assert.match(String(csv.headers['content-type']), /^text\/csv/);
        const [header, ...rows] = parseCsv(csv.body);
        assert.equal(rows.length, json.entries.length);
        assert.equal(new Set(header).size, header!.length);
        for (const [i, row] of rows.entries()) {
          assert.equal(row.length, header!.length);
          const entry = json.entries[i]!;
          header!.forEach((column, c) => {
            const value = at(entry, column);
            const cell = row[c]!;
            if (value === undefined || value === null) assert.equal(cell, '', `${column} of ${entry.id}`);
            else if (Array.isArray(value) && value.every((v) => typeof v !== 'object')) assert.deepEqual(cell === '' ? [] : cell.split(';'), value.map(String), column);
            else if (typeof value === 'object') assert.deepEqual(JSON.parse(cell), value, column);
            else assert.equal(cell, String(value), `${column} of ${entry.id}`);
          });
          // Every member the entry carries has its column (the kinds asked for, the shape kept).
          const leaves = (v: unknown, prefix: string): string[] => v !== null && typeof v === 'object' && !Array.isArray(v)
            ? Object.entries(v).flatMap(([k, x]) => leaves(x, prefix ? `${prefix}.${k}` : k)) : [prefix];
          for (const path of leaves(entry, '')) {
            if (path.includes('publicAuthorizations')) continue;
            // A null object (an open gap's onPosition) has its members' columns, left empty.
            assert.ok(header!.includes(path) || header!.some((h) => h.startsWith(`${path}.`)), `${path} has no column`);
          }
        }
      });
    }
  }

  test('the Accept header chooses when format is not given; format wins; POST takes format in the query', async () => {
    const url = `/v3/events?datasets=${DATASETS}&limit=5&offset=0`;
    assert.match(String((await get(url, { accept: 'text/csv' })).headers['content-type']), /^text\/csv/);
    assert.match(String((await get(url, { accept: 'application/geo+json, application/json;q=0.5' })).headers['content-type']), /^application\/geo\+json/);
    assert.match(String((await get(url, { accept: 'application/json, text/csv;q=0.1' })).headers['content-type']), /^application\/json/);
    assert.match(String((await get(url, { accept: 'text/html,*/*;q=0.8' })).headers['content-type']), /^application\/json/);
    assert.match(String((await get(`${url}&format=ndjson`, { accept: 'text/csv' })).headers['content-type']), /^application\/x-ndjson/);
    const post = await t.app.inject({ method: 'POST', url: '/v3/events?limit=5&offset=0&format=csv', headers: t.auth, payload: { datasets: ['public-global-fishing-events:latest'], flags: ['CHN'] } });
    assert.equal(post.statusCode, 200);
    assert.equal(parseCsv(post.body).length, 1 + Math.min(5, Number(post.headers['x-total-count'])));
    assert.ok(!parseCsv(post.body)[0]!.some((c) => c.startsWith('encounter.')), 'no columns of kinds not asked for');
  });

  test('a bad format is a 422 naming it; a page past the end is a header row, an empty collection, nothing', async () => {
    const bad = await get(`/v3/events?datasets=${DATASETS}&limit=5&offset=0&format=xlsx`);
    assert.equal(bad.statusCode, 422);
    assert.equal((bad.json() as { messages: { title: string }[] }).messages[0]!.title, 'format');
    const past = `/v3/events?datasets=${DATASETS}&limit=5&offset=999999`;
    assert.equal(parseCsv((await get(`${past}&format=csv`)).body).length, 1);
    assert.deepEqual((await get(`${past}&format=geojson`)).json().features, []);
    assert.equal((await get(`${past}&format=ndjson`)).body, '');
  });

  test('one event as a GeoJSON Feature; with raw=true it is a 422', async () => {
    const record = t.fixture.records.find((r) => r.kind === 'port_visit')!;
    const url = `/v3/events/${record.id}?dataset=public-global-port-visits-events:latest`;
    const entry = (await get(url)).json() as Entry;
    const feature = await get(`${url}&format=geojson`);
    assert.match(String(feature.headers['content-type']), /^application\/geo\+json/);
    assert.deepEqual(feature.json(), { type: 'Feature', id: record.id, geometry: { type: 'Point', coordinates: [Number(entry.position!.lon), Number(entry.position!.lat)] }, properties: entry });
    assert.deepEqual((await get(url, { accept: 'application/geo+json' })).json(), feature.json());
    const raw = await get(`${url}&raw=true&format=geojson`);
    assert.equal(raw.statusCode, 422);
    assert.equal((raw.json() as { messages: { title: string }[] }).messages[0]!.title, 'format');
  });
});

describe('CSV fields', () => {
  test('quotes, line breaks, arrays and formulas', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a, "b"'), '"a, ""b"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
    assert.equal(csvField(['8371', '8372']), '8371;8372');
    assert.equal(csvField([{ rfmo: 'ICCAT' }]), '"[{""rfmo"":""ICCAT""}]"');
    assert.equal(csvField(null), '');
    assert.equal(csvField(-12.5), '-12.5');
    assert.equal(csvField('-12.5'), '-12.5', 'a number written as a string (gfw wire) stays a number');
    assert.equal(csvField('=HYPERLINK("http://x")'), '"\'=HYPERLINK(""http://x"")"');
    assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvField('-fishing'), "'-fishing");
  });
});
