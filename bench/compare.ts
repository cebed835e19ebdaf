// npm run bench -- --events N --peers [--engine postgres]: every class on the service (over HTTP),
// on a plain DuckDB table and on PostgreSQL + PostGIS (bench/peers.ts), all on the same generated
// rows, with the same sampled parameters, interleaved request by request. With --engine postgres
// the service is served from PostgreSQL (the Parquet loaded by the project's loader into the
// benchmark's cluster, bench/postgres-engine.ts), and the DuckDB engine runs beside it, so both
// engines and both peers are timed in one run. Every other engine's ids and totals are checked
// against the first service's. Reports p50/p95 per engine, the first service's ratio to the better
// peer, and the machine's load average during each class (the machine is shared).
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { BIN, log, rssMiB, startServer } from './server.ts';
import { freeResultsStem } from './results-file.ts';
import { duckdbPeer, loadedDatabase, parquetFiles, postgresMissing, postgresPeer, type Answer, type Peer, type PeerQuery } from './peers.ts';
import { Random } from '../src/data/demo/random.ts';
import { parseGeometry } from '../src/geo/geojson.ts';
import { bufferPolygons } from '../src/geo/buffer.ts';
import { httpClient } from './http-client.ts';
import { warmUp } from './warm-up.ts';
import { box } from './boxes.ts';
import { collectGarbage } from './gc.ts';

export interface CompareOptions {
  events: number;
  seed: number;
  samples: number;
  quick: boolean;
  /** Only the classes whose name contains this (printed, never written as the run's results). */
  only?: string;
  /** The engine the service under comparison is served from; with postgres, the DuckDB engine's runs beside it. */
  engine: 'duckdb' | 'postgres';
}

/** A running service the classes are timed on, named as the results name it. */
interface Service {
  name: string;
  text(s: Sample): Promise<string>;
  pid: number;
  stop(): void;
}

const DATASET: Record<string, string> = {
  fishing: 'public-global-fishing-events', encounter: 'public-global-encounters-events', loitering: 'public-global-loitering-events',
  port_visit: 'public-global-port-visits-events', gap: 'public-global-gaps-events',
};
const ALL = Object.values(DATASET);
const YEARS = [2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024];

interface Sample {
  query: PeerQuery;
  request: { method: 'GET' | 'POST'; path: string; body?: unknown };
}

/** Whether the benchmark collects its own garbage before each timed request of a class: only the big page's. */
const collectsGarbage = (className: string) => className.startsWith('big page');

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const qs = (o: Record<string, string | number>) => new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString();

/**
 * A server of the project on `database` (its serve arguments), answering uncompressed, as the
 * peers' rows travel. `tool` names its token file: each server has its own, so starting the second
 * does not revoke the first's token.
 */
async function service(name: string, tool: string, database: string[]): Promise<Service> {
  const server = await startServer(database, tool, ['--query-timeout', '0', '--rate-limit', '0']);
  // Uncompressed: gzip of a 110 MB page costs the server more than the page.
  const client = httpClient(server.base, { authorization: `Bearer ${server.secret}`, 'content-type': 'application/json', 'accept-encoding': 'identity' });
  /** The response body, received whole: what the timing covers (the peers' covers their rows in JS). */
  const text = async (s: Sample): Promise<string> => {
    const { status, text: body } = await client(s.request.method, s.request.path, s.request.body);
    if (status !== 200) throw new Error(`${name}: ${s.request.method} ${s.request.path} -> ${status} ${body.slice(0, 300)}`);
    return body;
  };
  return { name, text, pid: server.pid, stop: server.stop };
}

