// The two things a user would pick instead of this service, on the same rows (issue 14):
// (A) the generated Parquet in one plain DuckDB table sorted by (event_type, event_start) with an
//     ART index on event_id, queried with straightforward SQL;
// (B) PostgreSQL 15 + PostGIS with btree on id, (vessel, start), (type, start), GIN on the EEZ
//     array and GiST on the position.
// Both are built once per (events, seed) in bench/cache. PostgreSQL runs as its own cluster in
// bench/cache (test/helpers/postgres.ts: as the `postgres` user, since initdb refuses root), on a
// free port, stopped at the end.
// It runs without fsync: it is rebuilt from the Parquet if lost, and durability costs no query time.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import pg from 'pg';
import { CACHE_DIR, log } from './server.ts';
import { postgresMissing, reachableByServer, startCluster } from '../test/helpers/postgres.ts';
import type { Polygon } from '../src/geo/geojson.ts';
import { sqlText } from '../src/store/sql.ts';

const KIND_FILES = ['fishing', 'encounter', 'loitering', 'port_visit', 'gap'];

/** A list answer as each engine gives it: ids in order, and the total when the class has one. */
export interface Answer {
  ids: string[];
  total?: number;
  /** Statistics: the totals that must agree. */
  stats?: { events: number; vessels: number; groups: [string, number][]; months: [string, number][] };
}

/** What every class asks, in a form each engine renders in its own SQL. */
export type PeerQuery =
  | { class: 'by id'; id: string }
  | { class: 'vessel history'; vessel: string }
  | { class: 'region list'; eez: string; flag: string; year: number }
  | { class: 'encounter types'; year: number }
  | { class: 'polygon'; polygons: Polygon[]; year: number }
  | { class: 'deep page'; offset: number; descending: boolean }
  | { class: 'stats'; kind: string }
  | { class: 'big page' };

export interface Peer {
  name: string;
  run(q: PeerQuery): Promise<Answer>;
  close(): Promise<void>;
}

const yearStart = (y: number) => `${y}-01-01 00:00:00`;
// The service's default time mode (OVERLAP): an event overlaps [start, end) or is still open.
const overlap = (s: string, e: string) => `(event_end >= ${s} OR event_end IS NULL) AND event_start < ${e}`;

