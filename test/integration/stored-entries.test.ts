// The loader writes every entry once, in SQL, in the `gfw` wire format (src/store/duckdb/entry-sql.ts);
// the service sends those texts as they are, or derives `spec` from them (src/shape/spec-wire.ts).
// Each must be byte for byte what the independent JS rendering (test/helpers/entry-oracle.ts)
// writes for the same stored record.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { selectColumns, toRecord } from '../../src/store/duckdb/columns.ts';
import { entryShaper } from '../../src/shape/shaping.ts';
import { specFromGfw } from '../../src/shape/spec-wire.ts';
import { REWRITTEN_KEYS, specRewriter } from '../../src/shape/spec-bytes.ts';
import { EVENT_INFO_FIELDS, isObjectField, type InfoField } from '../../src/domain/event-info.ts';
import { EVENT_KINDS } from '../../src/domain/kinds.ts';
import { buildFixtureDb, fixtureFromRows, type Fixture } from '../helpers/fixture.ts';
import { SMALL_EVENTS } from '../fixtures/small-events.ts';
import { toEntry } from '../helpers/entry-oracle.ts';
import { FULL } from '../helpers/size.ts';
import fc from 'fast-check';
import { jsEscapes, jsNumberText } from '../../src/store/duckdb/entry-sql.ts';
import { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import { normalizeListQuery } from '../../src/query/normalize.ts';
import { DATASET_ID_BY_KIND } from '../../src/domain/kinds.ts';

const fixtures: Fixture[] = [];
before(async () => {
  fixtures.push(await buildFixtureDb({ events: FULL ? 20_000 : 3000, seed: 11 }));
  fixtures.push(await fixtureFromRows(SMALL_EVENTS));
  // Text beyond ASCII, and a backslash before an x (which a cast to BLOB would read as an escape).
  fixtures.push(await fixtureFromRows(JSON.parse(JSON.stringify(SMALL_EVENTS).replaceAll('MAR AZUL', String.raw`MAR AZUL \\x41 é 漁 🐟`)) as typeof SMALL_EVENTS));
});
after(() => Promise.all(fixtures.map((f) => f.cleanup())));

const toSpec = entryShaper({ includeRegions: true, summary: false }, 'spec')!;
const rewriteEveryKind = specRewriter();
/** The spec rewrite in the bytes (src/shape/spec-bytes.ts), on a text of entries of any kind. */
const specTextFromGfw = (text: string) => rewriteEveryKind(Buffer.from(text, 'utf8')).toString('utf8');

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
      assert.equal(specTextFromGfw(stored), JSON.stringify(toEntry(record, 'spec')), `${record.id} in spec, rewritten as text`);
    }
    assert.deepEqual([...kinds].sort(), [...EVENT_KINDS].sort());
  }
});

test('the keys spec rewrites in the text name no member that stays a string, in any kind', () => {
  // Numbers and booleans `gfw` writes bare are never matched: only a member written as a string is.
  const keep = (fields: InfoField[]): string[] => fields.flatMap((f) => (isObjectField(f) ? keep(f.fields) : f.type === 'string' ? [f.key] : []));
  const kept = new Set([...Object.values(EVENT_INFO_FIELDS).flatMap(keep), 'start', 'end', 'id', 'type', 'name', 'ssvid', 'flag', 'rfmo']);
  assert.deepEqual(REWRITTEN_KEYS.filter((k) => kept.has(k)), []);
});

