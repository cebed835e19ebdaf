// The PostgreSQL engine's versions semantics and commands, through the command line as a user runs
// them: a load is validated in full and lands in one transaction, a failed or killed load leaves
// nothing visible, two loads at once both land, a running server sees a new version without a
// restart, and every data command takes --engine postgres --database-url. Runs under
// test/run-postgres.ts, which starts the cluster (the DuckDB run reports it skipped).
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import pg from 'pg';
import { generateDemoRows } from '../../src/data/demo/generate.ts';
import { openStores } from '../../src/store/engines.ts';
import { identityOfRow } from '../../src/domain/vessel-identity.ts';
import { cellKey } from '../../src/geo/grid.ts';
import { Random } from '../../src/data/demo/random.ts';
import { normalizeListQuery } from '../../src/query/normalize.ts';
import { PostgresPool } from '../../src/store/postgres/postgres-store.ts';
import { compileSearch } from '../../src/store/postgres/compile.ts';
import { OWN_PARTITIONS } from '../../src/store/postgres/lineage.ts';
import { RECORD_COLUMNS } from '../../src/store/postgres/record-columns.ts';
import { DISTANCE_FIELDS } from '../../src/domain/record.ts';
import { REGION_MEMBERS } from '../../src/domain/regions.ts';
import type { ResolvedDataset } from '../../src/query/datasets.ts';
import { buildFixtureDb, fixtureFromRows, newPostgresDatabase, TEST_ENGINE } from '../helpers/fixture.ts';
import { fromEventQuery, referencePage } from '../helpers/reference.ts';
import { BIN } from '../helpers/server.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'vessel-events-pg-loads-'));
const cli = (args: string[]) => run(process.execPath, [BIN, ...args], { env: { ...process.env, CI: 'true' } });
const engine = (url: string) => ['--engine', 'postgres', '--database-url', url];

/** The events' rows with every column of their record (src/store/postgres/record-columns.ts) as text. */
const RECORD_ROWS = `SELECT version_id, id, from_version, to_version, entry, ${RECORD_COLUMNS.map(([n]) => `${n}::text`).join(', ')} FROM events ORDER BY version_id, id, from_version NULLS FIRST, to_version NULLS FIRST`;

/** The events' records as layouts 1 to 3 kept them: one JSON text a row (src/domain/record.ts EventRecord), no record columns. */
async function recordsAsJson(url: string): Promise<void> {
  const ms = (ts: string) => `floor(extract(epoch FROM ${ts}) * 1000)`;
  const vessel = `json_build_object('id', vessel_id, 'ssvid', vessel_ssvid, 'name', vessel_name, 'flag', vessel_flag, 'type', vessel_type, 'gear_type', vessel_gear_type,
    'public_authorizations', vessel_authorizations, 'next_port', next_port)`;
  const distances = `json_build_object(${DISTANCE_FIELDS.map((d) => `'${d.member}', ${d.source}`).join(', ')})`;
  const regions = `json_build_object(${REGION_MEMBERS.map((m) => `'${m.member}', ${m.column}`).join(', ')})`;
  await query(url, 'ALTER TABLE events ADD COLUMN record json');
  await query(url, `UPDATE events SET record = json_build_object('id', id, 'kind', kind, 'segId', seg_id, 'startMs', ${ms('start_ts')}, 'endMs', ${ms('end_ts')}, 'lat', lat, 'lon', lon,
    'lonMin', lon_min, 'latMin', lat_min, 'lonMax', lon_max, 'latMax', lat_max, 'regions', ${regions}, 'distances', ${distances}, 'vessel', ${vessel}, 'otherVessel', other_vessel, 'info', info)`);
  await query(url, `ALTER TABLE events ${RECORD_COLUMNS.map(([n]) => `DROP COLUMN ${n}`).join(', ')}`);
}

function writeRows(name: string, events: number, seed: number, idPrefix = ''): string {
  const path = join(dir, name);
  const rows = [...generateDemoRows({ events, seed })].map((r) => JSON.stringify({ ...r, event_id: `${idPrefix}${r['event_id']}` }));
  writeFileSync(path, `${rows.join('\n')}\n`);
  return path;
}

async function query(url: string, sql: string, params: unknown[] = []): Promise<unknown[][]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query({ text: sql, values: params, rowMode: 'array' })).rows as unknown[][];
  } finally {
    await c.end();
  }
}
const eventCount = async (url: string) => Number((await query(url, 'SELECT count(*) FROM events'))[0]![0]);

