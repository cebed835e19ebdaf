// npm run soak -- [--minutes M] [--clients C] [--events E] [--burst B] [--burst-every S] [--query-timeout MS]
// Mixed realistic traffic on the real server for M minutes from C clients (pages small and large,
// deep pages, lookups by id, statistics, polygons with buffers), some clients leaving mid-page, one
// more client that asks for 99,999-entry pages and leaves after 1 B, 2 KB, 50 KB or 1 MB, and every
// S seconds a burst of B heavy requests at once, which the server's time limit (MS, 3000 by
// default) interrupts in part. Reports answers by status, p50/p99 latency, the server's memory
// every 10 s, and every 200 whose body did not arrive whole. Exits 1 on a truncated 200 or a 5xx
// other than the 503s a burst may get past the waiting limit and the 504s of queries interrupted
// at the time limit, which it counts and reports apart; a 503 for the engine's memory is a
// failure. Writes bench/results/<date>-soak-<M>min.json.
import { request as httpRequest } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Random } from '../src/data/demo/random.ts';
import { DATASET_ID_BY_KIND } from '../src/domain/kinds.ts';
import { demoDatabase, log, rssMiB, startServer } from './server.ts';

const { values: args } = parseArgs({ options: {
  minutes: { type: 'string', default: '10' }, clients: { type: 'string', default: '8' }, events: { type: 'string', default: '200000' },
  burst: { type: 'string', default: '64' }, 'burst-every': { type: 'string', default: '60' }, 'query-timeout': { type: 'string', default: '3000' },
} });
const minutes = Number(args.minutes);
const clients = Number(args.clients);
const burstSize = Number(args.burst);
const burstEvery = Number(args['burst-every']) * 1000;
const ALL = Object.values(DATASET_ID_BY_KIND).map((d) => `${d}:latest`);

const server = await startServer(demoDatabase(Number(args.events), 1), 'soak', ['--rate-limit', '0', '--query-timeout', args['query-timeout']]);
const { hostname, port } = new URL(server.base);
const auth = { authorization: `Bearer ${server.secret}` };

// Ids and vessels from the data itself.
const sample = (await (await fetch(`${server.base}/v3/events?datasets=${ALL.join(',')}&limit=3000&offset=0&sort=-end&summary=true`, { headers: auth })).json()) as { entries: { id: string; type: string; vessel: { id: string } }[] };
const KIND_DATASET: Record<string, string> = Object.fromEntries(Object.entries(DATASET_ID_BY_KIND).map(([k, d]) => [k, `${d}:latest`]));

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: object;
  heavy: boolean;
}

function call(r: Random): Call {
  const e = r.pick(sample.entries);
  const year = r.int(2017, 2024);
  switch (r.int(0, 9)) {
    case 0: case 1: return { method: 'GET', path: `/v3/events/${e.id}?dataset=${KIND_DATASET[e.type]}`, heavy: false };
    case 2: return { method: 'GET', path: `/v3/events?datasets=${ALL.join(',')}&vessels=${e.vessel.id}&limit=100&offset=0&sort=-start`, heavy: false };
    case 3: return { method: 'GET', path: `/v3/events?datasets=${ALL[0]}&flags=CHN,ESP&start-date=${year}-01-01&end-date=${year + 1}-01-01&limit=100&offset=0`, heavy: true };
    case 4: return { method: 'POST', path: '/v3/events/stats', body: { datasets: [r.pick(ALL)], startDate: '2017-01-01', endDate: '2025-01-01', timeseriesInterval: 'MONTH', groupBy: 'FLAG', includes: ['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED'] }, heavy: true };
    case 5: return { method: 'GET', path: `/v3/events?datasets=${ALL[0]}&limit=100&offset=${r.int(1000, 50_000)}&sort=-start`, heavy: true };
    case 6: return { method: 'POST', path: '/v3/events?limit=100&offset=0', body: { datasets: [ALL[0]], region: { dataset: 'public-eez-areas', id: '8371' }, bufferValue: 10, bufferUnit: 'NAUTICALMILES', startDate: `${year}-01-01`, endDate: `${year + 1}-01-01` }, heavy: true };
    case 7: return { method: 'GET', path: `/v3/events?datasets=${ALL[1]}&encounter-types=CARRIER-FISHING&start-date=${year}-01-01&end-date=${year + 1}-01-01&limit=100&offset=0`, heavy: true };
    default: return { method: 'GET', path: `/v3/events?datasets=${r.pick(ALL)}&start-date=${year}-01-01&end-date=${year}-03-01&limit=${r.pick([1000, 5000, 20_000])}&offset=0`, heavy: true };
  }
}

const statuses = new Map<number, number>();
const latencies: number[] = [];
const truncated: string[] = [];
let left = 0;
let burst503 = 0;
let timeout504 = 0;
let memory503 = 0;
let other5xx = 0;
const firstFailures: string[] = [];

