// Parquet lists (`format=parquet`): read back with DuckDB's read_parquet, every cell equals the JSON
// page's entry (spec wire format) for the same request, with the same total and paging headers; the
// position is a WKB point whose `geo` metadata validates against the GeoParquet 1.1 schema; shaping
// keeps the same members as in JSON; the Accept header, POST and an empty page work; no file is left.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { Ajv } from 'ajv';
import { ENTRY_FIELDS, type FieldType } from '../../src/domain/entry-paths.ts';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

type Entry = Record<string, unknown>;
const DATASETS = ['fishing', 'encounters', 'loitering', 'port-visits', 'gaps'].map((k) => `public-global-${k}-events:latest`).join(',');
const scratch = mkdtempSync(join(tmpdir(), 'vessel-events-parquet-test-'));

/** The GeoParquet 1.1 metadata schema (format-specs/schema.json of the 1.1.0 release; crs checked as object or null). */
const GEOPARQUET_1_1 = {
  type: 'object',
  required: ['version', 'primary_column', 'columns'],
  properties: {
    version: { type: 'string', const: '1.1.0' },
    primary_column: { type: 'string', minLength: 1 },
    columns: {
      type: 'object',
      minProperties: 1,
      additionalProperties: false,
      patternProperties: {
        '.+': {
          type: 'object',
          required: ['encoding', 'geometry_types'],
          properties: {
            encoding: { type: 'string', const: 'WKB' },
            geometry_types: { type: 'array', uniqueItems: true, items: { type: 'string', pattern: '^(GeometryCollection|(Multi)?(Point|LineString|Polygon))( Z)?$' } },
            crs: { type: ['object', 'null'] },
            edges: { type: 'string', enum: ['planar', 'spherical'] },
            orientation: { type: 'string', const: 'counterclockwise' },
            bbox: { type: 'array', items: { type: 'number' }, oneOf: [{ minItems: 4, maxItems: 4 }, { minItems: 6, maxItems: 6 }] },
            epoch: { type: 'number' },
            covering: {
              type: 'object',
              minProperties: 1,
              properties: {
                bbox: {
                  type: 'object',
                  required: ['xmin', 'xmax', 'ymin', 'ymax'],
                  properties: Object.fromEntries(['xmin', 'xmax', 'ymin', 'ymax'].map((k) => [k, { type: 'array', items: [{ type: 'string' }, { const: k }], additionalItems: false }])),
                },
              },
            },
          },
        },
      },
    },
  },
};

/** A JSON value as the Parquet cell of its layout type must hold it. */
function expectedCell(value: unknown, type: FieldType): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'timestamp') return value === '' ? null : Date.parse(value as string);
  if (type === 'number' || type === 'integer') return Number(value);
  if (type === 'boolean') return value;
  if (type === 'string') return typeof value === 'string' ? value : String(value);
  if ('list' in type) return (value as unknown[]).map((v) => expectedCell(v, type.list));
  return Object.fromEntries(Object.entries(type.fields).map(([k, t]) => [k, expectedCell((value as Entry)[k], t)]));
}

/** A cell as DuckDB hands it over, with integers as numbers. */
function plain(cell: unknown): unknown {
  if (typeof cell === 'bigint') return Number(cell);
  if (Array.isArray(cell)) return cell.map(plain);
  if (cell !== null && typeof cell === 'object' && !(cell instanceof Uint8Array)) return Object.fromEntries(Object.entries(cell).map(([k, v]) => [k, plain(v)]));
  return cell;
}

interface ReadBack {
  columns: { name: string; type: string }[];
  rows: Entry[];
  geo: unknown;
}

