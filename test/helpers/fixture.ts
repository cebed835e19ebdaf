// A real DuckDB file built by the project's own loader from generated demo rows, plus an app on it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { TokenFile, TokenVerifier } from '../../src/auth/tokens.ts';
import { DuckDBInstance, JSDuckDBValueConverter } from '@duckdb/node-api';
import { demoReferenceData, demoRows, DemoWorld, type PublishedRow } from '../../src/data/demo/generate.ts';
import { editDatabase, loadRows } from '../../src/data/load.ts';
import type { EventRecord } from '../../src/data/record.ts';
import { SELECT_COLUMNS, toRecord } from '../../src/store/duckdb/columns.ts';
import type { WireFormat } from '../../src/shape/wire.ts';
import { ReloadingStore } from '../../src/store/duckdb/reloading-store.ts';
import type { EventStore } from '../../src/store/store.ts';

export interface Fixture {
  dir: string;
  dbPath: string;
  rows: PublishedRow[];
  records: EventRecord[];
  /** Vessel group id -> its vessel ids, as loaded. */
  groups: Map<string, Set<string>>;
  cleanup(): void;
}

export async function buildFixtureDb(options: { events?: number; seed?: number; version?: string } = {}): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'vessel-events-test-'));
  const dbPath = join(dir, 'events.duckdb');
  const demo = { events: options.events ?? 3000, seed: options.seed ?? 7 };
  const world = new DemoWorld(demo);
  const rows = [...demoRows(world, demo)];
  await loadRows(rows, 'fixture', { dbPath, version: options.version ?? 'v20240101', source: 'test fixture' });
  const reference = demoReferenceData(world);
  await editDatabase(dbPath, async (w) => {
    await w.replaceGroups(reference.groups);
    await w.upsertPorts(reference.ports);
    for (const [dataset, regions] of Object.entries(reference.regions)) await w.replaceRegions(dataset, regions);
  });
  const groups = new Map<string, Set<string>>();
  for (const m of reference.groups) (groups.get(m.groupId) ?? groups.set(m.groupId, new Set()).get(m.groupId)!).add(m.vesselId);
  return { dir, dbPath, rows, records: await readAllRecords(dbPath), groups, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every stored record, read with a plain SELECT: no filter compiler involved. */
export async function readAllRecords(dbPath: string): Promise<EventRecord[]> {
  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(`SELECT ${SELECT_COLUMNS} FROM events`);
    const records = reader.convertRows(JSDuckDBValueConverter).map((row) => toRecord(row as unknown[]));
    connection.closeSync();
    return records;
  } finally {
    instance.closeSync();
  }
}

export interface TestApp {
  app: FastifyInstance;
  stores: ReloadingStore;
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
export async function startTestApp(options: { wire?: WireFormat; fixture?: Fixture; events?: number; seed?: number; bodyLimitBytes?: number } = {}): Promise<TestApp> {
  const fixture = options.fixture ?? (await buildFixtureDb({ events: options.events, seed: options.seed }));
  const tokens = new TokenFile(join(fixture.dir, `tokens-${Math.random().toString(36).slice(2)}.json`));
  const token = tokens.create('all', ['public-*']);
  const stores = await ReloadingStore.open({ path: fixture.dbPath }, undefined, false);
  const app = await buildApp({
    stores,
    tokens: new TokenVerifier(tokens),
    wire: options.wire ?? 'spec',
    cacheMaxAgeSeconds: 600,
    bodyLimitBytes: options.bodyLimitBytes ?? 1_048_576,
  });
  return {
    app, stores, store: stores.current(), fixture, token, tokens,
    auth: { authorization: `Bearer ${token}` },
    async close() {
      await app.close();
      await stores.close();
      if (!options.fixture) fixture.cleanup();
    },
  };
}
