import { DuckDBInstance } from '@duckdb/node-api';
const i = await DuckDBInstance.create('bench/cache/events-1000000-seed1.duckdb', { access_mode: 'READ_ONLY' }); const c = await i.connect();
const vessels = (await c.runAndReadAll(`SELECT vessel_id FROM events USING SAMPLE 30 ROWS`)).getRowsJS().map((r) => r[0] as string);
const timeit = async (label: string, xs: string[], f: (x: string) => Promise<unknown>) => { await f(xs[0]!); const t = performance.now(); for (const x of xs) await f(x); console.log(label, ((performance.now() - t) / xs.length).toFixed(2), 'ms'); };
for (const cols of ['rowid', 'entry_gfw', 'id, version_id, start_ts, end_ts, entry_gfw', 'eez', 'fishing', 'vessel_authorizations', 'entry_spec', '*']) {
  await timeit(cols, vessels, async (v) => c.runAndReadAll(`SELECT ${cols} FROM events WHERE vessel_id = $1`, [v]));
}
await timeit('ORDER LIMIT on narrow', vessels, async (v) => c.runAndReadAll(`SELECT entry_gfw FROM events WHERE vessel_id = $1 ORDER BY start_ts DESC LIMIT 100`, [v]));
await timeit('where on outer, narrow', vessels, async (v) => c.runAndReadAll(`SELECT entry_gfw FROM (SELECT id, version_id, start_ts, end_ts, entry_gfw FROM events WHERE vessel_id = $1 LIMIT 1e18::BIGINT) WHERE version_id IN (1,2,3,4,5) AND start_ts < TIMESTAMP '2025-01-01' ORDER BY start_ts DESC LIMIT 100`, [v]));
