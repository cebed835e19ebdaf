// Property test of the loader's row validation (src/store/duckdb/ingest.ts), run by DuckDB on
// the real ingest query: a valid row with one field broken is rejected with a message naming that
// field, and one with a field given in an equivalent form (a numeric string, JSON in a string) is
// accepted with the same typed values. A table's rows (CSV, Parquet), read from their columns,
// get the same problems and typed values as their JSON documents.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { generateDemoRows, type PublishedRow } from '../../src/data/demo/generate.ts';
import { EVENT_KINDS } from '../../src/domain/kinds.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileIngest, RAW_COLUMNS, tableSourceSql } from '../../src/store/duckdb/ingest.ts';

const samples = [...generateDemoRows({ events: 300, seed: 11 })];
const byKind = EVENT_KINDS.map((k) => samples.find((r) => r['event_type'] === k)!);

type Breakage = { field: string; names: string[]; apply: (r: PublishedRow) => void };
const set = (field: string, value: unknown, names = [field]): Breakage => ({ field, names, apply: (r) => (r[field] = value) });
const remove = (field: string, names = [field]): Breakage => ({ field, names, apply: (r) => delete r[field] });
const info = (apply: (i: Record<string, unknown>) => void): ((r: PublishedRow) => void) => (r) => apply(r['event_info'] as Record<string, unknown>);

/** Changes that make a row invalid, and the fields its message may name. */
const breakages: Breakage[] = [
  remove('event_id'), set('event_id', ''), remove('entity_id', ['entity_id', 'event_vessels']), set('entity_id', 'nobody', ['event_vessels']),
  remove('event_start'), set('event_start', 'yesterday'), set('event_start', 12), set('event_start', '2100-01-01T00:00:00Z', ['event_end']),
  set('event_end', 'later'), set('event_end', '1990-01-01T00:00:00Z'), set('event_end', { at: 1 }),
  set('event_type', 'whaling'), set('event_type', 3),
  ...['lat_mean', 'lon_mean'].flatMap((f) => [remove(f), set(f, 'x'), set(f, 500), set(f, [1]), set(f, true)]),
  ...['lat_min', 'lon_max', 'start_distance_from_shore_km'].flatMap((f) => [set(f, 'x'), set(f, {})]),
  remove('event_info'), set('event_info', '{oops'), set('event_info', '[1, 2]'), set('event_info', [1]), set('event_info', 'plain'), set('event_info', 7),
  remove('event_vessels'), set('event_vessels', []), set('event_vessels', '[]'), set('event_vessels', '[{bad'), set('event_vessels', { id: 'x' }),
  set('event_vessels', '{"id": "x"}'), set('event_vessels', [1]), set('event_vessels', [{ name: 'no id' }]), set('event_vessels', 'x'),
  set('regions_mean_position', '{bad'), set('regions_mean_position', [1]), set('regions_mean_position', { eez: '8371' }), set('regions_mean_position', 5),
];

/** Per-kind changes inside event_info that make a row invalid. */
const infoBreakages: Record<string, Breakage[]> = {
  fishing: [{ field: 'event_info', names: ['event_info'], apply: info((i) => (i['average_speed_knots'] = 'fast')) }],
  gap: [
    { field: 'event_info', names: ['event_info'], apply: info((i) => delete i['intentional_disabling']) },
    { field: 'event_info', names: ['event_info'], apply: info((i) => (i['off_position'] = 'here')) },
    { field: 'event_info', names: ['event_info'], apply: info((i) => (i['off_position'] = { lat: 'north', lon: 1 })) },
  ],
  port_visit: [
    { field: 'event_info', names: ['event_info'], apply: info((i) => (i['confidence'] = 5)) },
    { field: 'event_info', names: ['event_info'], apply: info((i) => delete i['intermediate_anchorage']) },
    { field: 'event_info', names: ['event_info'], apply: info((i) => (i['start_anchorage'] = '{"id": 1}')) },
  ],
  encounter: [{ field: 'event_vessels', names: ['event_vessels'], apply: (r) => (r['event_vessels'] = (r['event_vessels'] as unknown[]).slice(0, 1)) }],
  loitering: [{ field: 'event_info', names: ['event_info'], apply: info((i) => (i['total_time_hours'] = [])) }],
};

/** Equivalent forms the published exports use: the stored values must not change. */
const rewrites: ((r: PublishedRow) => void)[] = [
  (r) => (r['event_info'] = JSON.stringify(r['event_info'])),
  (r) => (r['event_vessels'] = JSON.stringify(r['event_vessels'])),
  (r) => (r['regions_mean_position'] = ` ${JSON.stringify(r['regions_mean_position'])}`),
  (r) => (r['lat_mean'] = String(r['lat_mean'])),
  (r) => (r['event_start'] = (r['event_start'] as string).replace('T', ' ').replace(/\.\d+Z$/, ' UTC')),
];

