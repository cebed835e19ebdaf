// Statements prepared once per connection and reused. A query with parameters through
// `connection.runAndReadAll` is extracted, prepared, run and read: four trips to the thread pool,
// two of them to parse and plan the same text again. Keeping the prepared statement made the
// lookup by id about a quarter faster over HTTP (docs/performance.md).
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBValue } from '@duckdb/node-api';

/** Statements kept per connection; the least recently used beyond this are destroyed. */
const KEPT = 32;
const statements = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

async function preparedOn(c: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  let kept = statements.get(c);
  if (!kept) statements.set(c, (kept = new Map()));
  let statement = kept.get(sql);
  if (statement) {
    // Most recently used last.
    kept.delete(sql);
  } else {
    statement = await c.prepare(sql);
    if (kept.size >= KEPT) {
      const [oldest, dropped] = kept.entries().next().value!;
      kept.delete(oldest);
      dropped.destroySync();
    }
  }
  kept.set(sql, statement);
  return statement;
}

/** Every row of a statement with its parameters, as JS values. */
export async function readRows(c: DuckDBConnection, sql: string, params: readonly DuckDBValue[]): Promise<unknown[][]> {
  const statement = await preparedOn(c, sql);
  statement.bind([...params]);
  return (await statement.runAndReadAll()).getRowsJS();
}
