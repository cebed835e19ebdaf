// What gzip costs a page of 100 entries on the PostgreSQL engine, against the same request uncompressed,
// the two in turns (docs/performance.md): node --import tsx bench/gzip-cost.ts (needs the 1M benchmark databases).
import { startServer } from './server.ts';
import { postgresDemoDatabase } from './postgres-engine.ts';
const served = await postgresDemoDatabase(1000000, 1);
const db = served.database as { url: string };
const { base, secret, stop } = await startServer(['--engine', 'postgres', '--database-url', db.url], 'exp', ['--query-timeout', '0', '--rate-limit', '0']);
const body = (y: number) => JSON.stringify({ datasets: ['public-global-encounters-events:latest'], encounterTypes: ['CARRIER-FISHING', 'FISHING-CARRIER'], startDate: `${y}-01-01`, endDate: `${y + 1}-01-01` });
const s: Record<string, number[]> = { gzip: [], identity: [] };
for (let k = 0; k < 160; k++) {
  const enc = k % 2 ? 'gzip' : 'identity';
  const t0 = performance.now();
  const r = await fetch(`${base}/v3/events?limit=100&offset=0`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'accept-encoding': enc }, body: body(2017 + (k % 8)) });
  await r.arrayBuffer(); s[enc]!.push(performance.now() - t0);
}
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!.toFixed(2);
console.log('gzip', p50(s.gzip!), 'identity', p50(s.identity!));
stop(); served.stop();
