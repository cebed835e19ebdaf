// A database written by the previous storage layout (2: no stored entries, no vessel_events) is
// refused by the server and the loader with a message naming `vessel-events migrate`, which
// rewrites it in this layout keeping everything it held.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadRows } from '../../src/data/load-events.ts';
import { migrateDatabase } from '../../src/store/engines.ts';
import { normalizeListQuery } from '../../src/query/normalize.ts';
import { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import { LoadRefused } from '../../src/store/writer.ts';
import { buildFixtureDb, readAllRecords, type Fixture } from '../helpers/fixture.ts';
import { fromEventQuery, referencePage } from '../helpers/reference.ts';
import { toEntry } from '../helpers/entry-oracle.ts';

let fixture: Fixture;
let oldPath: string;
before(async () => {
  fixture = await buildFixtureDb({ events: 2000, seed: 5 });
  oldPath = join(fixture.dir, 'layout-2.duckdb');
  copyFileSync(fixture.dbPath, oldPath);
  // What layout 2 wrote: the same tables without what layout 3 added.
  const instance = await DuckDBInstance.create(oldPath);
  const c = await instance.connect();
  for (const sql of [
    'DROP TABLE vessel_events', `DELETE FROM meta WHERE key LIKE 'point_file:%'`, 'ALTER TABLE events DROP COLUMN entry',
    'ALTER TABLE dataset_versions DROP COLUMN longest_ms', 'ALTER TABLE dataset_versions DROP COLUMN earliest_open_start',
    `UPDATE meta SET value = '2' WHERE key = 'schema_version'`, 'CREATE INDEX events_id_idx ON events (id)', 'CHECKPOINT',
  ]) await c.run(sql);
  c.closeSync();
  instance.closeSync();
});
after(() => fixture.cleanup());

test('the server and the loader refuse an older layout, naming the command that migrates it', async () => {
  await assert.rejects(DuckDbStore.open({ path: oldPath }), /older version \(2; this one reads 3\).*vessel-events migrate --db/);
  await assert.rejects(loadRows([fixture.rows[0]!], 'x.ndjson', { database: { engine: 'duckdb', path: oldPath }, version: 'v2', source: 'test' }), (e) => e instanceof LoadRefused && /vessel-events migrate/.test(e.message));
});

test('migrate keeps every event, version and group, and serves them as before', async () => {
  const { from, rows } = await migrateDatabase(oldPath);
  assert.equal(from, 2);
  assert.equal(rows, fixture.records.length);
  const sortById = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
  assert.deepEqual(sortById(await readAllRecords(oldPath)), sortById(fixture.records));
  const store = await DuckDbStore.open({ path: oldPath });
  try {
    const ctx = { catalog: store, access: { canRead: () => true } };
    const visit = fixture.records.find((r) => r.kind === 'port_visit')!;
    const list = await normalizeListQuery({ datasets: ['public-global-port-visits-events:latest'] }, { limit: 1, offset: 0 }, ctx);
    assert.equal(await store.getEntry(list.datasets[0]!, visit.id), JSON.stringify(toEntry(visit, 'gfw')));
    // A vessel's history (vessel_events) and a time window (the versions' reach) as the reference says.
    const query = await normalizeListQuery(
      { datasets: ['public-global-fishing-events:latest', 'public-global-gaps-events:latest'], vessels: [visit.vessel.id], startDate: '2019-01-01', endDate: '2023-01-01' },
      { limit: 50, offset: 0, sort: '-start' }, ctx);
    const expected = referencePage(fixture, fromEventQuery(query));
    assert.equal(await store.count(query), expected.total);
    const ids: string[] = [];
    for await (const chunk of await store.search(query)) ids.push(...chunk.map((t) => (JSON.parse(t) as { id: string }).id));
    assert.deepEqual(ids, expected.ids);
    assert.deepEqual(store.groupIds(), new Set(fixture.groups.keys()));
  } finally {
    await store.close();
  }
  await assert.rejects(migrateDatabase(oldPath), /already has this version's storage layout/);
});