describe('Parquet lists', () => {
  let t: TestApp;
  let instance: DuckDBInstance;
  let c: DuckDBConnection;
  let files = 0;
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...t.auth, ...headers } });

  async function readBack(body: Buffer): Promise<ReadBack> {
    const path = join(scratch, `page-${files++}.parquet`);
    writeFileSync(path, body);
    const quoted = `'${path}'`;
    const columns = (await c.runAndReadAll(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${quoted}))`)).getRowsJS().map(([name, type]) => ({ name: name as string, type: type as string }));
    const instants = columns.filter((col) => col.name === 'start' || col.name === 'end').map((col) => `epoch_ms("${col.name}")::DOUBLE AS "${col.name}"`);
    const select = instants.length ? `SELECT * REPLACE (${instants.join(', ')})` : 'SELECT *';
    const rows = (await c.runAndReadAll(`${select} FROM read_parquet(${quoted})`)).getRowObjectsJS() as Entry[];
    const geo = (await c.runAndReadAll(`SELECT decode(value) FROM parquet_kv_metadata(${quoted}) WHERE decode(key) = 'geo'`)).getRowsJS();
    assert.equal(geo.length, 1, 'one geo metadata entry');
    return { columns, rows: rows.map((r) => plain(r) as Entry), geo: JSON.parse(geo[0]![0] as string) };
  }

  before(async () => {
    t = await startTestApp({ events: 1500, seed: 11 });
    instance = await DuckDBInstance.create(':memory:');
    c = await instance.connect();
  });
  after(async () => {
    c?.closeSync();
    instance?.closeSync();
    await t?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  for (const shaping of ['', '&summary=true', '&includes=id,start,vessel.name,vessel.publicAuthorizations.rfmo,regions.eez,port_visit.intermediateAnchorage.id,encounter.vessel.flag,gap.onPosition', '&include-regions=false']) {
    test(`every cell equals the JSON entry's value${shaping ? ` (${shaping.slice(1)})` : ''}`, async () => {
      const url = `/v3/events?datasets=${DATASETS}&limit=400&offset=100&sort=-start${shaping}`;
      const json = (await get(url)).json() as { entries: Entry[]; total: number; nextOffset: number | null };
      assert.equal(json.entries.length, 400);
      const res = await get(`${url}&format=parquet`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/vnd.apache.parquet');
      assert.equal(res.headers['x-total-count'], String(json.total));
      assert.equal(res.headers['x-next-offset'], String(json.nextOffset ?? ''));
      assert.equal(Number(res.headers['content-length']), res.rawPayload.length);
      const { columns, rows } = await readBack(res.rawPayload);

      // The columns: the members the JSON entries carry, in the layout's order, then the point and its box.
      const names = columns.map((col) => col.name);
      assert.deepEqual(names.slice(-2), ['geometry', 'bbox']);
      const layout = Object.keys(ENTRY_FIELDS);
      const members = [...new Set(json.entries.flatMap((e) => Object.keys(e)))].sort((a, b) => layout.indexOf(a) - layout.indexOf(b));
      assert.deepEqual(names.slice(0, -2), members);

      assert.equal(rows.length, json.entries.length);
      json.entries.forEach((entry, i) => {
        // A member an entry lacks (another kind's block) is a null cell, and so is a field it lacks.
        for (const name of members) assert.deepEqual(withoutNulls(rows[i]![name]), withoutNulls(expectedCell(entry[name], ENTRY_FIELDS[name]!)), `entry ${i} (${String(entry['id'])}), ${name}`);
      });
    });
  }

  test('the point is WKB of the position, with its covering box; the geo metadata is GeoParquet 1.1', async () => {
    // `includes` leave the position out of the columns; the point is still the event's.
    for (const shaping of ['', '&includes=id']) {
      const url = `/v3/events?datasets=${DATASETS}&limit=300&offset=0${shaping}`;
      const full = (await get(`/v3/events?datasets=${DATASETS}&limit=300&offset=0`)).json() as { entries: { position: { lat: number; lon: number } }[] };
      const { rows, geo, columns } = await readBack((await get(`${url}&format=parquet`)).rawPayload);
      // DuckDB's own GeoParquet reader takes the column as a geometry in longitude and latitude.
      assert.equal(columns.find((col) => col.name === 'geometry')!.type, "GEOMETRY('OGC:CRS84')");
      assert.equal(columns.some((col) => col.name === 'position'), shaping === '');
      rows.forEach((row, i) => {
        const wkb = Buffer.from(row['geometry'] as Uint8Array);
        const { lat, lon } = full.entries[i]!.position;
        assert.equal(wkb.length, 21);
        assert.equal(wkb.readUInt8(0), 1, 'little endian');
        assert.equal(wkb.readUInt32LE(1), 1, 'a Point');
        assert.deepEqual([wkb.readDoubleLE(5), wkb.readDoubleLE(13)], [lon, lat]);
        assert.deepEqual(row['bbox'], { xmin: lon, ymin: lat, xmax: lon, ymax: lat });
      });
      const validate = new Ajv({ strict: false }).compile(GEOPARQUET_1_1);
      assert.ok(validate(geo), JSON.stringify(validate.errors));
      assert.deepEqual((geo as { primary_column: string }).primary_column, 'geometry');
    }
  });

  test('the Accept header asks for Parquet; POST lists answer it too; an open event ends null', async () => {
    const accepted = await get(`/v3/events?datasets=public-global-gaps-events:latest&limit=2000&offset=0`, { accept: 'application/vnd.apache.parquet' });
    assert.equal(accepted.headers['content-type'], 'application/vnd.apache.parquet');
    const json = (await get(`/v3/events?datasets=public-global-gaps-events:latest&limit=2000&offset=0`)).json() as { entries: Entry[] };
    const { rows } = await readBack(accepted.rawPayload);
    const open = json.entries.flatMap((e, i) => (e['end'] === null ? [i] : []));
    assert.ok(open.length > 0, 'the fixture has open gaps');
    for (const i of open) assert.equal(rows[i]!['end'], null);

    const post = await t.app.inject({ method: 'POST', url: '/v3/events?limit=50&offset=10&format=parquet', headers: t.auth, payload: { datasets: ['public-global-port-visits-events:latest'], flags: ['ESP', 'CHN'] } });
    const posted = (await t.app.inject({ method: 'POST', url: '/v3/events?limit=50&offset=10', headers: t.auth, payload: { datasets: ['public-global-port-visits-events:latest'], flags: ['ESP', 'CHN'] } })).json() as { entries: Entry[]; total: number };
    assert.equal(post.headers['x-total-count'], String(posted.total));
    assert.deepEqual((await readBack(post.rawPayload)).rows.map((r) => r['id']), posted.entries.map((e) => e['id']));
  });

  test('a page past the end is a Parquet file with the columns and no rows; no temporary file is left', async () => {
    const res = await get(`/v3/events?datasets=public-global-fishing-events:latest&limit=10&offset=1000000&format=parquet`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-next-offset'], '');
    const { rows, columns } = await readBack(res.rawPayload);
    assert.equal(rows.length, 0);
    assert.ok(columns.some((col) => col.name === 'fishing') && !columns.some((col) => col.name === 'gap'), 'the blocks of the kinds asked for');
    assert.deepEqual(readdirSync(tmpdir()).filter((f) => f.startsWith('vessel-events-parquet-page-')), []);
  });
});

/** Null fields dropped from objects: a member the JSON omits and a null field are the same cell. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
  return value;
}
