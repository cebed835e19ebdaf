// The statements a query runs, kept prepared on each connection. Preparing one (extracting,
// parsing, binding and planning it) is a fixed cost paid again for every request: on 10M events,
// a region's count with its page's starts took 4.72 ms p50 prepared each time and 4.07 re-bound,
// its page of entries 5.09 and 4.82, with the same answers (`.exp/regprep.mts`, both ways in
// alternating order, 2026-11-26, load 2.0; docs/performance.md, "Statements kept prepared"); a
// region list over HTTP 19.1 -> 17.7 ms. An earlier LRU like this one was dropped
// on 2026-11-23 for want of a measured gain: the lookup by id, then a DuckDB statement of about
// 9 ms measured under load 2.3-2.5, showed none (it now reads point files, not DuckDB).
//
// Values are bound on every run; DuckDB prunes on bound values as on literals (a day of one
// version's events: 2.0 ms either way, `.exp/prune.mts`), so a statement's text should hold
// placeholders, not values, to be prepared once. A connection runs one statement at a time
// (pool.ts), so a statement is never re-bound while another run of it is read.
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBResult, DuckDBValue } from '@duckdb/node-api';

/** Statements kept per connection, the least recently used dropped first. */
const KEPT_PER_CONNECTION = 48;

const kept = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

async function preparedOn(c: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  let statements = kept.get(c);
  if (!statements) kept.set(c, (statements = new Map()));
  const known = statements.get(sql);
  if (known) {
    statements.delete(sql);
    statements.set(sql, known);
    return known;
  }
  const statement = await c.prepare(sql);
  statements.set(sql, statement);
  if (statements.size > KEPT_PER_CONNECTION) {
    const [oldest, dropped] = statements.entries().next().value!;
    statements.delete(oldest);
    dropped.destroySync();
  }
  return statement;
}

async function bound(c: DuckDBConnection, sql: string, params: readonly DuckDBValue[]): Promise<DuckDBPreparedStatement> {
  const statement = await preparedOn(c, sql);
  // Cleared first: a run given fewer values than the statement has placeholders fails rather than
  // take the missing ones from the run before.
  statement.clearBindings();
  statement.bind([...params]);
  return statement;
}

/** Every row of a statement with its parameters, as JS values. */
export async function readRows(c: DuckDBConnection, sql: string, params: readonly DuckDBValue[]): Promise<unknown[][]> {
  return (await (await bound(c, sql, params)).runAndReadAll()).getRowsJS();
}

/** A statement's result as a stream of chunks (a page of entries). */
export async function streamRows(c: DuckDBConnection, sql: string, params: readonly DuckDBValue[]): Promise<DuckDBResult> {
  return (await bound(c, sql, params)).stream();
}
