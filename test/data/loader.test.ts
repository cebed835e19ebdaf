import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { generateDemoRows, type PublishedRow } from '../../src/data/demo/generate.ts';
import { loadFiles, loadRows } from '../../src/data/load-events.ts';
import type { EventRecord } from '../../src/domain/record.ts';
import { toEntry } from '../helpers/entry-oracle.ts';
import { toPublishedRow } from '../../src/shape/raw.ts';
import { InvalidRows, LoadRefused } from '../../src/store/writer.ts';
import { readAllRecords } from '../helpers/fixture.ts';

const rows = [...generateDemoRows({ events: 400, seed: 3 })];
const firstOf = (kind: string) => structuredClone(rows.find((r) => r['event_type'] === kind)!);
const dir = mkdtempSync(join(tmpdir(), 'vessel-events-loader-'));
let n = 0;
const freshDb = () => join(dir, `db-${++n}.duckdb`);

async function loadOne(row: unknown, kind?: 'loitering' | 'gap'): Promise<EventRecord[]> {
  const dbPath = freshDb();
  await loadRows([row as PublishedRow], 'test', { database: { engine: 'duckdb', path: dbPath }, version: 'v1', source: 'test', ...(kind ? { kind } : {}) });
  return readAllRecords(dbPath);
}