describe('the PostgreSQL engine through the command line', { skip: TEST_ENGINE !== 'postgres' && 'runs under test/run-postgres.ts (npm run test:full runs it)' }, () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('load, versions list and drop; a version that exists and invalid rows are refused, leaving nothing', async () => {
    const { url } = await newPostgresDatabase();
    const file = writeRows('first.ndjson', 2000, 1);
    const loaded = await cli(['load', ...engine(url), '--version', 'v1', file]);
    assert.match(loaded.stdout, /^public-global-fishing-events:v1\t\d+ entries$/m);
    const rows = await eventCount(url);
    assert.equal(rows, readFileSync(file, 'utf8').trim().split('\n').length);

    await assert.rejects(cli(['load', ...engine(url), '--version', 'v1', file]), (e: { stderr: string }) => /already has a version "v1"[\s\S]*nothing was loaded/.test(e.stderr));
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, `${JSON.stringify({ ...[...generateDemoRows({ events: 5, seed: 2 })][0], event_id: 'ok-1' })}\n{"event_id": "x", "event_type": "fishing"}\n`);
    await assert.rejects(cli(['load', ...engine(url), '--version', 'v2', bad]), (e: { stderr: string }) => /bad\.ndjson:2: entity_id: is required[\s\S]*nothing was loaded/.test(e.stderr));
    assert.equal(await eventCount(url), rows);

    const listed = (await cli(['versions', 'list', ...engine(url)])).stdout;
    assert.match(listed, /^public-global-fishing-events:v1\t\d+ entries\tloaded \d{4}-/m);
    assert.doesNotMatch(listed, /:v2\t/);
    const dropped = await cli(['versions', 'drop', ...engine(url), 'public-global-gaps-events:v1']);
    assert.match(dropped.stdout, /dropped public-global-gaps-events:v1 \(\d+ entries\)/);
    assert.doesNotMatch((await cli(['versions', 'list', ...engine(url)])).stdout, /gaps-events:v1/);
    assert.equal(Number((await query(url, `SELECT count(*) FROM events WHERE kind = 'gap'`))[0]![0]), 0);
  });

  test('the cells holding each version\'s events are written with the load, go with a dropped version, and a version without them is never said empty', async () => {
    const { url } = await newPostgresDatabase();
    await cli(['load', ...engine(url), '--version', 'v1', writeRows('cells-1.ndjson', 1500, 3)]);
    const cellsMatch = async () => {
      const expected = new Set((await query(url, 'SELECT version_id, lat, lon FROM events')).map(([v, lat, lon]) => `${v}:${cellKey(lat as number, lon as number)}`));
      const written = new Set((await query(url, 'SELECT version_id, cell_key FROM event_cells')).map(([v, key]) => `${v}:${key}`));
      assert.deepEqual([...written].sort(), [...expected].sort());
      const versions = (await query(url, 'SELECT version_id FROM dataset_versions ORDER BY 1')).map((r) => r[0]);
      assert.deepEqual((await query(url, 'SELECT version_id FROM event_cell_versions ORDER BY 1')).map((r) => r[0]), versions);
    };
    await cellsMatch();
    const gaps = (await query(url, `SELECT version_id FROM dataset_versions WHERE kind = 'gap'`))[0]![0] as number;
    await cli(['versions', 'drop', ...engine(url), 'public-global-gaps-events:v1']);
    assert.deepEqual(await query(url, 'SELECT * FROM event_cells WHERE version_id = $1', [gaps]), []);
    // The next load takes the dropped version's id again.
    await cli(['load', ...engine(url), '--version', 'v2', writeRows('cells-2.ndjson', 1500, 4, 'second-')]);
    await cellsMatch();

    // A version loaded before the cells were kept: unknown, so never said to hold no event.
    const [fishing, lat, lon] = (await query(url, `SELECT version_id, lat, lon FROM events WHERE kind = 'fishing' LIMIT 1`))[0] as [number, number, number];
    const far: [number, number, number, number] = [lon > 0 ? -170 : 170, -lat - 1, lon > 0 ? -169 : 171, -lat + 1];
    const held = (await query(url, 'SELECT count(*) FROM events WHERE version_id = $1 AND lon BETWEEN $2 AND $3 AND lat BETWEEN $4 AND $5', [fishing, far[0], far[2], far[1], far[3]]))[0]![0];
    assert.equal(Number(held), 0, 'the box far from the event holds none of its version');
    const said = async () => {
      const stores = await openStores({ engine: 'postgres', url }, {}, undefined, false);
      try {
        const store = stores.current();
        return [store.eventsMayLieIn!([fishing], far), store.eventsMayLieIn!([fishing], [lon, lat, lon, lat])];
      } finally {
        await stores.close();
      }
    };
    assert.deepEqual(await said(), [false, true]);
    await query(url, 'DELETE FROM event_cell_versions WHERE version_id = $1', [fishing]);
    assert.deepEqual(await said(), [true, true]);
  });

  test('vessel identities are written with each version, go with a dropped one, and a version without them is read from its rows alike', async () => {
    const { url } = await newPostgresDatabase();
    await cli(['load', ...engine(url), '--version', 'v1', writeRows('identities-1.ndjson', 1500, 5)]);
    const versions = (await query(url, 'SELECT version_id FROM dataset_versions ORDER BY 1')).map((r) => r[0]);
    assert.deepEqual((await query(url, 'SELECT version_id FROM identity_versions ORDER BY 1')).map((r) => r[0]), versions);
    const identities = async () => {
      const stores = await openStores({ engine: 'postgres', url }, {}, undefined, false);
      try {
        return [...(await stores.current().vesselIdentities())].sort();
      } finally {
        await stores.close();
      }
    };
    const stored = await identities();
    const vessels = Number((await query(url, `SELECT count(DISTINCT id) FROM (SELECT vessel_id AS id FROM events UNION ALL SELECT other_vessel->>'id' FROM events WHERE other_vessel->>'id' IS NOT NULL) v`))[0]![0]);
    assert.equal(new Set(stored.map((s) => identityOfRow(s).vesselId)).size, vessels);
    await query(url, 'DELETE FROM identity_versions');
    assert.deepEqual(await identities(), stored);
    const gaps = (await query(url, `SELECT version_id FROM dataset_versions WHERE kind = 'gap'`))[0]![0] as number;
    await cli(['versions', 'drop', ...engine(url), 'public-global-gaps-events:v1']);
    assert.deepEqual(await query(url, 'SELECT * FROM vessel_identities WHERE version_id = $1', [gaps]), []);
  });

  test('a running server sees a new version without a restart, and a dropped one goes', async () => {
    const { url } = await newPostgresDatabase();
    const stores = await openStores({ engine: 'postgres', url });
    try {
      assert.equal(stores.current().ready(), false, 'an empty database is served, not ready');
      await cli(['load', ...engine(url), '--version', 'v1', writeRows('live.ndjson', 500, 3)]);
      const seen = async (want: (n: number) => boolean) => {
        for (let i = 0; i < 50 && !want(stores.current().versions().length); i++) await new Promise((r) => setTimeout(r, 100));
        return stores.current().versions().length;
      };
      const versions = await seen((n) => n > 0);
      assert.ok(versions > 0, 'the load never became visible to the running server');
      await cli(['versions', 'drop', ...engine(url), 'public-global-fishing-events:v1']);
      assert.equal(await seen((n) => n < versions), versions - 1);
    } finally {
      await stores.close();
    }
  });

  test('two loads at once both land: the second waits for the first, and says so', async () => {
    const { url } = await newPostgresDatabase();
    const [a, b] = [writeRows('a.ndjson', 2000, 4, 'a'), writeRows('b.ndjson', 2000, 5, 'b')];
    const [first, second] = await Promise.all([cli(['load', ...engine(url), '--version', 'vA', a]), cli(['load', ...engine(url), '--version', 'vB', b])]);
    assert.match(first.stdout + second.stdout, /fishing-events:vA\t/);
    assert.match(first.stdout + second.stdout, /fishing-events:vB\t/);
    assert.match(first.stderr + second.stderr, /waiting for the load by process \d+/);
    const versions = (await cli(['versions', 'list', ...engine(url)])).stdout;
    assert.match(versions, /fishing-events:vA\t/);
    assert.match(versions, /fishing-events:vB\t/);
  });

  test('a load\'s rows are marked visible to all when it lands, though another writer waits for it', async () => {
    const { url } = await newPostgresDatabase();
    const loading = cli(['load', ...engine(url), '--version', 'v1', writeRows('visible.ndjson', 3000, 8, 'v')]);
    // A second writer (vessel groups) asks for the lock while the load holds it.
    const held = `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    while (Number((await query(url, held))[0]![0]) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    writeFileSync(join(dir, 'waiting-groups.csv'), 'group_id,vessel_id\nfleet,v-1\n');
    const waiting = cli(['groups', 'load', ...engine(url), join(dir, 'waiting-groups.csv')]);
    await Promise.all([loading, waiting]);
    // The load's VACUUM ran while the groups waited; a waiter holding a snapshot kept it from
    // marking the new rows' pages (the version's partitions'), and counts then read the table
    // where the index would do.
    const [pages, visible] = (await query(url, `SELECT sum(relpages), sum(relallvisible) FROM pg_class c JOIN pg_inherits i ON i.inhrelid = c.oid WHERE i.inhparent = 'events'::regclass`))[0]!.map(Number);
    assert.ok(pages! > 0);
    assert.equal(visible, pages, 'pages of events not marked visible to all');
  });

  test('a killed load leaves nothing visible, and the next load goes ahead', async () => {
    const { url } = await newPostgresDatabase();
    await cli(['load', ...engine(url), '--version', 'v1', writeRows('small.ndjson', 300, 6, 's')]);
    const before = await eventCount(url);
    // A temporary folder of this test's own: any load removes the stages of dead processes, and
    // the loads of other test files running beside this one would remove the killed one's first.
    const tmp = mkdtempSync(join(dir, 'tmp-'));
    const env = { ...process.env, CI: 'true', TMPDIR: tmp };
    const load = spawn(process.execPath, [BIN, 'load', ...engine(url), '--version', 'v2', writeRows('big.ndjson', 30_000, 7, 'k')], { env });
    // Listened for from the start, as the update's below.
    const exited = new Promise((r) => load.on('exit', r));
    // Killed while its rows are being copied in, the moment a partial load could be seen.
    let copying = false;
    for (let i = 0; i < 1200 && !copying && load.exitCode === null; i++) {
      // Running now: pg_stat_activity keeps an idle session's last statement, and a load past its
      // COPY may have removed its staged rows already. In this database: the view shows the whole
      // cluster, where other test files' loads copy too, and one of theirs seen here killed this
      // load before it had staged anything.
      copying = (await query(url, `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vessel-events' AND state = 'active' AND query LIKE 'COPY events%'`)).length > 0;
      if (!copying) await new Promise((r) => setTimeout(r, 25));
    }
    load.kill('SIGKILL');
    await exited;
    assert.ok(copying, 'the load was never seen copying');
    assert.equal(await eventCount(url), before);
    assert.doesNotMatch((await cli(['versions', 'list', ...engine(url)])).stdout, /:v2\t/);
    const stage = readdirSync(tmp).filter((n) => n.startsWith(`vessel-events-stage-${load.pid}-`));
    assert.equal(stage.length, 1, 'the killed load left no staging folder to clean');
    const next = await run(process.execPath, [BIN, 'load', ...engine(url), '--version', 'v3', writeRows('after.ndjson', 300, 8, 't')], { env });
    assert.match(next.stdout, /fishing-events:v3\t/);
    assert.ok(!existsSync(join(tmp, stage[0]!)), 'the next load did not remove the killed one\'s staging folder');
  });

  test('a load killed once its events are copied leaves only tables no reader sees, which the next writer removes', async () => {
    const { url } = await newPostgresDatabase();
    await cli(['load', ...engine(url), '--version', 'v1', writeRows('bare-1.ndjson', 300, 31, 'b')]);
    const before = await query(url, 'SELECT version_id, id, entry FROM events ORDER BY version_id, id');
    const tables = async () => (await query(url, `SELECT relname FROM pg_class WHERE relkind = 'r' AND NOT relispartition AND relname ~ '^(region_|spatial_|vessel_)?events_v[0-9]+$'`)).map((r) => r[0]);
    const load = spawn(process.execPath, [BIN, 'load', ...engine(url), '--version', 'v2', writeRows('bare-2.ndjson', 30_000, 32, 'c')], { env: { ...process.env, CI: 'true' } });
    const exited = new Promise((r) => load.on('exit', r));
    // Killed while the bare tables it committed are being indexed or read into the tables beside.
    let indexing = false;
    for (let i = 0; i < 2400 && !indexing && load.exitCode === null; i++) {
      indexing = (await query(url, `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vessel-events' AND state = 'active' AND (query LIKE 'CREATE INDEX ON %' OR query LIKE 'INSERT INTO region_events_v%' OR query LIKE 'INSERT INTO spatial_events_v%' OR query LIKE 'INSERT INTO vessel_events_v%')`)).length > 0;
      if (!indexing) await new Promise((r) => setTimeout(r, 25));
    }
    load.kill('SIGKILL');
    await exited;
    assert.ok(indexing, 'the load was never seen indexing');
    assert.ok((await tables()).length > 0, 'the killed load committed no bare table');
    assert.deepEqual(await query(url, 'SELECT version_id, id, entry FROM events ORDER BY version_id, id'), before);
    assert.doesNotMatch((await cli(['versions', 'list', ...engine(url)])).stdout, /:v2\t/);
    // The next writer removes them first; its own land whole.
    await cli(['load', ...engine(url), '--version', 'v3', writeRows('bare-3.ndjson', 300, 33, 'd')]);
    assert.deepEqual(await tables(), []);
    assert.match((await cli(['versions', 'list', ...engine(url)])).stdout, /fishing-events:v3\t/);
  });

  test('a killed update leaves the served data as it was; an update lands whole, with its removals', async () => {
    const { url } = await newPostgresDatabase();
    const initial = writeRows('update-base.ndjson', 3000, 9, 'u');
    await cli(['load', ...engine(url), '--version', 'v1', initial]);
    const before = await query(url, 'SELECT version_id, id, entry FROM events ORDER BY version_id, id');
    const big = writeRows('update-big.ndjson', 30_000, 10, 'w');
    const update = spawn(process.execPath, [BIN, 'load', ...engine(url), '--update', '--version', 'v2', big], { env: { ...process.env, CI: 'true' } });
    // Listened for from the start: an update that ends before it is seen writing (on a busy
    // machine) fails the assertion below rather than leaving the test waiting for an exit gone by.
    const exited = new Promise((r) => update.on('exit', r));
    // Killed while the new versions' rows are being written, the moment a partial update could be seen.
    let writing = false;
    for (let i = 0; i < 1200 && !writing && update.exitCode === null; i++) {
      writing = (await query(url, `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vessel-events' AND (query LIKE 'COPY events%' OR query LIKE 'INSERT INTO events%')`)).length > 0;
      if (!writing) await new Promise((r) => setTimeout(r, 25));
    }
    update.kill('SIGKILL');
    await exited;
    assert.ok(writing, 'the update was never seen writing');
    assert.deepEqual(await query(url, 'SELECT version_id, id, entry FROM events ORDER BY version_id, id'), before);
    assert.doesNotMatch((await cli(['versions', 'list', ...engine(url)])).stdout, /:v2\t/);

    const fishing = (await query(url, `SELECT id FROM events WHERE kind = 'fishing' ORDER BY id LIMIT 3`)).map((r) => r[0] as string);
    writeFileSync(join(dir, 'gone.txt'), `${fishing.join('\n')}\n`);
    writeFileSync(join(dir, 'unknown.txt'), 'no-such-id\n');
    await assert.rejects(cli(['load', ...engine(url), '--update', '--version', 'v2', '--dataset', 'fishing', '--remove', join(dir, 'unknown.txt')]), (e: { stderr: string }) =>
      /unknown\.txt:1: event id "no-such-id" is not in public-global-fishing-events:v1, the version this update applies to\nnothing was changed/.test(e.stderr));
    const done = await cli(['load', ...engine(url), '--update', '--version', 'v2', '--dataset', 'fishing', '--remove', join(dir, 'gone.txt')]);
    const rows = Number((await query(url, `SELECT row_count FROM dataset_versions WHERE kind = 'fishing' AND version = 'v1'`))[0]![0]);
    assert.match(done.stdout, new RegExp(`^public-global-fishing-events:v2\t${rows - 3} entries\tfrom v1: 0 replaced, 0 added, 3 removed$`, 'm'));
    assert.deepEqual(await query(url, `SELECT count(*)::int FROM events WHERE version_id = (SELECT version_id FROM dataset_versions WHERE kind = 'fishing' AND version = 'v2') AND id = ANY($1)`, [fishing]), [[0]]);
    // What the update left beside the tables by region, by place and by vessel is folded into them, once.
    const compacted = await cli(['compact', ...engine(url)]);
    assert.match(compacted.stdout, /^public-global-fishing-events:v2\t1 update: 0 rows added and \d+ rows hidden, by region, by place and by vessel, folded into those tables$/m);
    assert.deepEqual(await query(url, `SELECT count(*)::int FROM vessel_events WHERE id = ANY($1) AND to_version IS NOT NULL`, [fishing]), [[3]]);
    await assert.rejects(cli(['compact', ...engine(url)]), (e: { stderr: string }) => /nothing to compact\nnothing was changed/.test(e.stderr));
  });

  test('from the fourth update whose rows lie beside the tables, the update advises compact; compacted, it does not', async () => {
    const { url } = await newPostgresDatabase();
    const base = writeRows('advice-base.ndjson', 300, 12, 'a');
    await cli(['load', ...engine(url), '--version', 'v1', base]);
    // Two new fishing events an update, so that each update is one more of the fishing lineage.
    const update = async (version: string) => {
      const rows = join(dir, `advice-${version}.ndjson`);
      const fishing = [...generateDemoRows({ events: 60, seed: version.charCodeAt(1) })].filter((r) => r['event_type'] === 'fishing').slice(0, 2);
      writeFileSync(rows, fishing.map((r) => JSON.stringify({ ...r, event_id: `${version}${r['event_id']}` })).join('\n') + '\n');
      return (await cli(['load', ...engine(url), '--update', '--version', version, rows])).stderr;
    };
    for (const version of ['u1', 'u2', 'u3']) assert.doesNotMatch(await update(version), /note:/, version);
    assert.match(await update('u4'), /note: public-global-fishing-events:u4 has 4 updates whose rows by region, by place and by vessel lie beside those tables\..*`vessel-events compact --engine postgres --database-url URL` folds them in/);
    await cli(['compact', ...engine(url)]);
    assert.doesNotMatch(await update('u5'), /note:/);
  });

  test('an update after the first of a lineage never waits for a lock an autovacuum of the partition holds', async () => {
    const { url } = await newPostgresDatabase();
    await cli(['load', ...engine(url), '--version', 'v1', writeRows('vacuumed-base.ndjson', 600, 41, 'p')]);
    await cli(['load', ...engine(url), '--update', '--version', 'u1', writeRows('vacuumed-1.ndjson', 60, 42, 'q')]);
    const partition = (await query(url, `SELECT 'events_v' || lineage_id FROM dataset_versions WHERE version = 'u1' AND kind = 'fishing'`))[0]![0] as string;
    // Held as an autovacuum holds it: a writer that asks for a lock it conflicts with waits until
    // PostgreSQL cancels the autovacuum, a second later; this session is never cancelled.
    const vacuum = new pg.Client({ connectionString: url });
    await vacuum.connect();
    try {
      await vacuum.query('BEGIN');
      await vacuum.query(`LOCK TABLE ${partition} IN SHARE UPDATE EXCLUSIVE MODE`);
      const update = cli(['load', ...engine(url), '--update', '--version', 'u2', writeRows('vacuumed-2.ndjson', 60, 43, 'r')]);
      let waited: unknown[] | undefined;
      let landed = false;
      void update.then(() => { landed = true; }, () => { landed = true; });
      while (!landed && !waited) {
        waited = (await query(url, `SELECT l.mode, l.relation::regclass::text FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE a.datname = current_database() AND a.application_name = 'vessel-events' AND NOT l.granted`))[0];
        if (!waited) await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(waited, undefined, `the update waited for ${JSON.stringify(waited)}`);
      assert.match((await update).stdout, /^public-global-fishing-events:u2\t/m);
    } finally {
      await vacuum.end();
    }
  });

  test('demo, groups, ports and regions take --engine postgres too', async () => {
    const { url } = await newPostgresDatabase();
    const demo = await cli(['demo', ...engine(url), '--events', '1500', '--seed', '2']);
    assert.match(demo.stdout, /^public-global-fishing-events:v\d{8}\t\d+ entries$/m);
    await assert.rejects(cli(['demo', ...engine(url), '--events', '100']), (e: { stderr: string }) => /holds events already/.test(e.stderr));
    const regions = (await cli(['regions', 'list', ...engine(url), '--dataset', 'public-eez-areas'])).stdout;
    assert.match(regions, /^public-eez-areas\t\d+\t\S/m);
    writeFileSync(join(dir, 'groups.csv'), 'group_id,vessel_id\nmy-fleet,v-1\nmy-fleet,v-2\n');
    assert.match((await cli(['groups', 'load', ...engine(url), join(dir, 'groups.csv')])).stdout, /loaded 1 group \(2 members\)/);
    writeFileSync(join(dir, 'ports.csv'), 'id,name,flag,lat,lon\nPORT-X,Port X,ESP,43.1,-8.2\n');
    assert.match((await cli(['ports', 'load', ...engine(url), join(dir, 'ports.csv')])).stdout, /loaded 1 port$/m);
    assert.deepEqual(await query(url, `SELECT name, flag FROM ports WHERE id = 'PORT-X'`), [['Port X', 'ESP']]);
  });

  test('a connection PostgreSQL drops while a query holds it fails that query, never the process', async () => {
    const { url } = await newPostgresDatabase();
    const db = new PostgresPool({ url });
    try {
      const held = db.use(async (c) => {
        const pid = Number((await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
        await query(url, `SELECT pg_terminate_backend(${pid})`);
        // The drop arrives as an error event while the connection is held between statements.
        await new Promise((r) => setTimeout(r, 300));
        return c.query('SELECT 1');
      });
      await assert.rejects(held);
      assert.deepEqual((await db.use((c) => c.query('SELECT 1 AS one'))).rows, [{ one: 1 }], 'the pool serves on');
    } finally {
      await db.close();
    }
  });

  test('closing does not wait forever for a connection nobody gives back', async () => {
    const { url } = await newPostgresDatabase();
    const db = new PostgresPool({ url });
    const forgotten = await db.acquire();
    await db.close(200);
    await assert.rejects(forgotten.query('SELECT 1'), 'the held connection was closed');
    forgotten.release();
    assert.equal(db.stats().inUse, 0);
  });

  test('lists asked at once, more than the pool has connections for: each total and page as the reference says, no connection kept', async () => {
    const fixture = await buildFixtureDb({ events: 3000, seed: 13 });
    // Three connections for 40 lists at once: some take two (the total and the page at once),
    // the rest one after the other. A connection never given back makes a later list wait past the
    // time limit and fail, rather than hang.
    const provider = await openStores(fixture.database, { connections: 3, queryTimeoutMs: 20_000 }, undefined, false);
    const store = provider.current();
    try {
      const ctx = { catalog: store, access: { canRead: () => true } };
      const r = new Random(31);
      const datasets = ['public-global-fishing-events:latest', 'public-global-encounters-events:latest', 'public-global-gaps-events:latest'];
      const lists = await Promise.all(Array.from({ length: 40 }, async () => {
        const filters = { datasets: [r.pick(datasets)], ...(r.chance(0.5) ? { flags: [r.pick(['CHN', 'ESP', 'TWN'])] } : {}), ...(r.chance(0.5) ? { startDate: `${r.int(2017, 2022)}-01-01` } : {}) };
        const paging = { limit: r.pick([1, 10, 100]), offset: r.pick([0, r.int(0, 400), 5000]), sort: r.pick(['+start', '-start'] as const) };
        return normalizeListQuery(filters, paging, ctx);
      }));
      const answers = await Promise.all(lists.map(async (query) => {
        const { total, page } = await store.listPage(query);
        const ids: string[] = [];
        if (page) for await (const chunk of page) ids.push(...chunk.map((t) => (JSON.parse(t) as { id: string }).id));
        return { total, ids, paged: page !== undefined };
      }));
      let pastTheEnd = 0;
      answers.forEach((answer, i) => {
        const query = lists[i]!;
        const expected = referencePage(fixture, fromEventQuery(query));
        assert.deepEqual({ total: answer.total, ids: answer.ids }, expected, `list ${i}: offset ${query.offset}, limit ${query.limit}, ${query.sort}`);
        assert.equal(answer.paged, query.offset < expected.total, `list ${i}: a page exactly when it is not past the end`);
        if (!answer.paged) pastTheEnd++;
      });
      assert.ok(pastTheEnd > 3, `only ${pastTheEnd} lists past their end`);
      assert.equal(store.engineLoad().inUse, 0, 'a connection is still held');
    } finally {
      await provider.close();
      await fixture.cleanup();
    }
  });

  test('pages found on the index and joined to their rows (deep pages) are the pages the reference gives', async () => {
    // Starts cut to the day, so that many events share one and the order between them is the id's.
    const rows = [...generateDemoRows({ events: 3000, seed: 13 })].map((row) => ({ ...row, event_start: `${String(row['event_start']).slice(0, 10)}T00:00:00.000Z` }));
    const fixture = await fixtureFromRows(rows);
    const provider = await openStores(fixture.database, {}, undefined, false);
    const store = provider.current();
    const url = (fixture.database as { url: string }).url;
    try {
      const ctx = { catalog: store, access: { canRead: () => true } };
      const r = new Random(32);
      const datasets = ['public-global-fishing-events:latest', 'public-global-port-visits-events:latest', 'public-global-encounters-events:latest'];
      let deferred = 0;
      let paged = 0;
      for (let i = 0; i < 60; i++) {
        const filters = { datasets: r.chance(0.8) ? [r.pick(datasets)] : datasets.slice(0, 2), ...(r.chance(0.3) ? { flags: [r.pick(['CHN', 'ESP', 'TWN'])] } : {}), ...(r.chance(0.3) ? { startDate: `${r.int(2017, 2022)}-01-01` } : {}) };
        const sort = r.pick(['+start', '-start'] as const);
        const total = await store.count(await normalizeListQuery(filters, { limit: 1, offset: 0, sort }, ctx));
        // Anywhere in the list, or just past its end.
        const offset = r.chance(0.15) ? total + r.int(0, 3) : r.int(0, Math.max(0, total - 1));
        const list = await normalizeListQuery(filters, { limit: r.pick([1, 7, 100]), offset, sort }, ctx);
        // Every page found on the index, whatever its offset.
        const page = compileSearch(list, OWN_PARTITIONS, 0);
        if (page.sql.includes('JOIN')) deferred++;
        const ids = (await query(url, page.sql, page.params)).map((row) => (JSON.parse(row[0] as string) as { id: string }).id);
        if (ids.length > 0) paged++;
        assert.deepEqual(ids, referencePage(fixture, fromEventQuery(list)).ids, `page ${i}: ${JSON.stringify(filters)} offset ${list.offset} limit ${list.limit} ${list.sort}`);
      }
      assert.equal(deferred, 60);
      assert.ok(paged > 35, `only ${paged} of 60 pages hold events`);
    } finally {
      await provider.close();
      await fixture.cleanup();
    }
  });

  test('each version is a partition of its own; dropping a version drops its table', async () => {
    const { url } = await newPostgresDatabase();
    await cli(['load', ...engine(url), '--version', 'v1', writeRows('parts.ndjson', 1500, 21, 'p')]);
    await cli(['load', ...engine(url), '--version', 'v2', writeRows('parts2.ndjson', 800, 22, 'q')]);
    const partitions = async () => (await query(url, `SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events'::regclass ORDER BY 1`)) as [string, string][];
    const versions = (await query(url, 'SELECT version_id, row_count FROM dataset_versions ORDER BY 1')) as [number, string][];
    assert.deepEqual((await partitions()).map(([name]) => name), versions.map(([id]) => `events_v${id}`).sort());
    for (const [id, rows] of versions) {
      assert.equal(Number((await query(url, `SELECT count(*) FROM events_v${id}`))[0]![0]), Number(rows), `events_v${id} holds its version's rows`);
      // Every index of events is on the partition: five B-trees or GiST, and a GIN per region layer.
      const indexes = (await query(url, `SELECT count(*)::int FROM pg_indexes WHERE tablename = $1`, [`events_v${id}`]))[0]![0];
      assert.equal(indexes, (await query(url, `SELECT count(*)::int FROM pg_indexes WHERE tablename = 'events'`))[0]![0]);
    }
    // Built on the bare tables before they were attached, each index is the partition's own, not
    // built again beside it; and the constraint that spared attaching a read of the rows is gone.
    for (const parent of ['events', 'region_events', 'spatial_events', 'vessel_events']) {
      const perPartition = await query(url, `SELECT c.relname, (SELECT count(*)::int FROM pg_index x WHERE x.indrelid = c.oid), (SELECT count(*)::int FROM pg_index x WHERE x.indrelid = c.oid AND x.indisvalid AND EXISTS (SELECT 1 FROM pg_inherits pi WHERE pi.inhrelid = x.indexrelid))
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`, [parent]);
      const own = Number((await query(url, `SELECT count(*) FROM pg_index WHERE indrelid = $1::regclass`, [parent]))[0]![0]);
      assert.equal(perPartition.length, versions.length, parent);
      for (const [name, all, attached] of perPartition) assert.deepEqual([all, attached], [own, own], `${name as string}: every index, each the parent's`);
    }
    assert.deepEqual(await query(url, `SELECT conname FROM pg_constraint WHERE contype = 'c' AND conname ~ '_v[0-9]+_version$'`), []);
    const v1Fishing = Number((await query(url, `SELECT version_id FROM dataset_versions WHERE kind = 'fishing' AND version = 'v1'`))[0]![0]);
    await cli(['versions', 'drop', ...engine(url), 'public-global-fishing-events:v1']);
    assert.ok(!(await partitions()).some(([name]) => name === `events_v${v1Fishing}`));
    assert.deepEqual(await query(url, `SELECT to_regclass($1)`, [`events_v${v1Fishing}`]), [[null]]);
  });

  test('every partition compresses its rows\' entry and the record\'s JSON with lz4, one written before too once the next load runs; their entries read the same; a load\'s rows are copied frozen', async () => {
    const { url } = await newPostgresDatabase();
    await cli(['load', ...engine(url), '--version', 'v1', writeRows('lz4.ndjson', 1200, 23, 'z')]);
    const methods = async () => (await query(url, `SELECT DISTINCT a.attcompression::text FROM pg_attribute a
      WHERE (a.attrelid = 'events'::regclass OR a.attrelid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'events'::regclass)) AND a.attname IN ('entry', 'info', 'other_vessel', 'vessel_authorizations', 'next_port')`)).map((r) => r[0]);
    assert.deepEqual(await methods(), ['l']);
    // Its partitions are new in its transaction: their rows are copied frozen, every page visible to all.
    await query(url, 'CREATE EXTENSION IF NOT EXISTS pg_visibility');
    const pages = await query(url, `SELECT c.relname, c.relpages, s.all_visible, s.all_frozen FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid, pg_visibility_map_summary(c.oid) s WHERE i.inhparent = 'events'::regclass`);
    assert.ok(pages.length > 0 && pages.every(([, n, visible, frozen]) => Number(n) > 0 && Number(visible) === Number(n) && Number(frozen) === Number(n)), JSON.stringify(pages));
    // Most rows pass PostgreSQL's 2 KB threshold, so their texts are stored compressed, and with lz4.
    assert.deepEqual(await query(url, `SELECT DISTINCT pg_column_compression(entry) FROM events WHERE pg_column_compression(entry) IS NOT NULL`), [['lz4']]);
    // A database written before: its partitions on pglz (the default), their rows compressed so.
    for (const [t] of await query(url, `SELECT inhrelid::regclass::text FROM pg_inherits WHERE inhparent = 'events'::regclass UNION SELECT 'events'`)) {
      await query(url, `ALTER TABLE ${t as string} ALTER COLUMN entry SET COMPRESSION pglz, ALTER COLUMN info SET COMPRESSION pglz`);
    }
    await query(url, `UPDATE events SET entry = entry || ''`);
    // Written before the writers kept the schema's statements in meta, so the next runs them all.
    await query(url, `DELETE FROM meta WHERE key = 'schema_ddl'`);
    const entries = await query(url, 'SELECT version_id, id, entry, info::text FROM events ORDER BY version_id, id');
    assert.deepEqual(await query(url, `SELECT DISTINCT pg_column_compression(entry) FROM events WHERE pg_column_compression(entry) IS NOT NULL`), [['pglz']]);
    await cli(['load', ...engine(url), '--version', 'v2', writeRows('lz4-2.ndjson', 300, 24, 'y')]);
    assert.deepEqual(await methods(), ['l']);
    assert.deepEqual(await query(url, 'SELECT version_id, id, entry, info::text FROM events WHERE id NOT LIKE \'y%\' ORDER BY version_id, id'), entries);
    assert.deepEqual(await query(url, `SELECT DISTINCT pg_column_compression(entry) FROM events WHERE id LIKE 'y%' AND pg_column_compression(entry) IS NOT NULL`), [['lz4']]);
  });

  test('migrate moves a database of layout 1 (one events table) to partitions, its events unchanged; a server refuses layout 1 until then', async () => {
    const { url } = await newPostgresDatabase();
    await cli(['load', ...engine(url), '--version', 'v1', writeRows('layout1.ndjson', 2000, 23, 'l')]);
    await cli(['load', ...engine(url), '--version', 'v2', writeRows('layout1b.ndjson', 700, 24, 'm')]);
    const before = await query(url, RECORD_ROWS);
    await recordsAsJson(url);
    // Layout 1 as its loader left it: one table, its indexes, the layout named in meta.
    const columns = (await query(url, `SELECT string_agg(attname, ', ' ORDER BY attnum) FROM pg_attribute WHERE attrelid = 'events'::regclass AND attnum > 0 AND attgenerated = '' AND NOT attisdropped`))[0]![0] as string;
    const gin = (await query(url, `SELECT indexdef FROM pg_indexes WHERE tablename = 'events' AND indexdef LIKE '%USING gin%'`)).map((r) => r[0] as string);
    for (const sql of [
      'CREATE TABLE events_flat (LIKE events INCLUDING DEFAULTS INCLUDING GENERATED)',
      `INSERT INTO events_flat (${columns}) SELECT ${columns} FROM events`,
      'DROP TABLE events',
      'ALTER TABLE events_flat RENAME TO events',
      'ALTER TABLE events DROP COLUMN from_version, DROP COLUMN to_version',
      'CREATE INDEX events_id ON events (id)',
      'CREATE INDEX events_vessel_start ON events (vessel_id, start_ts)',
      'CREATE INDEX events_version_start ON events (version_id, start_ts, id)',
      ...gin.map((def) => def.replace(/ ON ONLY /, ' ON ')),
      'CREATE INDEX events_position ON events USING gist (position)',
      `UPDATE meta SET value = '1' WHERE key = 'schema_version'`,
    ]) await query(url, sql);
    await assert.rejects(cli(['load', ...engine(url), '--version', 'v3', writeRows('refused.ndjson', 10, 25, 'r')]), (e: { stderr: string }) =>
      /layout 1; this version reads layout 4; run "vessel-events migrate --engine postgres --database-url URL"/.test(e.stderr));

    const migrated = await cli(['migrate', ...engine(url)]);
    const versions = Number((await query(url, 'SELECT count(*) FROM dataset_versions'))[0]![0]);
    assert.match(migrated.stdout, new RegExp(`^migrated the PostgreSQL database from layout 1 to 4: ${before.length} events in ${versions} versions, a partition each, with their statistics rollups and rows by region, by place and by vessel, the records of ${before.length} events in columns of their own$`, 'm'));
    assert.deepEqual(await query(url, RECORD_ROWS), before);
    assert.deepEqual(await query(url, `SELECT value FROM meta WHERE key = 'schema_version'`), [['4']]);
    assert.equal(Number((await query(url, `SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass`))[0]![0]), versions);
    assert.deepEqual(await query(url, `SELECT to_regclass('events_layout_1')`), [[null]]);
    await assert.rejects(cli(['migrate', ...engine(url)]), (e: { stderr: string }) => /already has the PostgreSQL layout 4, and the statistics rollups and rows by region, by place and by vessel of every version; nothing to migrate\nnothing was changed/.test(e.stderr));
    const next = await cli(['load', ...engine(url), '--version', 'v3', writeRows('after-migrate.ndjson', 300, 26, 's')]);
    assert.match(next.stdout, /fishing-events:v3\t/);
  });

  test('migrate moves a database of layout 2 (partitions without the updates\' marks) to layout 4; updates then share their base\'s partition', async () => {
    const { url } = await newPostgresDatabase();
    await cli(['load', ...engine(url), '--version', 'v1', writeRows('layout2.ndjson', 1500, 27, 'p')]);
    const before = await query(url, RECORD_ROWS);
    await recordsAsJson(url);
    // Layout 2 as its loader left it: no marks, no lineage, the indexes of index-only scans without them.
    for (const sql of [
      'DROP INDEX events_version_rows', 'DROP INDEX region_events_rows', 'DROP INDEX spatial_events_rows',
      ...['events', 'region_events', 'spatial_events'].map((t) => `ALTER TABLE ${t} DROP COLUMN from_version, DROP COLUMN to_version`),
      'ALTER TABLE dataset_versions DROP COLUMN lineage_id',
      'CREATE INDEX events_version_start ON events (version_id, start_ts, id)',
      'CREATE INDEX region_events_key ON region_events (version_id, member, region, start_ts, id) INCLUDE (end_ts, kind, vessel_flag, vessel_type)',
      'CREATE INDEX spatial_events_key ON spatial_events (version_id, cell_key, start_ts, id) INCLUDE (end_ts, kind, lat, lon)',
      `UPDATE meta SET value = '2' WHERE key = 'schema_version'`,
    ]) await query(url, sql);
    const rows = writeRows('layout2-update.ndjson', 40, 27, 'p');
    await assert.rejects(cli(['load', ...engine(url), '--update', '--version', 'u1', rows]), (e: { stderr: string }) =>
      /layout 2; this version reads layout 4; run "vessel-events migrate --engine postgres --database-url URL"/.test(e.stderr));
    const migrated = await cli(['migrate', ...engine(url)]);
    assert.match(migrated.stdout, new RegExp(`^migrated the PostgreSQL database from layout 2 to 4: the rows' version marks added and their indexes built again, the records of ${before.length} events in columns of their own$`, 'm'));
    assert.deepEqual(await query(url, RECORD_ROWS), before);
    const indexes = (await query(url, `SELECT indexname FROM pg_indexes WHERE indexname IN ('events_version_rows', 'region_events_rows', 'spatial_events_rows', 'events_version_start', 'region_events_key', 'spatial_events_key') ORDER BY 1`)).map((r) => r[0]);
    assert.deepEqual(indexes, ['events_version_rows', 'region_events_rows', 'spatial_events_rows']);
    // The update's version shares its base's lineage: its rows go, marked as its own, to that
    // lineage's partition of changes, and so do the rows it hides (src/store/postgres/lineage.ts).
    await cli(['load', ...engine(url), '--update', '--version', 'u1', rows]);
    const [own, hidden] = (await query(url, `SELECT count(*) FILTER (WHERE NOT c.relname LIKE 'events\\_changes\\_v%'), count(*) FILTER (WHERE c.relname LIKE 'events\\_changes\\_v%')
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'events'::regclass`))[0]!.map(Number);
    assert.equal(own, Number((await query(url, 'SELECT count(*) FROM dataset_versions WHERE lineage_id IS NULL'))[0]![0]));
    assert.equal(hidden, Number((await query(url, 'SELECT count(DISTINCT lineage_id) FROM dataset_versions'))[0]![0]));
    assert.ok(Number((await query(url, 'SELECT count(*) FROM events WHERE from_version IS NOT NULL'))[0]![0]) >= 40);
    assert.equal(Number((await query(url, 'SELECT count(*) FROM events WHERE from_version IS NOT NULL AND version_id > 0'))[0]![0]), 0);
  });

  test('migrate moves a database of layout 3 (each record one JSON text) to layout 4, an updated lineage\'s rows too; its records read the same', async () => {
    const { url } = await newPostgresDatabase();
    await cli(['load', ...engine(url), '--version', 'v1', writeRows('layout3.ndjson', 1500, 28, 'q')]);
    await cli(['load', ...engine(url), '--update', '--version', 'u1', writeRows('layout3-update.ndjson', 60, 28, 'q')]);
    const raw = async () => {
      const stores = await openStores({ engine: 'postgres', url }, {}, undefined, false);
      try {
        const store = stores.current();
        // Rows of each kind's latest version, the update's included.
        const ids = await query(url, `SELECT (SELECT max(d.version_id) FROM dataset_versions d WHERE d.kind = e.kind), e.id FROM events e WHERE e.to_version IS NULL ORDER BY e.from_version NULLS LAST, e.id LIMIT 40`);
        return await Promise.all(ids.map(([versionId, id]) => store.getRecord({ resolved: { versionId: Number(versionId) } } as unknown as ResolvedDataset, id as string)));
      } finally {
        await stores.close();
      }
    };
    const records = await raw();
    assert.ok(records.length === 40 && records.every((r) => r !== undefined && r.vessel.id !== undefined), JSON.stringify(records[0]));
    const before = await query(url, RECORD_ROWS);
    assert.ok(before.some((r) => r[2] !== null) && before.some((r) => r[3] !== null), 'the update added and hid rows');
    await recordsAsJson(url);
    await query(url, `UPDATE meta SET value = '3' WHERE key = 'schema_version'`);
    await assert.rejects(cli(['load', ...engine(url), '--version', 'v2', writeRows('layout3-refused.ndjson', 10, 29, 'r')]), (e: { stderr: string }) =>
      /layout 3; this version reads layout 4; run "vessel-events migrate --engine postgres --database-url URL"/.test(e.stderr));
    const migrated = await cli(['migrate', ...engine(url)]);
    assert.match(migrated.stdout, new RegExp(`^migrated the PostgreSQL database from layout 3 to 4: the records of ${before.length} events in columns of their own$`, 'm'));
    assert.deepEqual(await query(url, RECORD_ROWS), before);
    assert.deepEqual(await query(url, `SELECT count(*) FROM pg_attribute WHERE attname = 'record' AND attrelid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'events'::regclass UNION SELECT 'events'::regclass)`), [['0']]);
    assert.deepEqual(await raw(), records);
  });

  test('a wrong engine or URL is a clear error', async () => {
    await assert.rejects(cli(['versions', 'list', '--engine', 'postgres']), (e: { stderr: string }) => /--engine postgres needs --database-url \(or DATABASE_URL\)/.test(e.stderr));
    await assert.rejects(cli(['versions', 'list', '--engine', 'mysql']), (e: { stderr: string }) => /--engine \(VESSEL_EVENTS_ENGINE\) must be one of duckdb, postgres/.test(e.stderr));
    await assert.rejects(cli(['versions', 'list', '--database-url', 'postgres://x@127.0.0.1/y']), (e: { stderr: string }) => /add --engine postgres/.test(e.stderr));
  });
});
