// The benchmark: npm run bench -- [--events N] [--seed S] [--quick] [--engine postgres]
// Builds (or reuses, keyed by size and seed) a demo database, starts the real server, and runs a
// fixed workload whose classes each draw many parameter values from the data. For each class:
// p50/p95/p99 latency with one client, requests per second with 8 concurrent clients
// (autocannon), and the same queries on the bare engine (the store's own statements, no HTTP, no
// JSON), interleaved with the service's, for the service's overhead ratio. The big page reports entries per second and the server's peak memory.
// Writes bench/results/<date>-<events>.json and .md. --quick proves it works (CI), measures little.
// --engine postgres serves the same demo data from PostgreSQL (a cluster of the benchmark's own in
// bench/cache, loaded by the project's loader), and the bare engine is the same store's SQL there.
import autocannon from 'autocannon';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { httpClient } from './http-client.ts';
import { warmUp } from './warm-up.ts';
import { demoDatabase, log, peakTracker, rssMiB, startServer } from './server.ts';
import { entriesOfList, receiveBulk } from './bulk-receive.ts';
import { freeResultsStem } from './results-file.ts';
import { Random } from '../src/data/demo/random.ts';
import { normalizeEventQuery, normalizeListQuery, normalizeSingleDataset } from '../src/query/normalize.ts';
import { normalizeStatsOptions, StatsPostBodySchema } from '../src/query/stats.ts';
import { openStores, type Database } from '../src/store/engines.ts';
import type { EventStore } from '../src/store/store.ts';
import { readBody, readQueryString, validateAgainst } from '../src/http/wire-syntax.ts';
import { ProblemCollector } from '../src/query/errors.ts';
import { ListGetQuerySchema, ListPostBodySchema, ListPostQuerySchema, TileQuerySchema, type Paging } from '../src/query/schema.ts';
import { tileBounds, tileOf } from '../src/geo/tiles.ts';
import { GRID, POINT_ZOOM } from '../src/shape/vector-tile.ts';
import { normalizeVesselSearch, VesselSearchQuerySchema } from '../src/query/vessel-params.ts';
import { vesselDirectory } from '../src/vessels/directories.ts';
import { box } from './boxes.ts';

const { values: args } = parseArgs({ options: { events: { type: 'string' }, seed: { type: 'string', default: '1' }, quick: { type: 'boolean', default: false }, samples: { type: 'string' }, only: { type: 'string' }, peers: { type: 'boolean', default: false }, db: { type: 'string' }, engine: { type: 'string', default: 'duckdb' } } });
if (args.engine !== 'duckdb' && args.engine !== 'postgres') throw new Error('--engine must be duckdb or postgres');
const quick = args.quick!;
let events = Number(args.events ?? (quick ? 20_000 : 2_000_000));
const seed = Number(args.seed);
// Requests per class with one client (each also run on the bare engine).
const SAMPLES = Number(args.samples ?? (quick ? 8 : 100));
if (args.peers) {
  // The same classes against a plain DuckDB table and PostgreSQL + PostGIS (bench/compare.ts), the
  // service served from --engine (with postgres, the DuckDB engine beside it).
  await (await import('./compare.ts')).compareWithPeers({ events, seed, samples: Number(args.samples ?? (quick ? 3 : 30)), quick, engine: args.engine, ...(args.only ? { only: args.only } : {}) });
  process.exit(0);
}
const CONCURRENT_SECONDS = quick ? 1 : 5;
/** The cold pass's requests per class. */
const COLD_SAMPLES = quick ? 3 : 30;
/** --only NAME runs the classes (the big page included) whose name contains NAME, with or without --peers. */
const selected = (name: string) => !args.only || name.includes(args.only);
// --db: an existing database of N events instead of the demo one (e.g. the Parquet that --peers loaded).
const dbPath = args.db ?? demoDatabase(events, seed);
const ALL = ['public-global-fishing-events', 'public-global-encounters-events', 'public-global-loitering-events', 'public-global-port-visits-events', 'public-global-gaps-events'].map((d) => `${d}:latest`);

