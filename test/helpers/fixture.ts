// A real DuckDB file built by the project's own loader from generated demo rows, plus an app on it.
// Under test/run-postgres.ts (VESSEL_EVENTS_TEST_ENGINE=postgres) the app reads a PostgreSQL
// database loaded by the same loader from the same rows instead; the DuckDB file stays the source
// of the reference records, so both engines are held to the same expected answers.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { TokenFile, TokenVerifier } from '../../src/auth/tokens.ts';
import { DuckDBInstance, JSDuckDBValueConverter } from '@duckdb/node-api';
import { demoReferenceData, demoRows, DemoWorld, type PublishedRow } from '../../src/data/demo/generate.ts';
import { loadRows } from '../../src/data/load-events.ts';
import type { EventRecord } from '../../src/domain/record.ts';
import { SELECT_COLUMNS, toRecord } from '../../src/store/duckdb/columns.ts';
import type { WireFormat } from '../../src/shape/wire.ts';
import { copyDuckDbFiles, editDatabase, moveDuckDbFiles, openStores, removeDuckDbFiles, type Database, type ServingOptions } from '../../src/store/engines.ts';
import type { EventStore, StoreProvider } from '../../src/store/store.ts';
import { processAlive } from '../../src/store/writer.ts';
import pg from 'pg';

/** The engine the API and store suites run on: duckdb, or postgres under test/run-postgres.ts. */
export const TEST_ENGINE = process.env.VESSEL_EVENTS_TEST_ENGINE === 'postgres' ? 'postgres' : 'duckdb';

export interface Fixture {
  dir: string;
  /** The DuckDB file (the reference records are read from it, whatever the engine). */
  dbPath: string;
  /** What the app reads: the DuckDB file, or a PostgreSQL database loaded from the same rows. */
  database: Database;
  /** The published rows the database was loaded from (generated again on first use). */
  readonly rows: PublishedRow[];
  records: EventRecord[];
  /** Vessel group id -> its vessel ids, as loaded. */
  groups: Map<string, Set<string>>;
  /** Removes its files and drops its PostgreSQL database (done when the promise settles). */
  cleanup(): Promise<void>;
}

/**
 * Databases built by the loader, one per (events, seed, version) and version of the source code,
 * kept between test files and runs: each test gets its own copy, so it may change it freely. The
 * key holds a digest of src/, so a change to the loader or the generator builds them again.
 */
const CACHE_DIR = join(tmpdir(), 'vessel-events-test-fixtures');
let sourceDigest: string | undefined;
function digestOfSources(): string {
  if (!sourceDigest) {
    const hash = createHash('sha256');
    const root = join(import.meta.dirname, '../../src');
    for (const file of (readdirSync(root, { recursive: true }) as string[]).sort()) {
      const path = join(root, file);
      if (statSync(path).isFile()) hash.update(file).update(readFileSync(path));
    }
    sourceDigest = hash.digest('hex').slice(0, 16);
  }
  return sourceDigest;
}

async function buildDatabase(database: Database, demo: { events: number; seed: number }, version: string): Promise<void> {
  const world = new DemoWorld(demo);
  await loadRows(demoRows(world, demo), 'fixture', { database, version, source: 'test fixture' });
  const reference = demoReferenceData(world);
  await editDatabase(database, async (w) => {
    await w.replaceGroups(reference.groups);
    await w.upsertPorts(reference.ports);
    for (const [dataset, regions] of Object.entries(reference.regions)) await w.replaceRegions(dataset, regions);
    await w.replaceIuuList(reference.iuu);
    await w.replaceRegistry(reference.registry);
  });
}

/**
 * The cached database for these options, built first if no test file has built it yet, and what
 * to do once it is copied. One test file builds it while the others that need it wait (a lock
 * file naming the builder's pid; a dead builder's lock is taken over): on a cold cache, files
 * starting together each built the same databases. Should two build it all the same, the first to
 * move its build into place wins, and the other copies its own build, then removes it.
 */
