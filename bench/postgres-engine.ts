// The benchmark's PostgreSQL: a cluster of its own in bench/cache (kept between runs, stopped when
// the benchmark ends), holding the same data as the DuckDB file the parameters are drawn from: the
// demo of the same size and seed, loaded by `vessel-events demo --engine postgres`, or with `--db`
// the Parquet that `--peers` generated, loaded by `vessel-events load --engine postgres`. Settings as
// the PostgreSQL peer's (bench/peers.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { basename, dirname, join } from 'node:path';
import pg from 'pg';
import type { Database } from '../src/store/engines.ts';

/** The benchmark's PostgreSQL database, served by the engine at its URL. */
type PostgresDatabase = Extract<Database, { engine: 'postgres' }>;
import { startCluster } from '../test/helpers/postgres.ts';
import { BIN, CACHE_DIR, demoDatabase, log } from './server.ts';

const SETTINGS = ['shared_buffers=2GB', 'work_mem=64MB', 'max_parallel_workers_per_gather=2', 'jit=off', 'maintenance_work_mem=1GB', 'max_wal_size=4GB', 'checkpoint_timeout=1h'];

export async function postgresDemoDatabase(events: number, seed: number): Promise<{ database: PostgresDatabase; stop(): void }> {
  return postgresDatabase(`engine-pg-${events}-seed${seed}`, demoDatabase(events, seed), (url) => [
    [BIN, 'demo', '--events', String(events), '--seed', String(seed), '--engine', 'postgres', '--database-url', url],
  ]);
}

/**
 * The benchmark's PostgreSQL holding what `--db` holds, when that is a database `--peers` loaded
 * from its Parquet (bench/cache/loaded-N-seedS.duckdb): the same files loaded by the same commands
 * (bench/peers.ts loadedDatabase), so the parameters drawn from the DuckDB file are PostgreSQL's too.
 */
export async function postgresLoadedDatabase(duckPath: string): Promise<{ database: PostgresDatabase; stop(): void }> {
  const name = /^loaded-(\d+)-seed(\d+)\.duckdb$/.exec(basename(duckPath));
  if (!name) throw new Error(`--engine postgres --db takes a database --peers loaded (bench/cache/loaded-N-seedS.duckdb), not ${duckPath}`);
  const parquet = join(dirname(duckPath), `parquet-${name[1]}-seed${name[2]}`);
  const files = ['fishing', 'encounter', 'loitering', 'port_visit', 'gap'].map((k) => join(parquet, `${k}.parquet`));
  return postgresDatabase(`engine-pg-loaded-${name[1]}-seed${name[2]}`, duckPath, (url) => [
    [BIN, 'load', '--engine', 'postgres', '--database-url', url, '--version', 'v1', ...files],
    [BIN, 'regions', 'load', '--engine', 'postgres', '--database-url', url, '--dataset', 'public-eez-areas', join(parquet, 'regions', 'public-eez-areas.geojson')],
  ]);
}

async function postgresDatabase(dirName: string, duckPath: string, commands: (url: string) => string[][]): Promise<{ database: PostgresDatabase; stop(): void }> {
  const cluster = await startCluster({ dir: join(CACHE_DIR, dirName), settings: SETTINGS });
  process.on('exit', () => cluster.stop());
  const database: PostgresDatabase = { engine: 'postgres', url: cluster.urlOf('events') };
  // Written once the data is in: a build stopped half-way starts again. A cluster loaded by an older
  // generator holds other events than the DuckDB file the benchmark draws its parameters from (its
  // ids gave 404s), so the first ids of both are compared, and a stale cluster is loaded again.
  const done = join(cluster.dir, 'bench-loaded');
  if (existsSync(done) && !(await sameEvents(database.url, duckPath))) {
    log(`the PostgreSQL cluster holds other events than ${duckPath} (an older generator): loading it again`);
    rmSync(done);
  }
  if (!existsSync(done)) {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('DROP DATABASE IF EXISTS events');
    await admin.query('CREATE DATABASE events');
    await admin.end();
    log(`loading the events of ${duckPath} into PostgreSQL (${cluster.dir})...`);
    const t0 = Date.now();
    for (const args of commands(database.url)) {
      const built = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, CI: 'true' } });
      if (built.status !== 0) throw new Error(`loading PostgreSQL failed: ${args.slice(1, 3).join(' ')}`);
    }
    log(`loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    writeFileSync(done, `${new Date().toISOString()} ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  return { database, stop: () => cluster.stop() };
}

/**
 * Whether the PostgreSQL database and the DuckDB demo hold the same events (their first ids by id).
 * Distinct: after updates an id replaced is two rows in PostgreSQL, the hidden one and its successor.
 */
async function sameEvents(url: string, duckPath: string): Promise<boolean> {
  const FIRST = 'SELECT DISTINCT id FROM events ORDER BY id LIMIT 5';
  const client = new pg.Client({ connectionString: url });
  let theirs: string[] = [];
  try {
    await client.connect();
    theirs = (await client.query<{ id: string }>(FIRST)).rows.map((r) => r.id);
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
  const instance = await DuckDBInstance.create(duckPath, { access_mode: 'READ_ONLY' });
  try {
    const c = await instance.connect();
    const mine = (await c.runAndReadAll(FIRST)).getRowsJS().map((r) => r[0] as string);
    c.closeSync();
    return JSON.stringify(mine) === JSON.stringify(theirs);
  } finally {
    instance.closeSync();
  }
}