function run(command: string, args: string[]): void {
  const r = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status})`);
}

/** The generated Parquet files of this size and seed (`vessel-events generate`), built on first use. */
export function parquetFiles(bin: string, events: number, seed: number): { dir: string; files: string[] } {
  const dir = join(CACHE_DIR, `parquet-${events}-seed${seed}`);
  if (!existsSync(join(dir, 'gap.parquet'))) {
    log(`generating ${events} events as Parquet in ${dir}...`);
    rmSync(dir, { recursive: true, force: true });
    run(process.execPath, [bin, 'generate', '--events', String(events), '--seed', String(seed), '--format', 'parquet', '--out', dir]);
  }
  return { dir, files: KIND_FILES.map((k) => join(dir, `${k}.parquet`)) };
}

/** The service's database: the same Parquet loaded by the project (events and the EEZ shapes). */
export function loadedDatabase(bin: string, parquet: { dir: string; files: string[] }, events: number, seed: number): string {
  const db = join(CACHE_DIR, `loaded-${events}-seed${seed}.duckdb`);
  if (!existsSync(db)) {
    log(`loading the Parquet into ${db}...`);
    run(process.execPath, [bin, 'load', '--db', db, '--version', 'v1', ...parquet.files]);
    run(process.execPath, [bin, 'regions', 'load', '--db', db, '--dataset', 'public-eez-areas', join(parquet.dir, 'regions', 'public-eez-areas.geojson')]);
  }
  return db;
}

// ---- (A) plain DuckDB ----

const sqlList = (xs: string[]) => xs.map(sqlText).join(', ');

function duckPolygon(p: Polygon): string {
  const lons = p[0]!.map((v) => v[0]);
  const lats = p[0]!.map((v) => v[1]);
  const edges: number[][] = [];
  for (const ring of p) for (let i = 0; i + 1 < ring.length; i++) edges.push([ring[i]![0], ring[i]![1], ring[i + 1]![0], ring[i + 1]![1]]);
  return `(lon_mean BETWEEN ${Math.min(...lons)} AND ${Math.max(...lons)} AND lat_mean BETWEEN ${Math.min(...lats)} AND ${Math.max(...lats)}
    AND len(list_filter(${JSON.stringify(edges)}::DOUBLE[][], e -> (e[2] > lat_mean) <> (e[4] > lat_mean) AND lon_mean < (e[3] - e[1]) * (lat_mean - e[2]) / (e[4] - e[2]) + e[1])) % 2 = 1)`;
}

export async function duckdbPeer(parquet: string[], events: number, seed: number): Promise<Peer & { connection: DuckDBConnection }> {
  const path = join(CACHE_DIR, `peer-duckdb-${events}-seed${seed}.duckdb`);
  if (!existsSync(path)) {
    log(`building the plain DuckDB peer ${path}...`);
    const build = await DuckDBInstance.create(`${path}.building`);
    const c = await build.connect();
    await c.run(`SET TimeZone = 'UTC'`);
    await c.run(`CREATE TABLE events AS SELECT * REPLACE (event_start::TIMESTAMP AS event_start, event_end::TIMESTAMP AS event_end),
      -- The flag of the event's own vessel (an encounter lists two).
      upper(list_filter(from_json(event_vessels, '[{"id": "VARCHAR", "flag": "VARCHAR"}]'), v -> v.id = entity_id)[1].flag) AS flag
      FROM read_parquet([${sqlList(parquet)}]) ORDER BY event_type, event_start`);
    await c.run(`CREATE INDEX events_id ON events (event_id)`);
    await c.run('CHECKPOINT');
    c.closeSync();
    build.closeSync();
    spawnSync('mv', [`${path}.building`, path]);
  }
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const c = await instance.connect();
  const ids = async (sql: string) => (await c.runAndReadAll(sql)).getRowsJS().map((r) => r[0] as string);
  const count = async (sql: string) => Number((await c.runAndReadAll(`SELECT count(*) ${sql}`)).getRowsJS()[0]![0]);
  const answer = async (rows: string, order: string, limit = 100, offset = 0) => ({
    ids: await ids(`SELECT event_id, * ${rows} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`),
    total: await count(rows),
  });
  return {
    name: 'plain DuckDB',
    connection: c,
    async run(q) {
      switch (q.class) {
        case 'by id':
          return { ids: await ids(`SELECT event_id, * FROM events WHERE event_id = '${q.id}'`) };
        case 'vessel history':
          return answer(`FROM events WHERE entity_id = '${q.vessel}' AND ${overlap(`'2017-01-01'`, `'2025-01-01'`)}`, 'event_start DESC, event_id DESC');
        case 'region list':
          return answer(`FROM events WHERE event_type = 'fishing' AND list_contains(regions_mean_position.eez, '${q.eez}') AND flag = '${q.flag}'
            AND ${overlap(`'${yearStart(q.year)}'`, `'${yearStart(q.year + 1)}'`)}`, 'event_start, event_id');
        case 'encounter types':
          return answer(`FROM events WHERE event_type = 'encounter' AND lower(json_extract_string(event_info, '$.type')) IN ('carrier-fishing', 'fishing-carrier')
            AND ${overlap(`'${yearStart(q.year)}'`, `'${yearStart(q.year + 1)}'`)}`, 'event_start, event_id');
        case 'polygon':
          return answer(`FROM events WHERE event_type = 'fishing' AND (${q.polygons.map(duckPolygon).join(' OR ')})
            AND ${overlap(`'${yearStart(q.year)}'`, `'${yearStart(q.year + 1)}'`)}`, 'event_start, event_id');
        case 'deep page':
          return answer(`FROM events WHERE event_type = 'fishing'`, q.descending ? 'event_start DESC, event_id DESC' : 'event_start, event_id', 100, q.offset);
        case 'stats':
          return duckStats(c, q.kind);
        case 'big page':
          return { ids: await ids(`SELECT event_id, * FROM events WHERE event_type = 'fishing' ORDER BY event_start, event_id LIMIT 99999`) };
      }
    },
    async close() {
      c.closeSync();
      instance.closeSync();
    },
  };
}

async function duckStats(c: DuckDBConnection, kind: string): Promise<Answer> {
  const rows = `FROM events WHERE event_type = '${kind}' AND ${overlap(`'2017-01-01'`, `'2025-01-01'`)}`;
  const [head] = (await c.runAndReadAll(`SELECT count(*)::DOUBLE, count(DISTINCT entity_id)::DOUBLE ${rows}`)).getRowsJS();
  const groups = (await c.runAndReadAll(`SELECT flag, count(*)::DOUBLE ${rows} AND flag IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1`)).getRowsJS() as [string, number][];
  const months = (await c.runAndReadAll(`SELECT strftime(date_trunc('month', event_start), '%Y-%m'), count(*)::DOUBLE ${rows} GROUP BY 1 ORDER BY 1`)).getRowsJS() as [string, number][];
  return { ids: [], stats: { events: head![0] as number, vessels: head![1] as number, groups, months } };
}

// ---- (B) PostgreSQL + PostGIS ----

export { postgresMissing };

const PG_TABLE = `CREATE TABLE events (
  event_id text NOT NULL, event_type text NOT NULL, entity_id text NOT NULL, event_start timestamptz NOT NULL, event_end timestamptz,
  lat double precision, lon double precision, flag text, eez text[], regions jsonb, event_info jsonb, event_vessels jsonb,
  geom geometry(Point, 4326) GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lon, lat), 4326)) STORED)`;
const PG_INDEXES = [
  'CREATE INDEX ON events (event_id)',
  'CREATE INDEX ON events (entity_id, event_start)',
  'CREATE INDEX ON events (event_type, event_start)',
  'CREATE INDEX ON events USING gin (eez)',
  'CREATE INDEX ON events USING gist (geom)',
];

export async function postgresPeer(duck: DuckDBConnection, events: number, seed: number): Promise<Peer> {
  const dir = reachableByServer(join(CACHE_DIR, `peer-pg-${events}-seed${seed}`));
  // Written once the rows and indexes are in: a build stopped half-way starts again.
  const done = join(dir, 'bench-loaded');
  const built = existsSync(done);
  if (!built) {
    log(`building the PostgreSQL peer ${dir}...`);
    rmSync(dir, { recursive: true, force: true });
  }
  const cluster = await startCluster({ dir, settings: ['shared_buffers=2GB', 'work_mem=64MB', 'max_parallel_workers_per_gather=2', 'jit=off', 'maintenance_work_mem=2GB', 'max_wal_size=20GB', 'checkpoint_timeout=1h'] });
  // However the benchmark ends, the cluster it started stops with it.
  const stop = () => cluster.stop();
  process.on('exit', stop);
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  if (!built) {
    const csv = join(dir, 'events.csv');
    await duck.run(`COPY (SELECT event_id, event_type, entity_id, strftime(event_start, '%Y-%m-%d %H:%M:%S+00'), strftime(event_end, '%Y-%m-%d %H:%M:%S+00'), lat_mean, lon_mean, flag,
        '{' || array_to_string(regions_mean_position.eez, ',') || '}', to_json(regions_mean_position)::VARCHAR, event_info, event_vessels FROM events) TO '${csv}' (FORMAT csv, HEADER false)`);
    chownSync(csv, uidOf('postgres'), gidOf('postgres'));
    await client.query('CREATE EXTENSION IF NOT EXISTS postgis');
    await client.query(PG_TABLE);
    await client.query(`COPY events (event_id, event_type, entity_id, event_start, event_end, lat, lon, flag, eez, regions, event_info, event_vessels) FROM '${csv}' (FORMAT csv)`);
    rmSync(csv);
    for (const ddl of PG_INDEXES) await client.query(ddl);
    await client.query('VACUUM ANALYZE events');
    writeFileSync(done, `${new Date().toISOString()}\n`);
  }
  const ids = async (sql: string, params: unknown[] = []) => (await client.query({ text: sql, values: params, rowMode: 'array' })).rows.map((r: unknown[]) => r[0] as string);
  const count = async (rows: string, params: unknown[]) => Number((await client.query({ text: `SELECT count(*) ${rows}`, values: params, rowMode: "array" })).rows[0]?.[0]);
  const answer = async (rows: string, params: unknown[], order: string, limit = 100, offset = 0) => ({
    ids: await ids(`SELECT event_id, * ${rows} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`, params),
    total: await count(rows, params),
  });
  const year = (y: number) => [`${y}-01-01T00:00:00Z`, `${y + 1}-01-01T00:00:00Z`];
  return {
    name: 'PostgreSQL + PostGIS',
    async run(q) {
      switch (q.class) {
        case 'by id':
          return { ids: await ids('SELECT event_id, * FROM events WHERE event_id = $1', [q.id]) };
        case 'vessel history':
          return answer(`FROM events WHERE entity_id = $1 AND ${overlap('$2', '$3')}`, [q.vessel, '2017-01-01T00:00:00Z', '2025-01-01T00:00:00Z'], 'event_start DESC, event_id DESC');
        case 'region list':
          return answer(`FROM events WHERE event_type = 'fishing' AND eez @> ARRAY[$1::text] AND flag = $2 AND ${overlap('$3', '$4')}`, [q.eez, q.flag, ...year(q.year)], 'event_start, event_id');
        case 'encounter types':
          return answer(`FROM events WHERE event_type = 'encounter' AND lower(event_info->>'type') IN ('carrier-fishing', 'fishing-carrier') AND ${overlap('$1', '$2')}`, year(q.year), 'event_start, event_id');
        case 'polygon': {
          const shape = JSON.stringify({ type: 'MultiPolygon', coordinates: q.polygons });
          return answer(`FROM events WHERE event_type = 'fishing' AND ST_Intersects(geom, ST_SetSRID(ST_GeomFromGeoJSON($1), 4326)) AND ${overlap('$2', '$3')}`, [shape, ...year(q.year)], 'event_start, event_id');
        }
        case 'deep page':
          return answer(`FROM events WHERE event_type = 'fishing'`, [], q.descending ? 'event_start DESC, event_id DESC' : 'event_start, event_id', 100, q.offset);
        case 'stats': {
          const rows = `FROM events WHERE event_type = $1 AND ${overlap('$2', '$3')}`;
          const params = [q.kind, '2017-01-01T00:00:00Z', '2025-01-01T00:00:00Z'];
          const head = (await client.query({ text: `SELECT count(*), count(DISTINCT entity_id) ${rows}`, values: params, rowMode: "array" })).rows[0] as unknown[];
          const groups = (await client.query({ text: `SELECT flag, count(*) ${rows} AND flag IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1`, values: params, rowMode: 'array' })).rows;
          const months = (await client.query({ text: `SELECT to_char(date_trunc('month', event_start AT TIME ZONE 'UTC'), 'YYYY-MM'), count(*) ${rows} GROUP BY 1 ORDER BY 1`, values: params, rowMode: 'array' })).rows;
          return { ids: [], stats: { events: Number(head[0]), vessels: Number(head[1]), groups: groups.map((g: unknown[]) => [g[0] as string, Number(g[1])]), months: months.map((m: unknown[]) => [m[0] as string, Number(m[1])]) } };
        }
        case 'big page':
          return { ids: await ids(`SELECT event_id, * FROM events WHERE event_type = 'fishing' ORDER BY event_start, event_id LIMIT 99999`) };
      }
    },
    async close() {
      await client.end();
      stop();
      process.off('exit', stop);
    },
  };
}

function uidOf(user: string): number {
  return Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
}
function gidOf(user: string): number {
  return Number(spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout.trim());
}