test('spec rewritten in the text equals spec from the parsed entry, whatever the strings and decimal texts hold', async () => {
  const rows = await storedRows(fixtures[0]!.dbPath);
  const byKind = new Map(EVENT_KINDS.map((kind) => [kind, rows.map((r) => r[0] as string).filter((t) => JSON.parse(t).type === kind).slice(0, 20)]));
  // Texts that look like the members the rewrite changes, and decimal texts Number() reads oddly.
  const hostile = fc.oneof(fc.string(), fc.constantFrom('","end":"', '","end":""', '","confidence":"3', '\\', '","type":"gap', '","hasPubliclyListedAuthorization":"true', 'true', ''));
  const decimal = fc.oneof(fc.constantFrom('-0', '1e21', '007', '3.10', '', 'abc', ' 4 ', '0x10', 'Infinity', '\\u0033'), fc.double().map(String));
  const mutate = (value: unknown, strings: string[], decimals: string[], k = { i: 0 }): unknown => {
    if (Array.isArray(value)) return value.map((v) => mutate(v, strings, decimals, k));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, key === 'type' ? v : mutate(v, strings, decimals, k)]));
    if (typeof value !== 'string') return value;
    const i = k.i++;
    if (/^-?[0-9.]+$/.test(value)) return decimals[i % decimals.length];
    if (value === 'true' || value === 'false' || /T\d\d:/.test(value)) return value;
    return strings[i % strings.length];
  };
  const entry = fc.record({ kind: fc.constantFrom(...EVENT_KINDS), n: fc.nat(19), strings: fc.array(hostile, { minLength: 1, maxLength: 6 }), decimals: fc.array(decimal, { minLength: 1, maxLength: 6 }), open: fc.boolean() });
  // Runs of entries of every kind at once, joined as a list body and as NDJSON join them.
  await fc.assert(fc.property(fc.array(entry, { minLength: 1, maxLength: 5 }), fc.constantFrom(',', '\n'), (run, separator) => {
    const texts = run.map(({ kind, n, strings, decimals, open }) => {
      const texts = byKind.get(kind)!;
      const entry = mutate(JSON.parse(texts[n % texts.length]!), strings, decimals) as Record<string, unknown>;
      if (open) entry['end'] = '';
      return JSON.stringify(entry);
    });
    const expected = texts.map((text) => JSON.stringify(specFromGfw(JSON.parse(text) as Record<string, unknown>)));
    assert.equal(specTextFromGfw(texts[0]!), expected[0]);
    assert.equal(specTextFromGfw(texts.join(separator)), expected.join(separator));
  }), { numRuns: FULL ? 2000 : 300, seed: 20261127 });
  // An escape JSON.stringify never writes, in a decimal text: read as the character it stands for.
  const escaped = String.raw`{"start":"2020-01-01T00:00:00.000Z","end":"","id":"a\"b","type":"port_visit","vessel":{},"port_visit":{"confidence":"\u0033"}}`;
  assert.equal(specTextFromGfw(escaped), JSON.stringify(specFromGfw(JSON.parse(escaped) as Record<string, unknown>)));
});

test('pages read as bytes are the stored entries, byte for byte, in every order the store pages in', async () => {
  for (const fixture of fixtures) {
    const store = await DuckDbStore.open({ path: fixture.dbPath });
    const ctx = { catalog: store, access: { canRead: () => true } };
    try {
      const byId = new Map((await storedRows(fixture.dbPath)).map((row) => [toRecord(row.slice(1)).id, row[0] as string]));
      for (const kind of ['fishing', 'port_visit'] as const) {
        // Stored order forwards and backwards (several chunks, descending ones in batches), and a sort that DuckDB sorts.
        for (const [sort, limit, offset] of [['+start', 5000, 0], ['-start', 5000, 0], ['-start', 50, 7], ['+end', 5000, 3]] as const) {
          const query = await normalizeListQuery({ datasets: [`${DATASET_ID_BY_KIND[kind]}:latest`] }, { limit, offset, sort }, ctx);
          const total = await store.count(query);
          const texts: string[] = [];
          for await (const chunk of await store.search(query, total)) texts.push(...chunk);
          const ids = texts.map((t) => (JSON.parse(t) as { id: string }).id);
          assert.deepEqual(texts, ids.map((id) => byId.get(id)), `${kind} ${sort}: texts as stored`);
          const bytes: Buffer[] = [];
          for await (const joined of (await store.search(query, total)).joined(',')) if (joined.length) bytes.push(joined);
          assert.equal(Buffer.concat(bytes).toString('utf8'), texts.join(','), `${kind} ${sort}: bytes as the texts`);
          assert.ok(texts.length > 0 || total <= offset);
        }
      }
    } finally {
      await store.close();
    }
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
