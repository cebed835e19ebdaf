// The loader writes every entry once, in SQL, in the `gfw` wire format (src/store/duckdb/entry-sql.ts);
// the service sends those texts as they are, or derives `spec` from them (src/shape/spec-wire.ts).
// Each must be byte for byte what the independent JS rendering (test/helpers/entry-oracle.ts)
// writes for the same stored record.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { selectColumns, toRecord } from '../../src/store/duckdb/columns.ts';
import { entryShaper } from '../../src/shape/shaping.ts';
import { EVENT_KINDS } from '../../src/domain/kinds.ts';
import { buildFixtureDb, fixtureFromRows, type Fixture } from '../helpers/fixture.ts';
import { SMALL_EVENTS } from '../fixtures/small-events.ts';
import { toEntry } from '../helpers/entry-oracle.ts';
import { FULL } from '../helpers/size.ts';
import fc from 'fast-check';
import { jsEscapes, jsNumberText } from '../../src/store/duckdb/entry-sql.ts';

const fixtures: Fixture[] = [];
before(async () => {
  fixtures.push(await buildFixtureDb({ events: FULL ? 20_000 : 3000, seed: 11 }));
  fixtures.push(await fixtureFromRows(SMALL_EVENTS));
});
after(() => fixtures.forEach((f) => f.cleanup()));

const toSpec = entryShaper({ includeRegions: true, summary: false }, 'spec')!;

async function storedRows(dbPath: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
  try {
    const c = await instance.connect();
    const rows = (await c.runAndReadAll(`SELECT entry, ${selectColumns(EVENT_KINDS)} FROM events`)).getRowsJS();
    c.closeSync();
    return rows;
  } finally {
    instance.closeSync();
  }
}

test('every entry as sent, in every wire format, is the JS rendering of its stored record, byte for byte', async () => {
  for (const fixture of fixtures) {
    const rows = await storedRows(fixture.dbPath);
    assert.equal(rows.length, fixture.records.length);
    const kinds = new Set<string>();
    for (const row of rows) {
      const record = toRecord(row.slice(1));
      kinds.add(record.kind);
      const stored = row[0] as string;
      assert.equal(stored, JSON.stringify(toEntry(record, 'gfw')), `${record.id} as stored`);
      assert.equal(JSON.stringify(toSpec(JSON.parse(stored))), JSON.stringify(toEntry(record, 'spec')), `${record.id} in spec`);
    }
    assert.deepEqual([...kinds].sort(), [...EVENT_KINDS].sort());
  }
});

test('numbers are spelt as JS spells them, whatever the double', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    const spelt = async (xs: number[]) =>
      (await c.runAndReadAll(`SELECT ${jsNumberText('x')} FROM (SELECT unnest($1::VARCHAR::DOUBLE[]) AS x)`, [JSON.stringify(xs)])).getRowsJS().map((r) => r[0]);
    const edges = [0, -0, 5, -5, 0.1, 1 / 3, 1e-7, -1.5e-7, 1e-6, 123456.789, 1e15, 1e16, 2 ** 53, 1.2345678901234567e20, 1e21, 1.5e22, 1e300, 5e-324, Number.MAX_VALUE];
    assert.deepEqual(await spelt(edges), edges.map(String));
    await fc.assert(fc.asyncProperty(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 50 }), async (xs) => {
      assert.deepEqual(await spelt(xs), xs.map(String));
    }), { numRuns: FULL ? 200 : 50 });
  } finally {
    c.closeSync();
    instance.closeSync();
  }
});

test('strings are escaped as JSON.stringify escapes them, whatever the text', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    const escaped = async (xs: string[]) => {
      const out: unknown[] = [];
      for (const x of xs) out.push((await c.runAndReadAll(`SELECT ${jsEscapes('to_json($1::VARCHAR)::VARCHAR')}`, [x])).getRowsJS()[0]![0]);
      return out;
    };
    const edges = ['', 'plain', 'quote " and backslash \\', 'slash / tab \t newline \n', '\u0001\u001f\u007f', '\u000b\u000b\u000b', 'text \\u001F, not an escape', '\b\f', 'é ß 漁船 🐟', '\u2028\u2029'];
    assert.deepEqual(await escaped(edges), edges.map((x) => JSON.stringify(x)));
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('\\\\', '"', 'u', '0', '1', 'F', 'b'), fc.integer({ min: 1, max: 0x1f }).map((n) => String.fromCharCode(n)), fc.string({ unit: 'grapheme-composite', maxLength: 1 })) });
    await fc.assert(fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 10 }), async (xs) => {
      const clean = xs.map((x) => x.replace(/\u0000/g, ''));
      assert.deepEqual(await escaped(clean), clean.map((x) => JSON.stringify(x)));
    }), { numRuns: FULL ? 100 : 30 });
  } finally {
    c.closeSync();
    instance.closeSync();
  }
});