// Parameter values drawn from the data, so no class measures one cached query.
// One thread and a seed: the same database gives the same samples on every run, so two runs (a
// change measured before and after) time the same parameters. Unseeded, the polygon class's EEZs
// differed per run and its p50 ranged 12.1-36.3 ms on 2026-11-25 (docs/performance.md).
const sampler = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY', threads: '1' });
const sc = await sampler.connect();
const column = async (sql: string) => (await sc.runAndReadAll(sql)).getRowsJS();
const r = new Random(seed);
const pick = <T>(xs: T[]) => xs[Math.floor(r.next() * xs.length)]!;
// Every dataset's latest version, which the requests read (an update leaves the version it came from loaded).
const LATEST = `(SELECT * FROM events WHERE version_id IN (SELECT max(version_id) FROM dataset_versions GROUP BY kind))`;
const eventIds = (await column(`SELECT id, kind FROM ${LATEST} USING SAMPLE reservoir(2000 ROWS) REPEATABLE (${seed})`)) as [string, string][];
const vessels = (await column(`SELECT vessel_id FROM ${LATEST} USING SAMPLE reservoir(2000 ROWS) REPEATABLE (${seed + 1})`)).map((x) => x[0] as string);
const regionRows = (await column(`SELECT e.eez[1], e.vessel_flag, year(e.start_ts)::INTEGER FROM ${LATEST} e WHERE len(e.eez) > 0 AND e.vessel_flag IS NOT NULL USING SAMPLE reservoir(4000 ROWS) REPEATABLE (${seed + 2})`)) as [string, string, number][];
const eezShapes = (await column(`SELECT geometry FROM region_geometries WHERE dataset = 'public-eez-areas' AND id IN (SELECT DISTINCT unnest(eez) FROM ${LATEST} USING SAMPLE reservoir(5000 ROWS) REPEATABLE (${seed + 3})) AND length(geometry) < 20000`)).map((x) => JSON.parse(x[0] as string));
const fishingTotal = ((await column(`SELECT count(*)::DOUBLE FROM ${LATEST} WHERE kind = 'fishing'`))[0]![0]) as number;
// Where fishing happens, and when: the polygon class draws its boxes around these (boxes.ts).
const fishingPlaces = (await column(`SELECT lat, lon, year(start_ts)::INTEGER FROM ${LATEST} WHERE kind = 'fishing' USING SAMPLE reservoir(2000 ROWS) REPEATABLE (${seed + 4})`)) as [number, number, number][];
// Vessels as users look for them: an MMSI, a whole name, a name's first word.
const vesselQueries = (await column(`SELECT vessel_ssvid, vessel_name FROM ${LATEST} WHERE vessel_ssvid IS NOT NULL AND vessel_name IS NOT NULL USING SAMPLE reservoir(2000 ROWS) REPEATABLE (${seed + 5})`))
  .flatMap(([ssvid, name]) => [ssvid as string, name as string, (name as string).split(' ')[0]!].filter((text) => text.length >= 3));
// A given database is labelled with the events it holds, not with a default size.
if (args.db && !args.events) events = ((await column(`SELECT count(*)::DOUBLE FROM ${LATEST}`))[0]![0]) as number;
sc.closeSync();
sampler.closeSync();
const kindDataset: Record<string, string> = { fishing: ALL[0]!, encounter: ALL[1]!, loitering: ALL[2]!, port_visit: ALL[3]!, gap: ALL[4]! };
const years = [2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024];
const deepOffset = Math.min(50_000, Math.max(0, Math.floor(fishingTotal / 2)));

interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
}
type Engine = (store: EventStore, access: { canRead: () => boolean }) => Promise<void>;
interface WorkloadClass {
  name: string;
  make(): Request;
  /**
   * The bare engine's sample beside the service's, where it must be the same kind of request: a
   * class whose few parameters cost very differently (the statistics of 738,023 fishing events or
   * of 7,380 loitering events) would otherwise compare two different mixes of them.
   */
  twin?(request: Request): Request;
}

