// A deep page's rows are read in batches (bounded memory) and come back in the page's order.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { EVENT_KINDS } from '../../src/query/kinds.ts';
import { selectColumns } from '../../src/store/duckdb/columns.ts';
import { deepPageRows } from '../../src/store/duckdb/deep-page.ts';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';

let fixture: Fixture;
let instance: DuckDBInstance;
let connection: DuckDBConnection;
before(async () => {
  fixture = await buildFixtureDb({ events: 3000, seed: 7 });
  instance = await DuckDBInstance.create(fixture.dbPath, { access_mode: 'READ_ONLY' });
  connection = await instance.connect();
});
after(() => {
  connection.closeSync();
  instance.closeSync();
  fixture.cleanup();
});

test('a page of 50 keys read 7 rows at a time: batches of 7 (the last of 1), the page\'s order, whole records', async () => {
  const page = (await connection.runAndReadAll('SELECT version_id::INTEGER, id FROM events ORDER BY end_ts DESC NULLS FIRST, id LIMIT 50')).getRowsJS() as [number, string][];
  const batches = [];
  for await (const batch of deepPageRows(connection, page, selectColumns([...EVENT_KINDS]), 7)) batches.push(batch);
  assert.deepEqual(batches.map((b) => b.length), [7, 7, 7, 7, 7, 7, 7, 1]);
  const records = batches.flat();
  assert.deepEqual(records.map((r) => r.id), page.map(([, id]) => id));
  const stored = new Map(fixture.records.map((r) => [r.id, r]));
  for (const r of records) assert.deepEqual(r, stored.get(r.id));
});