describe('loader row validation, on the ingest query', () => {
  let instance: DuckDBInstance;
  let c: DuckDBConnection;
  before(async () => {
    instance = await DuckDBInstance.create(':memory:');
    c = await instance.connect();
    await c.run(`SET TimeZone = 'UTC'`);
    await c.run(`CREATE TABLE raw (${RAW_COLUMNS})`);
  });
  after(() => instance.closeSync());

  /** Runs the ingest query over the docs; returns each line's problem (null when valid) and typed row. */
  async function ingest(docs: string[]): Promise<{ problem: string | null; typed: string }[]> {
    await c.run('DELETE FROM raw');
    const appender = await c.createAppender('raw');
    docs.forEach((doc, i) => {
      appender.appendInteger(0);
      appender.appendVarchar('rows');
      appender.appendBigInt(BigInt(i + 1));
      appender.appendVarchar(doc);
      appender.endRow();
    });
    appender.closeSync();
    const reader = await c.runAndReadAll(`WITH i AS (${compileIngest(undefined, 'raw')}) SELECT problem, to_json(i)::VARCHAR FROM i ORDER BY line`);
    return reader.getRowsJS().map(([problem, json]) => {
      const { line: _line, ...typed } = JSON.parse(json as string) as Record<string, unknown>;
      return { problem: problem as string | null, typed: JSON.stringify(typed) };
    });
  }

  test('a row with one field broken is rejected, naming that field', async () => {
    // Drawn as (kind, breakage) numbers so a counterexample prints short.
    const arbitrary = fc.array(fc.tuple(fc.nat(EVENT_KINDS.length - 1), fc.nat()), { minLength: 150, maxLength: 150 });
    await fc.assert(
      fc.asyncProperty(arbitrary, async (draws) => {
        const cases = draws.map(([k, n]) => {
          const choices = [...breakages, ...(infoBreakages[EVENT_KINDS[k]!] ?? [])];
          return { base: byKind[k]!, breakage: choices[n % choices.length]! };
        });
        const rows = cases.map(({ base, breakage }) => {
          const row = structuredClone(base);
          breakage.apply(row);
          return row;
        });
        const results = await ingest(rows.map((r) => JSON.stringify(r)));
        results.forEach(({ problem }, i) => {
          const { names, field } = cases[i]!.breakage;
          assert.ok(problem !== null, `row with broken ${field} (${JSON.stringify(rows[i]![field])}) was accepted`);
          assert.ok(names.some((n) => problem.startsWith(`${n}: `)), `broken ${field} gave "${problem}"`);
        });
      }),
      { numRuns: 4 },
    );
  });

  test('rows that are not JSON objects are rejected as rows', async () => {
    const results = await ingest(['{"event_id": ', '[1, 2]', '"text"', 'null', '  \n']);
    assert.deepEqual(results.map((r) => r.problem), ['row: not valid JSON', 'row: must be a JSON object', 'row: must be a JSON object', 'row: must be a JSON object', 'row: not valid JSON']);
  });

  test('equivalent forms of a field load to the same typed values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(EVENT_KINDS.length - 1), fc.subarray([...rewrites.keys()], { minLength: 1 }), async (k, chosen) => {
        const base = byKind[k]!;
        const row = structuredClone(base);
        for (const i of chosen) rewrites[i]!(row);
        const [original, rewritten] = await ingest([JSON.stringify(base), JSON.stringify(row)]);
        assert.equal(original!.problem, null);
        assert.equal(rewritten!.problem, null);
        assert.equal(rewritten!.typed, original!.typed);
      }),
      { numRuns: 30 },
    );
  });

  test('a table read from its columns gives the problems and typed values of its rows as JSON documents', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vessel-events-ingest-'));
    try {
      // Each row is a table of its own, read by DuckDB from a one-line file, so its columns take
      // the types DuckDB gives that row's values (numbers, text, structs, lists, JSON, timestamps).
      const arbitrary = fc.array(fc.tuple(fc.nat(EVENT_KINDS.length - 1), fc.nat(), fc.boolean()), { minLength: 25, maxLength: 25 });
      let run = 0;
      await fc.assert(
        fc.asyncProperty(arbitrary, async (draws) => {
          run++;
          for (const [i, [k, n, broken]] of draws.entries()) {
            const row = structuredClone(byKind[k]!);
            if (broken) {
              const choices = [...breakages, ...(infoBreakages[EVENT_KINDS[k]!] ?? [])];
              choices[n % choices.length]!.apply(row);
            } else {
              rewrites[n % rewrites.length]!(row);
            }
            const file = join(dir, `row-${run}-${i}.ndjson`);
            writeFileSync(file, `${JSON.stringify(row)}\n`);
            const table = `read_json('${file}', format = 'newline_delimited')`;
            const columns = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${table}`)).getRowObjectsJS().map((r) => ({ name: String(r['column_name']), type: String(r['column_type']) }));
            const asDocuments = `(SELECT 0::INTEGER AS file_no, 'rows' AS file, 1::BIGINT AS line, to_json(t)::VARCHAR AS doc FROM ${table} t)`;
            const fromColumns = { table: tableSourceSql({ fileNo: 0, file: 'rows', tableFunction: table, lineOf: '1', columns }) };
            const [viaDocuments, viaColumns] = await Promise.all([asDocuments, fromColumns].map(async (source) => {
              const reader = await c.runAndReadAll(`WITH i AS (${compileIngest(undefined, source)}) SELECT to_json(i)::VARCHAR FROM i`);
              return reader.getRowsJS()[0]![0] as string;
            }));
            assert.equal(viaColumns, viaDocuments, `row ${JSON.stringify(row)} with columns ${JSON.stringify(columns)}`);
          }
        }),
        { numRuns: 3 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