export async function compareWithPeers(options: CompareOptions): Promise<void> {
  const { events, seed, samples } = options;
  const parquet = parquetFiles(BIN, events, seed);
  const dbPath = loadedDatabase(BIN, parquet, events, seed);
  const duck = await duckdbPeer(parquet.files, events, seed);
  const peers: Peer[] = [duck];
  const missing = postgresMissing();
  if (missing) log(`PostgreSQL peer skipped: ${missing}`);
  else peers.push(await postgresPeer(duck.connection, events, seed));

  // Parameters drawn from the data, the same for every engine.
  const r = new Random(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r.next() * xs.length)]!;
  const rows = async (sql: string) => (await duck.connection.runAndReadAll(sql)).getRowsJS();
  const ids = (await rows(`SELECT event_id, event_type FROM events USING SAMPLE reservoir(2000 ROWS) REPEATABLE (${seed})`)) as [string, string][];
  const vessels = (await rows(`SELECT entity_id FROM events USING SAMPLE reservoir(2000 ROWS) REPEATABLE (${seed + 1})`)).map((x) => x[0] as string);
  const regionRows = (await rows(`SELECT regions_mean_position.eez[1], flag, year(event_start)::INTEGER FROM events WHERE event_type = 'fishing' AND len(regions_mean_position.eez) > 0 AND flag IS NOT NULL USING SAMPLE reservoir(4000 ROWS) REPEATABLE (${seed + 2})`)) as [string, string, number][];
  const fishing = Number((await rows(`SELECT count(*) FROM events WHERE event_type = 'fishing'`))[0]![0]);
  // Where fishing happens, and when: the polygon class draws its boxes around these (boxes.ts), as the benchmark does.
  const fishingPlaces = (await rows(`SELECT lat_mean, lon_mean, year(event_start)::INTEGER FROM events WHERE event_type = 'fishing' USING SAMPLE reservoir(2000 ROWS) REPEATABLE (${seed + 4})`)) as [number, number, number][];
  const eezFile = JSON.parse(readFileSync(join(parquet.dir, 'regions', 'public-eez-areas.geojson'), 'utf8')) as { features: { geometry: unknown }[] };
  const shapes = eezFile.features.map((f) => f.geometry).filter((g) => JSON.stringify(g).length < 20_000);
  const deepOffset = Math.min(50_000, Math.floor(fishing / 2));

  /** A polygon with a 10 nm buffer over a year of fishing; the peers get the service's own buffered polygons: the same shape, so the same ids. */
  const polygonSample = (geometry: unknown, year: number): Sample => {
    const polygons = bufferPolygons(parseGeometry(geometry), 10, 'NAUTICALMILES', 'DISSOLVE');
    return { query: { class: 'polygon', polygons, year }, request: { method: 'POST', path: '/v3/events?limit=100&offset=0', body: { datasets: [DATASET['fishing']], geometry, 'buffer-value': 10, 'buffer-unit': 'NAUTICALMILES', startDate: `${year}-01-01`, endDate: `${year + 1}-01-01` } } };
  };
  const classes: { name: string; make(): Sample }[] = [
    { name: 'by id', make: () => { const [id, kind] = pick(ids); return { query: { class: 'by id', id }, request: { method: 'GET', path: `/v3/events/${encodeURIComponent(id)}?dataset=${DATASET[kind]}` } }; } },
    { name: 'vessel history', make: () => { const vessel = pick(vessels); return { query: { class: 'vessel history', vessel }, request: { method: 'GET', path: `/v3/events?${qs({ datasets: ALL.join(','), vessels: vessel, 'start-date': '2017-01-01', 'end-date': '2025-01-01', limit: 100, offset: 0, sort: '-start' })}` } }; } },
    { name: 'region list with total', make: () => { const [eez, flag, year] = pick(regionRows); return { query: { class: 'region list', eez, flag, year }, request: { method: 'GET', path: `/v3/events?${qs({ datasets: DATASET['fishing']!, 'region-datasets': 'public-eez-areas', 'region-ids': eez, flags: flag, 'start-date': `${year}-01-01`, 'end-date': `${year + 1}-01-01`, limit: 100, offset: 0 })}` } }; } },
    { name: 'encounter types, one year', make: () => { const year = pick(YEARS); return { query: { class: 'encounter types', year }, request: { method: 'POST', path: '/v3/events?limit=100&offset=0', body: { datasets: [DATASET['encounter']], encounterTypes: ['CARRIER-FISHING', 'FISHING-CARRIER'], startDate: `${year}-01-01`, endDate: `${year + 1}-01-01` } } }; } },
    { name: 'polygon + 10 nm buffer, one year', make: () => { const [lat, lon, year] = pick(fishingPlaces); return polygonSample(box(lat, lon), year); } },
    { name: 'polygon (an EEZ) + 10 nm buffer, one year', make: () => polygonSample(pick(shapes), pick(YEARS)) },
    { name: `deep page (offset ${deepOffset})`, make: () => { const offset = deepOffset - Math.floor(r.next() * 100); const descending = r.next() < 0.5; return { query: { class: 'deep page', offset, descending }, request: { method: 'GET', path: `/v3/events?${qs({ datasets: DATASET['fishing']!, limit: 100, offset, sort: descending ? '-start' : '+start' })}` } }; } },
    // The largest dataset, as the benchmark's class: one drawn at random mixed 7,380 loitering events with 7.2M fishing.
    { name: 'stats, 8 years, monthly, by flag', make: () => { const kind = 'fishing'; return { query: { class: 'stats', kind }, request: { method: 'POST', path: '/v3/events/stats', body: { datasets: [DATASET[kind]], startDate: '2017-01-01', endDate: '2025-01-01', timeseriesInterval: 'MONTH', groupBy: 'FLAG', includes: ['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED'] } } }; } },
    { name: 'big page (limit 99,999)', make: () => ({ query: { class: 'big page' }, request: { method: 'POST', path: '/v3/events?limit=99999&offset=0', body: { datasets: [DATASET['fishing']] } } }) },
  ];

  // The service under comparison first: its answers are the ones every other engine's are checked against.
  const services: Service[] = [];
  const stops: (() => void)[] = [];
  if (options.engine === 'postgres') {
    const served = await (await import('./postgres-engine.ts')).postgresLoadedDatabase(dbPath);
    stops.push(() => served.stop());
    services.push(await service('service, PostgreSQL', 'bench', ['--engine', 'postgres', '--database-url', served.database.url]));
    services.push(await service('service, DuckDB', 'bench-duckdb', ['--db', dbPath]));
  } else {
    services.push(await service('service', 'bench', ['--db', dbPath]));
  }
  const serviceAnswer = (s: Sample, text: string): Answer => {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (s.query.class === 'by id') return { ids: [body['id'] as string] };
    if (s.query.class === 'stats') {
      const groups = (body['groups'] as { name: string; value: number }[]).map((g): [string, number] => [g.name, g.value]);
      const months = (body['timeseries'] as { date: string; value: number }[]).map((t): [string, number] => [t.date.slice(0, 7), t.value]);
      return { ids: [], stats: { events: body['numEvents'] as number, vessels: body['numVessels'] as number, groups, months } };
    }
    const entries = (body['entries'] as { id: string }[]).map((e) => e.id);
    return s.query.class === 'big page' ? { ids: entries } : { ids: entries, total: body['total'] as number };
  };

  // Every engine timed: the services, then the peers, each answering a sample its own way.
  const engines = [...services.map((x) => x.name), ...peers.map((p) => p.name)];
  const runners: ((s: Sample) => Promise<Answer>)[] = [
    ...services.map((x) => async (s: Sample) => serviceAnswer(s, await x.text(s))),
    ...peers.map((p) => (s: Sample) => p.run(s.query)),
  ];
  const servicePeakMiB: Record<string, number> = {};
  let bigPageEntries = 0;
  const report: Record<string, unknown>[] = [];
  try {
    for (const cls of classes.filter((c) => !options.only || c.name.includes(options.only))) {
      const count = cls.name.startsWith('big page') ? Math.min(samples, options.quick ? 1 : 5) : samples;
      const times: number[][] = engines.map(() => []);
      // Per engine after the first: samples whose ids or totals differ from the first's.
      const mismatches: number[] = engines.map(() => 0);
      let firstMismatch = '';
      // Unmeasured samples first, on every engine (bench/warm-up.ts); the big page's run takes seconds.
      if (!options.quick && !cls.name.startsWith('big page')) {
        for (const run of runners) await warmUp(() => run(cls.make()));
      }
      const loads: number[] = [loadavg()[0]!];
      for (let i = 0; i < count; i++) {
        const sample = cls.make();
        const answers: Answer[] = [];
        // Interleaved, in a rotating order, so no engine always runs on blocks the previous one warmed.
        const order = engines.map((_, k) => (k + i) % engines.length);
        for (const k of order) {
          // The big page's 99,999 rows from the previous engine are garbage in this process:
          // collected before the clock starts, so no engine's timing pays for another's
          // (docs/performance.md, "The big page in runs"). Not in the other classes, whose answers
          // hold at most 100 rows: a forced collection there made the next round trip itself
          // slower by 0.5-1 ms, for every engine (docs/performance.md, "Against the peers").
          if (collectsGarbage(cls.name)) collectGarbage();
          const t0 = performance.now();
          answers[k] = await runners[k]!(sample);
          times[k]!.push(performance.now() - t0);
          if (k === 0 && sample.query.class === 'big page') bigPageEntries = answers[k]!.ids.length;
        }
        const mine = JSON.stringify(answers[0]);
        engines.forEach((engine, k) => {
          const theirs = JSON.stringify(answers[k]);
          if (k > 0 && mine !== theirs) {
            mismatches[k]!++;
            if (!firstMismatch) firstMismatch = `${engine} on ${JSON.stringify(sample.query).slice(0, 200)}: ${engines[0]} ${mine.slice(0, 200)} / ${engine} ${theirs.slice(0, 200)}`;
          }
        });
        loads.push(loadavg()[0]!);
      }
      const p50 = times.map((t) => round(percentile(t, 50)));
      const p95 = times.map((t) => round(percentile(t, 95)));
      const best = Math.min(...p50.slice(services.length));
      const row = {
        class: cls.name, samples: count, p50: Object.fromEntries(engines.map((e, k) => [e, p50[k]])), p95: Object.fromEntries(engines.map((e, k) => [e, p95[k]])),
        serviceOverBestPeer: round(p50[0]! / best, 2), loadMax: round(Math.max(...loads), 2),
        mismatches: Object.fromEntries(engines.slice(1).map((e, k) => [e, mismatches[k + 1]])),
      };
      report.push(row);
      log(`${cls.name}: ${engines.map((e, k) => `${e} ${p50[k]} ms`).join(', ')}; load up to ${row.loadMax}${mismatches.some((m) => m) ? `; MISMATCH ${firstMismatch}` : ''}`);
    }
  } finally {
    for (const x of services) {
      servicePeakMiB[x.name] = rssMiB(x.pid, 'VmHWM');
      x.stop();
    }
    for (const p of peers) await p.close();
    for (const stop of stops) stop();
  }
  const date = new Date().toISOString();
  const bigPageRow = report.find((row) => String(row['class']).startsWith('big page'));
  const table = [
    `Benchmark with peers ${date.slice(0, 10)}, ${events.toLocaleString('en')} events, ${cpus().length} cores (${cpus()[0]?.model}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${samples} samples per class, one client, interleaved`,
    '',
    `| class | ${engines.map((e) => `${e} p50 (p95) ms`).join(' | ')} | ${engines[0]} / better peer | load avg (max) | ids and totals differ from ${engines[0]}'s |`,
    `|---|${engines.map(() => '---').join('|')}|---|---|---|`,
    ...report.map((row) => {
      const p50 = row['p50'] as Record<string, number>;
      const p95 = row['p95'] as Record<string, number>;
      const load = row['loadMax'] as number;
      return `| ${row['class']} | ${engines.map((e) => `${p50[e]} (${p95[e]})`).join(' | ')} | ${row['serviceOverBestPeer']}x | ${load}${load > 1 ? ' (busy)' : ''} | ${Object.entries(row['mismatches'] as Record<string, number>).map(([p, m]) => `${p}: ${m}`).join(', ')} |`;
    }),
    '',
    `${bigPageRow ? `Big page, ${bigPageEntries.toLocaleString('en')} entries, as entries per second (p50): ${engines.map((e) => `${e} ${Math.round(bigPageEntries / ((bigPageRow['p50'] as Record<string, number>)[e]! / 1000)).toLocaleString('en')}`).join(', ')}. ` : ''}Peak RSS over the run: ${Object.entries(servicePeakMiB).map(([e, mib]) => `${e} ${mib} MiB`).join(', ')}.`,
  ].join('\n');
  console.log(table);
  if (!options.quick && !options.only) {
    const stem = freeResultsStem(`${date.slice(0, 10)}-${events}-peers${options.engine === 'postgres' ? '-postgres' : ''}`);
    writeFileSync(`${stem}.json`, `${JSON.stringify({ date, events, seed, samples, engines, classes: report, servicePeakMiB }, null, 2)}\n`);
    writeFileSync(`${stem}.md`, `${table}\n`);
    log(`written ${stem}.json and .md`);
  }
}
