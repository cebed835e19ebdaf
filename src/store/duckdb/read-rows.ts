// One way to read a statement's rows. Statements were once kept prepared per connection (an LRU
// of 32) to save parsing and planning; measured over HTTP on 10M events, the lookup by id did not
// get faster (p50 9.1-9.6 ms kept, 9.1-10.1 ms not; `npm run bench -- --db
// bench/cache/loaded-10000000-seed1.duckdb --only "by id" --samples 60`, interleaved, load 2.3-2.5,
// 2026-11-23), so they are not kept.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';

/** Every row of a statement with its parameters, as JS values. */
export async function readRows(c: DuckDBConnection, sql: string, params: readonly DuckDBValue[]): Promise<unknown[][]> {
  return (await c.runAndReadAll(sql, [...params])).getRowsJS();
}