async function cachedDatabase(demo: { events: number; seed: number }, version: string): Promise<{ path: string; copied(): void }> {
  const cached = join(CACHE_DIR, `${demo.events}-${demo.seed}-${version}-${digestOfSources()}.duckdb`);
  const kept = { path: cached, copied: () => {} };
  if (existsSync(cached)) return kept;
  mkdirSync(CACHE_DIR, { recursive: true });
  const lock = `${cached}.lock`;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch {
      if (lockHolderGone(lock)) rmSync(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 100));
      if (existsSync(cached)) return kept;
    }
  }
  try {
    return existsSync(cached) ? kept : await buildCached(cached, demo, version);
  } finally {
    rmSync(lock, { force: true });
  }
}

/** The lock's builder has died (or left it empty for over 10 s); a lock already gone is not. */
function lockHolderGone(lock: string): boolean {
  try {
    const holder = Number(readFileSync(lock, 'utf8'));
    return holder ? !processAlive(holder) : Date.now() - statSync(lock).mtimeMs > 10_000;
  } catch {
    return false;
  }
}

async function buildCached(cached: string, demo: { events: number; seed: number }, version: string): Promise<{ path: string; copied(): void }> {
  const kept = { path: cached, copied: () => {} };
  // Built under a name of its own and moved into place: test files running at once never see half of one.
  const building = `${cached}.building-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await buildDatabase({ engine: 'duckdb', path: building }, demo, version);
    moveDuckDbFiles(building, cached);
    return kept;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return { path: building, copied: () => removeDuckDbFiles(building) };
    removeDuckDbFiles(building);
    throw e;
  }
}

export async function buildFixtureDb(options: { events?: number; seed?: number; version?: string } = {}): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'vessel-events-test-'));
  const dbPath = join(dir, 'events.duckdb');
  const demo = { events: options.events ?? 3000, seed: options.seed ?? 7 };
  const version = options.version ?? 'v20240101';
  const cached = await cachedDatabase(demo, version);
  copyDuckDbFiles(cached.path, dbPath);
  cached.copied();
  const { records, groups } = await readStored(dbPath);
  let rows: PublishedRow[] | undefined;
  const database: Database = TEST_ENGINE === 'postgres'
    ? await newPostgresDatabase(await cachedPostgres(demo, version))
    : { engine: 'duckdb', path: dbPath };
  return {
    dir, dbPath, database, records, groups,
    get rows() {
      return (rows ??= [...demoRows(new DemoWorld(demo), demo)]);
    },
    cleanup: () => removeFixture(dir, database),
  };
}

function removeFixture(dir: string, database: Database): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  return dropPostgresDatabase(database);
}

/** A database loaded from the given rows (the small hand-readable set), for exact-value tests. */
export async function fixtureFromRows(rows: Record<string, unknown>[], groups: { groupId: string; vesselId: string }[] = []): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'vessel-events-test-'));
  const dbPath = join(dir, 'events.duckdb');
  const databases: Database[] = [{ engine: 'duckdb', path: dbPath }];
  if (TEST_ENGINE === 'postgres') databases.push(await newPostgresDatabase());
  for (const database of databases) {
    await loadRows(rows, 'small-events', { database, version: 'v20240101', source: 'test fixture' });
    if (groups.length) await editDatabase(database, (w) => w.replaceGroups(groups));
  }
  const stored = await readStored(dbPath);
  return { dir, dbPath, database: databases.at(-1)!, ...stored, rows: rows as PublishedRow[], cleanup: () => removeFixture(dir, databases.at(-1)!) };
}

// ---- PostgreSQL fixtures: a database per test, cloned from a template loaded once per run ----
// The cluster is the run's own (test/run-postgres.ts) and is removed with everything in it. The
// databases tests make are dropped all the same, by their fixture's cleanup or when their test
// file's process is about to exit: a clone is a whole copy of its template's files, and the full
// tier's clones, left to the end of the run, filled a CI machine's disk.

function adminUrl(): string {
  const url = process.env.VESSEL_EVENTS_TEST_DATABASE_URL;
  if (!url) throw new Error('VESSEL_EVENTS_TEST_DATABASE_URL is not set: run the PostgreSQL suites with test/run-postgres.ts');
  return url;
}

function urlOf(database: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;

/** Databases this process made and has not dropped yet. */
const madeDatabases = new Set<string>();
// beforeExit fires once the event loop is empty: every store is closed, and every drop a cleanup
// started has ended (its connection kept the loop busy), so only the databases no cleanup dropped
// are left. A drop that fails here leaves its database to the cluster's removal: said, not failed on.
process.on('beforeExit', () => {
  if (madeDatabases.size === 0) return;
  void Promise.all([...madeDatabases].map(dropDatabaseNamed))
    .catch((e: unknown) => console.warn(`a test database was not dropped: ${String(e)}`));
});

/** A new, empty PostgreSQL database of the run's cluster (or a copy of a template). */
export async function newPostgresDatabase(template?: string): Promise<Database & { engine: 'postgres' }> {
  const name = uniqueName('test');
  madeDatabases.add(name);
  await admin((c) => c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  return { engine: 'postgres', url: urlOf(name) };
}

/** Drops a database newPostgresDatabase made (its connections closed first, by FORCE). */
export function dropPostgresDatabase(database: Database): Promise<void> {
  return database.engine === 'postgres' ? dropDatabaseNamed(new URL(database.url).pathname.slice(1)) : Promise.resolve();
}

async function dropDatabaseNamed(name: string): Promise<void> {
  if (!madeDatabases.delete(name)) return;
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** The template database for these options, loaded by the first test file that needs it. */
async function cachedPostgres(demo: { events: number; seed: number }, version: string): Promise<string> {
  const name = `fixture_${demo.events}_${demo.seed}_${version}_${digestOfSources()}`.toLowerCase();
  return admin(async (c) => {
    // Test files run at once: one builds, the others wait for it.
    await c.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      if ((await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) return name;
      const building = uniqueName('building');
      await c.query(`CREATE DATABASE ${building}`);
      await buildDatabase({ engine: 'postgres', url: urlOf(building) }, demo, version);
      await c.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      return name;
    } finally {
      await c.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
}

/** Every stored record, read with a plain SELECT: no filter compiler involved. */
export async function readAllRecords(dbPath: string): Promise<EventRecord[]> {
  return (await readStored(dbPath)).records;
}

/** Every stored record and vessel group, read with plain SELECTs. */
async function readStored(dbPath: string): Promise<{ records: EventRecord[]; groups: Map<string, Set<string>> }> {
  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(`SELECT ${SELECT_COLUMNS} FROM events`);
    const records = reader.convertRows(JSDuckDBValueConverter).map((row) => toRecord(row as unknown[]));
    const groups = new Map<string, Set<string>>();
    for (const [group, vessel] of (await connection.runAndReadAll('SELECT group_id, vessel_id FROM vessel_groups')).getRowsJS() as [string, string][]) {
      (groups.get(group) ?? groups.set(group, new Set()).get(group)!).add(vessel);
    }
    connection.closeSync();
    return { records, groups };
  } finally {
    instance.closeSync();
  }
}

export interface TestApp {
  app: FastifyInstance;
  stores: StoreProvider;
  /** The store requests currently get. */
  store: EventStore;
  fixture: Fixture;
  /** A token that may read every public dataset. */
  token: string;
  tokens: TokenFile;
  auth: { authorization: string };
  close(): Promise<void>;
}

/**
 * The app over a fixture database: a shared one passed in (the caller cleans it up), or its own,
 * built with `events` and `seed` and removed by close().
 */
export async function startTestApp(options: {
  wire?: WireFormat; fixture?: Fixture; events?: number; seed?: number; bodyLimitBytes?: number; bufferDeadlineMs?: number; rateLimitPerMinute?: number;
  store?: ServingOptions; metrics?: boolean;
} = {}): Promise<TestApp> {
  const fixture = options.fixture ?? (await buildFixtureDb({ events: options.events, seed: options.seed }));
  const tokens = new TokenFile(join(fixture.dir, `tokens-${Math.random().toString(36).slice(2)}.json`));
  const token = tokens.create('all', ['public-*']);
  const stores = await openStores(fixture.database, options.store, undefined, false);
  const app = await buildApp({
    stores,
    tokens: new TokenVerifier(tokens),
    wire: options.wire ?? 'spec',
    cacheMaxAgeSeconds: 600,
    bodyLimitBytes: options.bodyLimitBytes ?? 1_048_576,
    bufferDeadlineMs: options.bufferDeadlineMs,
    rateLimitPerMinute: options.rateLimitPerMinute,
    metrics: options.metrics,
  });
  return {
    app, stores, store: stores.current(), fixture, token, tokens,
    auth: { authorization: `Bearer ${token}` },
    async close() {
      await app.close();
      await stores.close();
      if (!options.fixture) await fixture.cleanup();
    },
  };
}
