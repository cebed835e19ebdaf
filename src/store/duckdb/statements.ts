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
import { chunkRead } from './chunk-memory.ts';

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
  const rows = (await (await bound(c, sql, params)).runAndReadAll()).getRowsJS();
  // Any statement ends the connection's earlier result.
  unread.delete(c);
  return rows;
}

/**
 * Connections whose last streamed result was not read to its end. DuckDB frees a query's state
 * when its result is read to the end, when the connection starts another statement, or when the
 * garbage collector destroys the result, whichever comes first: the sort behind a page of 99,999
 * entries over three datasets of a 200,000-event demo held 222 MB (duckdb_memory()'s ORDER_BY) on
 * a connection whose reader had left, until that connection ran again. Two or three such
 * connections under a 512 MB limit made the next heavy query fail with "Out of Memory".
 */
const unread = new WeakSet<DuckDBConnection>();

/** A statement's result as a stream of chunks (a page of entries). */
export async function streamRows(c: DuckDBConnection, sql: string, params: readonly DuckDBValue[]): Promise<DuckDBResult> {
  const result = await (await bound(c, sql, params)).stream();
  unread.add(c);
  const fetchChunk = result.fetchChunk.bind(result);
  result.fetchChunk = async () => {
    const chunk = await fetchChunk();
    if (!chunk || chunk.rowCount === 0) unread.delete(c);
    else chunkRead();
    return chunk;
  };
  return result;
}

/** Whether the connection may still hold a result's state (see `unread`). */
export function holdsUnreadResult(c: DuckDBConnection): boolean {
  return unread.has(c);
}

/** Ends the connection's unread result, freeing what its query held, with the cheapest statement. */
export async function endUnreadResult(c: DuckDBConnection): Promise<void> {
  await readRows(c, 'SELECT 1', []);
}