describe('loader validation', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  const broken: [string, (r: PublishedRow) => void, RegExp][] = [
    ['a missing event_start', (r) => delete r['event_start'], /^event_start: is required$/],
    ['an unparseable event_end', (r) => (r['event_end'] = 'soon'), /^event_end: must be an ISO 8601 timestamp or null, got "soon"$/],
    ['an end before the start', (r) => (r['event_end'] = '2000-01-01T00:00:00Z'), /^event_end: must not be before event_start$/],
    ['a latitude out of range', (r) => (r['lat_mean'] = 91), /^lat_mean: must be a number in \[-90, 90\], got 91$/],
    ['a text latitude', (r) => (r['lat_mean'] = 'north'), /^lat_mean: must be a number in \[-90, 90\], got "north"$/],
    ['an unknown event_type', (r) => (r['event_type'] = 'whaling'), /^event_type: must be one of fishing, encounter, loitering, port_visit, gap, got "whaling"$/],
    ['event_info that is not JSON', (r) => (r['event_info'] = '{oops'), /^event_info: must be a JSON object/],
    ['a wrongly typed event_info field', (r) => ((r['event_info'] as Record<string, unknown>)['average_speed_knots'] = 'fast'), /^event_info: average_speed_knots must be a number, got "fast"$/],
    // JSON has no Infinity, and every entry is JSON.
    ['an infinite event_info number', (r) => ((r['event_info'] as Record<string, unknown>)['average_speed_knots'] = 'Infinity'), /^event_info: average_speed_knots must be a number, got "Infinity"$/],
    ['event_vessels without the entity', (r) => (r['entity_id'] = 'someone-else'), /^event_vessels: must contain the vessel of entity_id "someone-else"$/],
    ['regions that are not lists', (r) => (r['regions_mean_position'] = { eez: '8371' }), /^regions_mean_position: eez must be an array of region ids$/],
    ['a missing event_id', (r) => delete r['event_id'], /^event_id: is required$/],
  ];
  for (const [what, breakRow, message] of broken) {
    test(`rejects ${what}, naming the field, and loads nothing`, async () => {
      const good = firstOf('fishing');
      const bad = firstOf('fishing');
      breakRow(bad);
      const dbPath = freshDb();
      await assert.rejects(loadRows([good, bad], 'rows.ndjson', { database: { engine: 'duckdb', path: dbPath }, version: 'v1', source: 'test' }), (e) =>
        e instanceof InvalidRows && e.first.line === 2 && e.first.file === 'rows.ndjson' && message.test(e.first.problem));
    });
  }

  test('port visits need a confidence of 2, 3 or 4; gaps need intentional_disabling', async () => {
    const visit = firstOf('port_visit');
    (visit['event_info'] as Record<string, unknown>)['confidence'] = 5;
    await assert.rejects(loadOne(visit), (e) => e instanceof InvalidRows && /confidence must be 2, 3 or 4, got 5/.test(e.first.problem));
    const gap = firstOf('gap');
    delete (gap['event_info'] as Record<string, unknown>)['intentional_disabling'];
    await assert.rejects(loadOne(gap), (e) => e instanceof InvalidRows && /intentional_disabling is required for gap events/.test(e.first.problem));
  });

  test('event_info and event_vessels may be strings holding JSON, numbers may be numeric strings', async () => {
    const row = firstOf('gap');
    row['event_info'] = JSON.stringify(row['event_info']);
    row['event_vessels'] = JSON.stringify(row['event_vessels']);
    row['lat_mean'] = String(row['lat_mean']);
    const [record] = await loadOne(row);
    assert.equal(record!.lat, Number(row['lat_mean']));
    assert.equal(record!.info['intentional_disabling'], JSON.parse(row['event_info'] as string).intentional_disabling);
  });

  test('an encounter row with a base id gets the .1/.2 suffix from its vessel position', async () => {
    const row = firstOf('encounter');
    const vessels = row['event_vessels'] as { id: string }[];
    row['event_id'] = 'abc';
    row['entity_id'] = vessels[1]!.id;
    assert.equal((await loadOne(row))[0]!.id, 'abc.2');
  });

  test('a row without event_type takes --dataset; a conflicting one is refused', async () => {
    const row = firstOf('loitering');
    delete row['event_type'];
    assert.equal((await loadOne(row, 'loitering'))[0]!.kind, 'loitering');
    await assert.rejects(loadOne(firstOf('fishing'), 'gap'), (e) => e instanceof InvalidRows && /but --dataset is gap/.test(e.first.problem));
  });

  test('--skip-invalid loads the valid rows and reports the invalid ones', async () => {
    const bad = firstOf('fishing');
    bad['lat_mean'] = 'x';
    const dbPath = freshDb();
    const result = await loadRows([firstOf('fishing'), bad, firstOf('gap')], 'rows', { database: { engine: 'duckdb', path: dbPath }, version: 'v1', source: 't', skipInvalid: true });
    assert.equal(result.skippedCount, 1);
    assert.deepEqual(result.skipped.map((s) => s.line), [2]);
    assert.equal((await readAllRecords(dbPath)).length, 2);
  });

  test('duplicate event ids within one load are refused', async () => {
    await assert.rejects(loadRows([firstOf('fishing'), firstOf('fishing')], 'dup', { database: { engine: 'duckdb', path: freshDb() }, version: 'v1', source: 't' }), (e) =>
      e instanceof LoadRefused && /appears more than once/.test(e.message));
  });

  test('NDJSON lines carry their line numbers; blank lines count', async () => {
    const file = join(dir, 'gap.ndjson');
    const bad = firstOf('gap');
    bad['lon_mean'] = 200;
    writeFileSync(file, `${JSON.stringify(firstOf('gap'))}\n\n${JSON.stringify(bad)}\nnot json\n`);
    await assert.rejects(loadFiles([{ path: file, format: 'ndjson' }], { database: { engine: 'duckdb', path: freshDb() }, version: 'v1', source: file }), (e) =>
      e instanceof InvalidRows && e.first.line === 3 && /^lon_mean/.test(e.first.problem) && e.count === 2);
  });
});