const q = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
const year = () => pick(years);
const classes: WorkloadClass[] = [
  { name: 'by id', make: () => { const [id, kind] = pick(eventIds); return { method: 'GET', path: `/v3/events/${id}?dataset=${kindDataset[kind]}` }; } },
  { name: 'vessel history', make: () => ({ method: 'GET', path: `/v3/events?${q({ datasets: ALL.join(','), vessels: pick(vessels), 'start-date': '2017-01-01', 'end-date': '2025-01-01', limit: 100, offset: 0, sort: '-start' })}` }) },
  { name: 'region list with total', make: () => { const [eez, flag, y] = pick(regionRows); return { method: 'GET', path: `/v3/events?${q({ datasets: ALL[0]!, 'region-datasets': 'public-eez-areas', 'region-ids': eez, flags: flag, 'start-date': `${y}-01-01`, 'end-date': `${y + 1}-01-01`, limit: 100, offset: 0 })}` }; } },
  { name: 'encounter types, one year', make: () => { const y = year(); return { method: 'POST', path: '/v3/events?limit=100&offset=0', body: { datasets: [ALL[1]], encounterTypes: ['CARRIER-FISHING', 'FISHING-CARRIER'], startDate: `${y}-01-01`, endDate: `${y + 1}-01-01` } }; } },
  { name: 'polygon + 10 nm buffer, one year', make: () => { const [lat, lon, y] = pick(fishingPlaces); return { method: 'POST', path: '/v3/events?limit=100&offset=0', body: { datasets: [ALL[0]], geometry: box(lat, lon), 'buffer-value': 10, 'buffer-unit': 'NAUTICALMILES', startDate: `${y}-01-01`, endDate: `${y + 1}-01-01` } }; } },
  // Drawn from the EEZs of sampled events whose shapes are small enough: none may be (50M, 2026-11-28).
  ...(eezShapes.length === 0 ? [] : [{ name: 'polygon (an EEZ) + 10 nm buffer, one year', make: (): Request => { const y = year(); return { method: 'POST', path: '/v3/events?limit=100&offset=0', body: { datasets: [ALL[0]], geometry: pick(eezShapes), 'buffer-value': 10, 'buffer-unit': 'NAUTICALMILES', startDate: `${y}-01-01`, endDate: `${y + 1}-01-01` } }; } }]),
  { name: `deep page (offset ${deepOffset})`, make: () => ({ method: 'GET', path: `/v3/events?${q({ datasets: ALL[0]!, limit: 100, offset: deepOffset - Math.floor(r.next() * 100), sort: pick(['+start', '-start']) })}` }) },
  // The five datasets at once, as the web app and the clients list them: no storage order answers it.
  { name: `deep page, five datasets (offset ${deepOffset})`, make: () => ({ method: 'GET', path: `/v3/events?${q({ datasets: ALL.join(','), limit: 100, offset: deepOffset - Math.floor(r.next() * 100), sort: pick(['+start', '-start']) })}` }) },
  // The fishing dataset, the largest: the heavy shape an analyst asks for (a dataset drawn at
  // random measured mostly the small ones).
  { name: 'stats, 8 years, monthly, by flag', make: () => ({ method: 'POST', path: '/v3/events/stats', body: { datasets: [ALL[0]], startDate: '2017-01-01', endDate: '2025-01-01', timeseriesInterval: 'MONTH', groupBy: 'FLAG', includes: ['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED'] } }), twin: (request) => request },
  // Map tiles of a year of fishing: any tile of the world's first zooms, and tiles of zooms 6-8
  // around fishing positions (dense where fishing is).
  { name: 'tile, world (z 0-2), one year', make: () => { const z = Math.floor(r.next() * 3); const n = 2 ** z; const y = year(); return { method: 'GET', path: `/v3/events/tiles/${z}/${Math.floor(r.next() * n)}/${Math.floor(r.next() * n)}.pbf?${q({ datasets: ALL[0]!, 'start-date': `${y}-01-01`, 'end-date': `${y + 1}-01-01` })}` }; } },
  { name: 'tile, dense (z 6-8), one year', make: () => { const [lat, lon, y] = pick(fishingPlaces); const z = 6 + Math.floor(r.next() * 3); const [x, ty] = tileOf(z, lon, lat); return { method: 'GET', path: `/v3/events/tiles/${z}/${x}/${ty}.pbf?${q({ datasets: ALL[0]!, 'start-date': `${y}-01-01`, 'end-date': `${y + 1}-01-01` })}` }; } },
  { name: 'vessel search', make: () => ({ method: 'GET', path: `/v3/vessels/search?${q({ query: pick(vesselQueries), limit: 20 })}` }) },
  { name: 'vessel history (POST form)', make: () => ({ method: 'POST', path: '/v3/events?limit=100&offset=0&sort=-start', body: { datasets: ALL, vessels: [pick(vessels)], startDate: '2017-01-01', endDate: '2025-01-01' } }) },
  { name: 'region list (POST form)', make: () => { const [eez, flag, y] = pick(regionRows); return { method: 'POST', path: '/v3/events?limit=100&offset=0', body: { datasets: [ALL[0]], region: { dataset: 'public-eez-areas', id: eez }, flags: [flag], startDate: `${y}-01-01`, endDate: `${y + 1}-01-01` } }; } },
];

