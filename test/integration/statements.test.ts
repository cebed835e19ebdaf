// Statements kept prepared per connection (src/store/duckdb/statements.ts): a statement run again
// with other values answers for those values, however many statements a connection has run, and
// never with a value bound for an earlier run.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readRows, streamRows } from '../../src/store/duckdb/statements.ts';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';
import { caseCount } from '../helpers/size.ts';

let fixture: Fixture;
let instance: DuckDBInstance;
let c: DuckDBConnection;
before(async () => {
  fixture = await buildFixtureDb({ events: 400, seed: 5 });
  instance = await DuckDBInstance.create(fixture.dbPath, { access_mode: 'READ_ONLY' });
  c = await instance.connect();
});
after(async () => {
  c.closeSync();
  instance.closeSync();
  await fixture.cleanup();
});

const countOf = async (kind: string, fromUs: bigint) => Number((await readRows(c,
  'SELECT count(*) FROM events WHERE kind = $1 AND start_ts >= make_timestamp($2::BIGINT)', [kind, fromUs]))[0]![0]);
const countByText = async (kind: string, fromUs: bigint) => Number((await c.runAndReadAll(
  `SELECT count(*) FROM events WHERE kind = '${kind}' AND start_ts >= make_timestamp(${fromUs})`)).getRowsJS()[0]![0]);

test('a kept statement answers for the values bound on each run', async () => {
  const starts = (await c.runAndReadAll(`SELECT DISTINCT epoch_us(start_ts) FROM events ORDER BY 1 LIMIT ${caseCount('STATEMENT_TEST_STARTS', 40, 10)}`)).getRowsJS().map((r) => r[0] as bigint);
  for (const kind of ['fishing', 'encounter', 'port_visit', 'fishing']) {
    for (const fromUs of starts) assert.equal(await countOf(kind, fromUs), await countByText(kind, fromUs), `${kind} from ${fromUs}`);
  }
});

test('more statements than a connection keeps, run in turns, each answer its own values', async () => {
  // 120 texts cycle through a cache of 48 twice: statements are dropped and prepared again.
  for (let round = 0; round < 2; round++) {
    for (let k = 0; k < 120; k++) {
      const [row] = await readRows(c, `SELECT ${k}::INTEGER + $1::INTEGER, $2::VARCHAR`, [round, `r${round}`]);
      assert.deepEqual(row, [k + round, `r${round}`]);
    }
  }
});

test('a stream from a kept statement holds the rows of its own values', async () => {
  const ids = async (kind: string) => {
    const result = await streamRows(c, 'SELECT id FROM events WHERE kind = $1 ORDER BY id', [kind]);
    const out: string[] = [];
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) out.push(...chunk.getColumnValues(0).map(String));
    return out;
  };
  for (const kind of ['fishing', 'gap', 'fishing']) {
    const expected = (await c.runAndReadAll(`SELECT id FROM events WHERE kind = '${kind}' ORDER BY id`)).getRowsJS().map((r) => String(r[0]));
    assert.ok(expected.length > 0);
    assert.deepEqual(await ids(kind), expected);
  }
});

test('a kept statement never takes a value from the run before', async () => {
  const sql = 'SELECT $1::INTEGER + $2::INTEGER';
  assert.deepEqual(await readRows(c, sql, [1, 2]), [[3]]);
  await assert.rejects(readRows(c, sql, [10]));
  await assert.rejects(readRows(c, sql, [1, 2, 3]));
  assert.deepEqual(await readRows(c, sql, [5, 6]), [[11]]);
});