/** One request; `leave` reads the first chunk and closes the connection, as a client gone mid-page. */
function perform(c: Call, leave: boolean | number, inBurst: boolean): Promise<void> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...auth, ...(c.body ? { 'content-type': 'application/json' } : {}) };
    const req = httpRequest({ hostname, port, method: c.method, path: c.path, headers, timeout: 120_000 }, (res) => {
      if (leave !== false && res.statusCode === 200) {
        // `true`: after the first chunk; a number: after that many bytes.
        let received = 0;
        res.on('data', (d: Buffer) => {
          received += d.length;
          if (leave === true || received >= leave) {
            left++;
            req.destroy();
            resolve();
          }
        });
        res.on('end', () => resolve());
        return;
      }
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('error', () => {
        truncated.push(`${c.method} ${c.path}: the connection broke after ${body.length} bytes`);
        resolve();
      });
      res.on('end', () => {
        latencies.push(performance.now() - t0);
        const status = res.statusCode!;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 503 && /memory limit/.test(body)) memory503++;
        else if (status === 503 && inBurst) burst503++;
        else if (status === 504) timeout504++;
        else if (status >= 500) other5xx++;
        if (status >= 500 && !(status === 503 && inBurst && !/memory limit/.test(body)) && status !== 504 && firstFailures.length < 20) firstFailures.push(`${status} ${c.method} ${c.path}: ${body.slice(0, 300)}`);
        if (status === 200) {
          try {
            const json = JSON.parse(body) as { entries?: unknown[]; total?: number; offset?: number; limit?: number };
            if (json.entries && json.entries.length !== Math.max(0, Math.min(json.limit!, json.total! - json.offset!))) truncated.push(`${c.method} ${c.path}: ${json.entries.length} entries`);
          } catch {
            truncated.push(`${c.method} ${c.path}: the body does not parse (${body.length} bytes)`);
          }
        }
        resolve();
      });
    });
    req.on('error', () => {
      if (!leave) truncated.push(`${c.method} ${c.path}: no answer`);
      resolve();
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    if (c.body) req.write(JSON.stringify(c.body));
    req.end();
  });
}

const endAt = Date.now() + minutes * 60_000;
const memory: { second: number; rssMiB: number; load: number }[] = [];
const started = Date.now();
const sampler = setInterval(() => {
  memory.push({ second: Math.round((Date.now() - started) / 1000), rssMiB: rssMiB(server.pid, 'VmRSS'), load: loadavg()[0]! });
  const last = memory.at(-1)!;
  log(`${last.second} s: RSS ${last.rssMiB} MiB, load ${last.load.toFixed(2)}, ${latencies.length} answers, ${truncated.length} truncated, ${memory503 + other5xx} 5xx`);
}, 10_000);

async function client(id: number): Promise<void> {
  const r = new Random(id + 1);
  while (Date.now() < endAt) {
    const c = call(r);
    await perform(c, c.heavy && r.chance(0.05), false);
  }
}

/** A client that asks for big pages and leaves each after a few bytes: what its query held must not outlive it. */
async function leaver(): Promise<void> {
  const three = [ALL[0], ALL[3], ALL[4]].join(',');
  const cuts = [1, 2048, 50_000, 1_000_000];
  for (let round = 0; Date.now() < endAt; round++) {
    const path = round % 5 === 4 ? `/v3/events?datasets=${ALL[0]}&limit=99999&offset=1000` : `/v3/events?datasets=${three}&limit=99999&offset=0`;
    await perform({ method: 'GET', path, heavy: true }, cuts[round % cuts.length]!, false);
  }
}

async function bursts(): Promise<void> {
  const r = new Random(999);
  while (Date.now() + burstEvery < endAt) {
    await new Promise((resolve) => setTimeout(resolve, burstEvery));
    log(`burst of ${burstSize}`);
    await Promise.all(Array.from({ length: burstSize }, () => {
      let c = call(r);
      while (!c.heavy) c = call(r);
      return perform(c, false, true);
    }));
  }
}

try {
  await Promise.all([...Array.from({ length: clients }, (_, i) => client(i)), leaver(), bursts()]);
  clearInterval(sampler);
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
  const warm = memory.filter((m) => m.second >= 60);
  const half = Math.floor(warm.length / 2);
  const result = {
    date: new Date().toISOString(), minutes, clients, events: Number(args.events), burst: burstSize, burstEverySeconds: burstEvery / 1000,
    answers: latencies.length, statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    p50ms: at(50), p99ms: at(99), leftMidPage: left, truncated200: truncated.length, firstTruncated: truncated.slice(0, 20),
    queryTimeoutMs: Number(args['query-timeout']), burst503, timeout504, memory503, other5xx, firstFailures,
    rssMiB: { afterWarmUp: warm[0]?.rssMiB, maxFirstHalf: Math.max(...warm.slice(0, half).map((m) => m.rssMiB)), maxSecondHalf: Math.max(...warm.slice(half).map((m) => m.rssMiB)), peak: rssMiB(server.pid, 'VmHWM') },
    loadAverage: { min: Math.min(...memory.map((m) => m.load)), max: Math.max(...memory.map((m) => m.load)) },
    memory,
  };
  console.log(JSON.stringify({ ...result, memory: `${memory.length} samples` }, null, 2));
  const out = join(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${result.date.slice(0, 10)}-soak-${minutes}min.json`), `${JSON.stringify(result, null, 2)}\n`);
  if (truncated.length > 0 || memory503 > 0 || other5xx > 0) process.exitCode = 1;
} finally {
  clearInterval(sampler);
  server.stop();
}