/** The same request on the bare engine: normalise, then the store's own statements (results read, not shaped). */
function engineOf(req: Request): Engine {
  return async (store, access) => {
    const ctx = { catalog: store, access };
    const url = new URL(req.path, 'http://x');
    if (url.pathname.endsWith('/stats')) {
      const problems = new ProblemCollector();
      const body = readBody(req.body, StatsPostBodySchema, problems, 'bench');
      validateAgainst(StatsPostBodySchema, body, problems);
      problems.throwIfAny();
      const values = body.values as Parameters<typeof normalizeStatsOptions>[0];
      await store.stats(await normalizeEventQuery(values as never, ctx), normalizeStatsOptions(values, (n) => n));
      return;
    }
    if (url.pathname.endsWith('/vessels/search')) {
      const problems = new ProblemCollector();
      const read = readQueryString(url.search.slice(1), VesselSearchQuerySchema, problems, 'bench');
      problems.throwIfAny();
      const search = normalizeVesselSearch(read.values as never, (n) => n);
      (await vesselDirectory(store)).search({ query: search.query, where: search.where }).slice(search.offset, search.offset + search.limit);
      return;
    }
    const tile = /\/events\/tiles\/(\d+)\/(\d+)\/(\d+)\.pbf$/.exec(url.pathname);
    if (tile) {
      const problems = new ProblemCollector();
      const read = readQueryString(url.search.slice(1), TileQuerySchema, problems, 'bench');
      validateAgainst(TileQuerySchema, read, problems);
      problems.throwIfAny();
      const [z, x, y] = tile.slice(1).map(Number) as [number, number, number];
      const query = await normalizeEventQuery(read.values as never, ctx);
      await (z < POINT_ZOOM ? store.tileCells(query, tileBounds(z, x, y), GRID) : store.tilePoints(query, tileBounds(z, x, y)));
      return;
    }
    const byId = /\/events\/([^/?]+)$/.exec(url.pathname);
    if (byId) {
      await store.getEntry(normalizeSingleDataset(url.searchParams.get('dataset')!, ctx), byId[1]!);
      return;
    }
    // The request's own parameters, read by the service's reader (GET) or taken from the body (POST).
    const problems = new ProblemCollector();
    const read = readQueryString(url.search.slice(1), req.body ? ListPostQuerySchema : ListGetQuerySchema, problems, 'bench');
    validateAgainst(req.body ? ListPostQuerySchema : ListGetQuerySchema, read, problems);
    problems.throwIfAny();
    const body = req.body ? readBody(req.body, ListPostBodySchema, problems, 'bench') : read;
    if (req.body) validateAgainst(ListPostBodySchema, body, problems);
    problems.throwIfAny();
    const list = await normalizeListQuery(body.values as never, read.values as unknown as Paging, ctx);
    // The store's own statements (the total, then the page's stored entries): the service minus
    // HTTP and shaping.
    await store.count(list);
    for await (const entries of await store.search(list)) void entries;
  };
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

// The database served: the DuckDB file, or the same demo data in PostgreSQL.
const served: { database: Database; stop(): void } = args.engine === 'postgres'
  ? await (args.db ? (await import('./postgres-engine.ts')).postgresLoadedDatabase(args.db) : (await import('./postgres-engine.ts')).postgresDemoDatabase(events, seed))
  : { database: { engine: 'duckdb', path: dbPath }, stop: () => {} };
// The real server, on a free port, with a token for the benchmark.
const databaseArgs = served.database.engine === 'duckdb' ? ['--db', served.database.path] : ['--engine', 'postgres', '--database-url', served.database.url];
const { base, secret, pid: serverPid, stop: stopServer } = await startServer(databaseArgs, 'bench', ['--query-timeout', '0', '--rate-limit', '0']);
const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
// gzip, as the official clients ask (Python's requests and Node's fetch send `gzip, deflate`).
const client = httpClient(base, { ...headers, 'accept-encoding': 'gzip' });
const send = async (req: Request, extraHeaders: Record<string, string> = {}) => {
  const { status, text } = await client(req.method, req.path, req.body, extraHeaders);
  if (status !== 200) throw new Error(`${req.method} ${req.path} -> ${status} ${text.slice(0, 300)}`);
  return text;
};

try {
  await new Promise((resolve) => setTimeout(resolve, 500));
  const idleMiB = rssMiB(serverPid, 'VmRSS');
  const peaks = peakTracker(serverPid);
  // The cold pass: the fresh server's first requests of each class, in turn, with no warm-up (what
  // the first users after a restart or a load meet). The warm pass below is the budgets'.
  const cold = new Map<string, { p50: number; p95: number }>();
  for (const cls of classes.filter((c) => selected(c.name))) {
    const times: number[] = [];
    for (let i = 0; i < COLD_SAMPLES; i++) {
      const req = cls.make();
      const t0 = performance.now();
      await send(req);
      times.push(performance.now() - t0);
    }
    cold.set(cls.name, { p50: round(percentile(times, 50)), p95: round(percentile(times, 95)) });
    log(`${cls.name}, cold: p50 ${round(percentile(times, 50))} ms`);
  }
  const stores = await openStores(served.database, {}, undefined, false);
  const store = stores.current();
  const access = { canRead: () => true };
  const rows: Record<string, unknown>[] = [];
  for (const cls of classes.filter((c) => selected(c.name))) {
    peaks.sinceLast();
    const requests = Array.from({ length: SAMPLES }, () => cls.make());
    if (quick) await send(cls.make());
    else {
      await warmUp(() => send(cls.make()));
      await warmUp(() => engineOf(cls.make())(store, access));
    }
    // The service and the bare engine take turns, each on samples of its own (the other's would
    // find their blocks already in the buffer pool), and alternate which goes first: run one after
    // the other, the second ran on a warmer cache and a different minute of a shared machine. A
    // class with a twin gives both the same kind of sample (the statistics: the same dataset, as
    // their cost is the scan, not the cache).
    const latencies: number[] = [];
    const engine: number[] = [];
    const engineRequests = requests.map((request) => cls.twin?.(request) ?? cls.make());
    const timed = async (work: () => Promise<unknown>, into: number[]) => {
      const t0 = performance.now();
      await work();
      into.push(performance.now() - t0);
    };
    for (const [i, req] of requests.entries()) {
      const service = () => timed(() => send(req), latencies);
      const bare = () => timed(() => engineOf(engineRequests[i]!)(store, access), engine);
      if (i % 2 === 0) { await service(); await bare(); } else { await bare(); await service(); }
    }
    const result = await autocannon({
      url: base, connections: 8, duration: CONCURRENT_SECONDS,
      requests: requests.map((req) => ({ method: req.method, path: req.path, headers, ...(req.body ? { body: JSON.stringify(req.body) } : {}) })),
    });
    const p50 = percentile(latencies, 50);
    const enginePercentile = percentile(engine, 50);
    rows.push({
      class: cls.name, coldP50: cold.get(cls.name)?.p50, coldP95: cold.get(cls.name)?.p95, p50: round(p50), p95: round(percentile(latencies, 95)), p99: round(percentile(latencies, 99)),
      rps8: round(result.requests.average, 0), errors: result.errors + result.non2xx, engineP50: round(enginePercentile), overhead: round(p50 / enginePercentile, 2),
      peakMiB: peaks.sinceLast(),
    });
    log(`${cls.name}: p50 ${round(p50)} ms, engine ${round(enginePercentile)} ms, ${round(result.requests.average, 0)} req/s with 8 clients`);
  }
  await stores.close();

  // The big page, streamed: entries per second and the server's peak memory. Until the last byte is
  // received, uncompressed (gzip of a 110 MB page costs more than the page), by a client that keeps
  // no copy (bench/bulk-receive.ts).
  const receiveBigPage = async (extra: Record<string, string>) => {
    const page = await receiveBulk(base, 'POST', '/v3/events?limit=99999&offset=0', { datasets: [ALL[0]] }, { ...headers, 'accept-encoding': 'identity', ...extra });
    if (page.status !== 200) throw new Error(`the big page -> ${page.status} ${page.tail.slice(-300)}`);
    return page;
  };
  // Seven: its p50 of three moved from 185,000 to 310,000 entries/s between runs on one database.
  const BIG_PAGE_SAMPLES = 7;
  const big: number[] = [];
  let entries = 0;
  for (let i = 0; i < (selected('big page') ? (quick ? 1 : BIG_PAGE_SAMPLES) : 0); i++) {
    const t0 = performance.now();
    const page = await receiveBigPage({});
    big.push(page.receivedAt - t0);
    entries = entriesOfList(page.tail);
  }
  // The same page in the spec wire format (numbers as the interface declares them), which the
  // service renders from the stored entries rather than copying them.
  const spec: number[] = [];
  for (let i = 0; i < (selected('big page') ? (quick ? 1 : BIG_PAGE_SAMPLES) : 0); i++) {
    const t0 = performance.now();
    spec.push((await receiveBigPage({ 'x-wire-format': 'spec' })).receivedAt - t0);
  }
  const bigPage = {
    entries, ms: round(percentile(big, 50)), entriesPerSecond: round(entries / (percentile(big, 50) / 1000), 0), serverPeakMiB: peaks.sinceLast(),
    spec: { ms: round(percentile(spec, 50)), entriesPerSecond: round(entries / (percentile(spec, 50) / 1000), 0) },
  };
  // Up to a million entries of the first dataset as GeoParquet, written whole by the server before
  // its first byte (docs/api.md, "Analyst formats"), until the last byte is received.
  const parquetRuns: number[] = [];
  let parquetEntries = 0;
  for (let i = 0; i < (selected('parquet') ? (quick ? 1 : 3) : 0); i++) {
    const t0 = performance.now();
    const file = await receiveBulk(base, 'POST', '/v3/events?limit=1000000&offset=0&format=parquet', { datasets: [ALL[0]] }, { ...headers, 'accept-encoding': 'identity' });
    if (file.status !== 200) throw new Error(`the Parquet export -> ${file.status} ${file.tail.slice(-300)}`);
    parquetRuns.push(file.receivedAt - t0);
    parquetEntries = Math.min(1_000_000, Number(/\r\nx-total-count: (\d+)/i.exec(file.head)?.[1]));
  }
  const parquet = parquetRuns.length ? {
    entries: parquetEntries, ms: round(percentile(parquetRuns, 50)), entriesPerSecond: round(parquetEntries / (percentile(parquetRuns, 50) / 1000), 0), serverPeakMiB: peaks.sinceLast(),
  } : undefined;
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGiB: round(totalmem() / 2 ** 30, 0), node: process.version },
    engine: args.engine, events, seed, quick, samplesPerClass: SAMPLES, concurrentSeconds: CONCURRENT_SECONDS,
    serverIdleMiB: idleMiB, serverPeakMiB: peaks.lifetime(), classes: rows, bigPage, parquet,
  };
  const table = [
    `Benchmark ${result.date.slice(0, 10)}, ${args.engine === 'postgres' ? 'PostgreSQL engine, ' : ''}${events.toLocaleString('en')} events, ${result.machine.cpus} cores (${result.machine.cpu}), ${result.machine.memoryGiB} GiB, Node ${result.machine.node}, ${SAMPLES} requests per class${quick ? ' (quick mode: figures not meaningful)' : ''}`,
    '',
    '| class | cold p50 ms | cold p95 ms | p50 ms | p95 ms | p99 ms | req/s, 8 clients | engine p50 ms | service / engine | server peak MiB |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((x) => `| ${x['class']} | ${x['coldP50']} | ${x['coldP95']} | ${x['p50']} | ${x['p95']} | ${x['p99']} | ${x['rps8']} | ${x['engineP50']} | ${x['overhead']}x | ${x['peakMiB']} |`),
    '',
    `Cold: a fresh server's first ${COLD_SAMPLES} requests of each class, classes in turn, no warm-up. The other columns: after a warm-up, ${SAMPLES} requests with one client.`,
    ...(big.length ? ['', `Big page (limit=99999, streamed): ${bigPage.entries.toLocaleString('en')} entries in ${bigPage.ms} ms = ${bigPage.entriesPerSecond.toLocaleString('en')} entries/s (wire format spec: ${bigPage.spec.entriesPerSecond.toLocaleString('en')} entries/s, ${bigPage.spec.ms} ms); server peak memory ${bigPage.serverPeakMiB} MiB; idle ${idleMiB} MiB.`] : []),
    ...(parquet ? ['', `Parquet (limit=1000000&format=parquet, written whole, then sent): ${parquet.entries.toLocaleString('en')} entries in ${parquet.ms} ms = ${parquet.entriesPerSecond.toLocaleString('en')} entries/s; server peak memory ${parquet.serverPeakMiB} MiB.`] : []),
    '',
    `Server memory: each peak above is the server's highest RSS during that class or phase alone; over the whole run, ${result.serverPeakMiB} MiB.`,
  ].join('\n');
  console.log(table);
  // A partial run (--only) is printed, never written as the results of the size.
  if (!args.only) {
    const stem = freeResultsStem(`${result.date.slice(0, 10)}-${events}${args.engine === 'postgres' ? '-postgres' : ''}${quick ? '-quick' : ''}`);
    writeFileSync(`${stem}.json`, `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(`${stem}.md`, `${table}\n`);
    log(`written ${stem}.json and .md`);
  }
} finally {
  stopServer();
  served.stop();
}