describe('stored records', () => {
  let records: EventRecord[];
  before(async () => {
    const dbPath = freshDb();
    await loadRows(rows, 'demo', { database: { engine: 'duckdb', path: dbPath }, version: 'v1', source: 'test' });
    records = await readAllRecords(dbPath);
  });

  test('the published events are compressed (the load stages its rows uncompressed)', async () => {
    // Enough rows for DuckDB to find compression worth it on every column checked.
    const dbPath = freshDb();
    await loadRows(generateDemoRows({ events: 3000, seed: 4 }), 'demo', { database: { engine: 'duckdb', path: dbPath }, version: 'v1', source: 'test' });
    const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
    try {
      const c = await instance.connect();
      const reader = await c.runAndReadAll(
        `SELECT column_name, list(DISTINCT compression) FROM pragma_storage_info('events') WHERE column_name IN ('kind', 'vessel_id', 'lat', 'start_ts') AND segment_type <> 'VALIDITY' GROUP BY ALL ORDER BY 1`,
      );
      const byColumn = reader.getRowsJS() as [string, string[]][];
      assert.equal(byColumn.length, 4);
      for (const [column, methods] of byColumn) assert.ok(!methods.includes('Uncompressed'), `${column} stored as ${methods.join(', ')}`);
      c.closeSync();
    } finally {
      instance.closeSync();
    }
  });

  test('every generated row loads, and raw returns its published fields', () => {
    assert.equal(records.length, rows.length);
    for (const record of records) {
      const source = rows.find((r) => r['event_id'] === record.id)!;
      const raw = toPublishedRow(record);
      for (const key of ['event_id', 'event_type', 'entity_id', 'event_start', 'event_end', 'lat_mean', 'lon_mean', 'start_distance_from_shore_km']) {
        assert.deepEqual(raw[key], source[key], `${record.id} ${key}`);
      }
      assert.deepEqual(JSON.parse(raw['event_info'] as string), source['event_info'], record.id);
    }
  });

  const keys = ['start', 'end', 'id', 'type', 'position', 'regions', 'boundingBox', 'distances', 'vessel'];
  for (const kind of ['fishing', 'encounter', 'loitering', 'gap', 'port_visit']) {
    test(`${kind}: entry keys in the decided order with the kind block last, in both wire formats`, () => {
      const record = records.find((r) => r.kind === kind)!;
      for (const wire of ['spec', 'gfw'] as const) {
        const entry = toEntry(record, wire);
        assert.deepEqual(Object.keys(entry), [...keys, kind]);
        assert.deepEqual(Object.keys(entry['regions'] as object), ['eez', 'eez12Nm', 'fao', 'majorFao', 'highSeas', 'mpa', 'mpaNoTake', 'mpaNoTakePartial', 'rfmo']);
        assert.match(entry['start'] as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
    });
  }

  test('spec writes numbers and null; gfw writes the live service\'s strings and ""', () => {
    const gap = { ...records.find((r) => r.kind === 'gap')!, endMs: null };
    const spec = toEntry(gap, 'spec') as { end: unknown; gap: Record<string, unknown>; vessel: { publicAuthorizations: { hasPubliclyListedAuthorization: unknown }[] } };
    const gfw = toEntry(gap, 'gfw') as typeof spec;
    assert.equal(spec.end, null);
    assert.equal(gfw.end, '');
    for (const key of ['distanceKm', 'impliedSpeedKnots', 'positions12HoursBeforeSat']) {
      assert.equal(typeof spec.gap[key], 'number', key);
      assert.equal(typeof gfw.gap[key], 'string', key);
    }
    assert.equal(typeof (gfw.gap['offPosition'] as { lat: unknown }).lat, 'number');
    for (const a of gfw.vessel.publicAuthorizations) assert.match(a.hasPubliclyListedAuthorization as string, /^(true|false|pending)$/);

    const visit = records.find((r) => r.kind === 'port_visit')!;
    type Visit = { port_visit: { confidence: unknown; startAnchorage: { distanceFromShoreKm: unknown } }; position: { lat: unknown } };
    const specVisit = toEntry(visit, 'spec') as unknown as Visit;
    const gfwVisit = toEntry(visit, 'gfw') as unknown as Visit;
    assert.equal(typeof specVisit.port_visit.confidence, 'number');
    assert.equal(typeof gfwVisit.port_visit.confidence, 'string');
    assert.equal(typeof gfwVisit.port_visit.startAnchorage.distanceFromShoreKm, 'string');
    assert.equal(typeof gfwVisit.position.lat, 'number');
  });

  test('an encounter entry carries the other vessel first in its block, type lower case main-other', () => {
    const one = records.find((r) => r.kind === 'encounter' && r.id.endsWith('.1'))!;
    const two = records.find((r) => r.id === one.id.replace(/\.1$/, '.2'))!;
    type Enc = { vessel: { id: string }; encounter: { vessel: { id: string }; type: string } };
    const [a, b] = [toEntry(one, 'spec') as unknown as Enc, toEntry(two, 'spec') as unknown as Enc];
    assert.equal(a.vessel.id, b.encounter.vessel.id);
    assert.equal(b.vessel.id, a.encounter.vessel.id);
    assert.equal(Object.keys(a.encounter)[0], 'vessel');
    assert.match(a.encounter.type, /^[a-z_]*-[a-z_]*$/);
    assert.equal(a.encounter.type.split('-').reverse().join('-'), b.encounter.type);
  });
});
