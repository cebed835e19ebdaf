// The service's own cost over the PostgreSQL engine's bare SQL for lookups by random id, the two in
// turns (docs/performance.md): node --import tsx bench/http-overhead.ts (needs the 1M benchmark databases).
import { DuckDBInstance } from '@duckdb/node-api';
import { startServer } from './server.ts';
import { postgresDemoDatabase } from './postgres-engine.ts';
import { openStores } from '../src/store/engines.ts';
import { normalizeSingleDataset } from '../src/query/normalize.ts';
const i = await DuckDBInstance.create('bench/cache/events-1000000-seed1.duckdb', { access_mode: 'READ_ONLY' });
const ids = (await (await i.connect()).runAndReadAll(`SELECT id FROM events WHERE kind='fishing' USING SAMPLE 400 ROWS`)).getRowsJS().map((r) => r[0] as string);
const served = await postgresDemoDatabase(1000000, 1);
const db = served.database as { engine: 'postgres'; url: string };
const { base, secret, stop } = await startServer(['--engine', 'postgres', '--database-url', db.url], 'exp', ['--query-timeout', '0', '--rate-limit', '0']);
const stores = await openStores(db, {}, undefined, false);
const store = stores.current();
const h = { authorization: `Bearer ${secret}` };
const s: number[] = [], e: number[] = [];
for (let k = 0; k < 200; k++) {
  let t0 = performance.now(); const r = await fetch(`${base}/v3/events/${ids[2 * k]}?dataset=public-global-fishing-events:latest`, { headers: h }); await r.text(); s.push(performance.now() - t0);
  t0 = performance.now(); await store.getEntry(normalizeSingleDataset('public-global-fishing-events:latest', { catalog: store, access: { canRead: () => true } } as never), ids[2 * k + 1]!); e.push(performance.now() - t0);
}
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!.toFixed(2);
console.log('service', p50(s), 'engine', p50(e));
await stores.close(); stop(); served.stop();
