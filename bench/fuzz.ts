// npm run fuzz -- [--requests N] [--events E] [--concurrency C] [--seed S]
// Random and hostile requests (test/helpers/hostile-requests.ts) on every route of the real server,
// over real HTTP, while a prober asks /healthz every 200 ms. Reports every 5xx (with its request),
// every error body not JSON in our shape, every leak of a stack trace, source path or SQL, every
// answer slower than 10 s, and the slowest /healthz. Exits 1 if any was found. Writes
// bench/results/<date>-fuzz-<N>.json.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { check, hostileRequest, type HostileRequest } from '../test/helpers/hostile-requests.ts';
import { demoDatabase, log, rssMiB, startServer } from './server.ts';

const { values: args } = parseArgs({ options: { requests: { type: 'string', default: '10000' }, events: { type: 'string', default: '200000' }, concurrency: { type: 'string', default: '8' }, seed: { type: 'string', default: '1' } } });
const total = Number(args.requests);
const concurrency = Number(args.concurrency);
const seed = Number(args.seed);
const SLOW_MS = 10_000;

const dbPath = demoDatabase(Number(args.events), 1);
const server = await startServer(dbPath, 'fuzz', ['--rate-limit', '0']);
const { hostname, port } = new URL(server.base);

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  ms: number;
}

// What a client must do to send a path at all: bytes outside printable ASCII percent-encoded.
const sendable = (path: string) => path.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c).replace(/%25/g, '%'));

function send(req: HostileRequest): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port, method: req.method, path: sendable(req.path), headers: req.headers, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        let body: string;
        try {
          body = (encoding === 'gzip' ? gunzipSync(raw) : encoding === 'br' ? brotliDecompressSync(raw) : raw).toString('utf8');
        } catch {
          body = `<undecodable ${encoding} body>`;
        }
        resolve({ status: res.statusCode!, headers: res.headers, body, ms: performance.now() - started });
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 60 s')));
    outgoing.on('error', reject);
    if (req.body !== undefined) outgoing.write(req.body);
    outgoing.end();
  });
}

// The prober: /healthz every 200 ms from its own connection, after one call to warm it up. It runs
// in a thread of its own: on this process's event loop, its timings would include the time the
// fuzzer spends decompressing and checking large answers, which is not the server's.
const PROBER = `
  const { parentPort, workerData } = require('node:worker_threads');
  const health = { count: 0, over100: 0, maxMs: 0, failures: 0 };
  let probing = true;
  parentPort.on('message', () => { probing = false; });
  (async () => {
    await (await fetch(workerData.url)).text();
    while (probing) {
      const t0 = performance.now();
      try {
        const res = await fetch(workerData.url, { signal: AbortSignal.timeout(30000) });
        await res.text();
        if (res.status !== 200) health.failures++;
      } catch {
        health.failures++;
      }
      const ms = performance.now() - t0;
      health.count++;
      health.maxMs = Math.max(health.maxMs, ms);
      if (ms > 100) health.over100++;
      parentPort.postMessage({ ...health, final: false });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    parentPort.postMessage({ ...health, final: true });
  })();
`;
const health = { count: 0, over100: 0, maxMs: 0, failures: 0 };
const proberThread = new Worker(PROBER, { eval: true, workerData: { url: `${server.base}/healthz` } });
const prober = new Promise<void>((resolve) => {
  proberThread.on('message', (m: typeof health & { final: boolean }) => {
    Object.assign(health, { count: m.count, over100: m.over100, maxMs: m.maxMs, failures: m.failures });
    if (m.final) void proberThread.terminate().then(() => resolve());
  });
});

const statuses = new Map<number, number>();
const problems: { request: string; problem: string }[] = [];
let problemCount = 0;
let slow = 0;
let next = 0;
let done = 0;
const started = Date.now();
const load: number[] = [];
const peakRss = { mib: 0 };

function report(request: string, problem: string): void {
  problemCount++;
  if (problems.length < 50) problems.push({ request, problem });
  log(`PROBLEM ${problem}: ${request}`);
}

async function worker(): Promise<void> {
  for (let i = next++; i < total; i = next++) {
    const req = hostileRequest(seed * 1_000_003 + i, server.secret);
    const describe = () => `#${i} ${req.method} ${req.path.slice(0, 300)}${req.body ? ` body ${req.body.slice(0, 300)}` : ''}`;
    try {
      const res = await send(req);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const verdict = req.method === 'HEAD' ? { ok: res.status < 500, problem: `HEAD ${res.status}` } : check(res.status, res.headers['content-type'], res.body);
      const problem = !verdict.ok ? verdict.problem! : res.ms > SLOW_MS ? `answered in ${Math.round(res.ms)} ms` : undefined;
      if (res.ms > SLOW_MS) slow++;
      if (problem) report(describe(), problem);
    } catch (e) {
      report(describe(), `no answer: ${(e as Error).message}`);
    }
    if (++done % 1000 === 0) {
      load.push(loadavg()[0]!);
      peakRss.mib = Math.max(peakRss.mib, rssMiB(server.pid, 'VmRSS'));
      log(`${done}/${total} requests, ${problemCount} problems, ${Math.round(done / ((Date.now() - started) / 1000))} req/s, healthz max ${Math.round(health.maxMs)} ms`);
    }
  }
}

try {
  await Promise.all(Array.from({ length: concurrency }, worker));
  proberThread.postMessage('stop');
  await prober;
  const seconds = (Date.now() - started) / 1000;
  // The server's own account of its event loop: a slow probe while the loop ran on time waited
  // elsewhere (for a core, in the fuzzer's process).
  const serverLoop = ((await (await fetch(`${server.base}/healthz`)).json()) as { eventLoop: { delayMaxMs: number; delayP99Ms: number } }).eventLoop;
  const result = {
    date: new Date().toISOString(),
    requests: total, events: Number(args.events), concurrency, seed, seconds: Math.round(seconds),
    statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    server5xx: [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0),
    problems: problemCount, slowOver10s: slow, firstProblems: problems,
    healthz: { probes: health.count, maxMs: Math.round(health.maxMs), over100ms: health.over100, failures: health.failures, serverEventLoopDelayMaxMs: serverLoop.delayMaxMs, serverEventLoopDelayP99Ms: serverLoop.delayP99Ms },
    serverPeakRssMiB: Math.max(peakRss.mib, rssMiB(server.pid, 'VmHWM')),
    loadAverage: { min: Math.min(...load), max: Math.max(...load) },
  };
  console.log(JSON.stringify(result, null, 2));
  const out = join(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${result.date.slice(0, 10)}-fuzz-${total}.json`), `${JSON.stringify(result, null, 2)}\n`);
  if (problemCount > 0 || health.failures > 0) process.exitCode = 1;
} finally {
  server.stop();
}
