// Pages read in the order rows are stored (docs/performance.md). Events are stored sorted by
// (version, start, id), so for one dataset version the matching rows in storage order are the list
// sorted by +start, and backwards by -start: no sort is needed, and a page far into the list costs
// no more than the first. The page is found on the filter columns alone (the row ids of its first
// and last entries), then only its entries are read, between those row ids.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ListQuery } from '../../query/types.ts';
import { compileRows } from './compile.ts';
import { readRows } from './read-rows.ts';
import { nextTurn, textChunks } from './slices.ts';

/** Whether storage order answers the query: one dataset version, sorted by start. */
export function inStoredOrder(query: ListQuery): boolean {
  return query.datasets.length === 1 && (query.sort === '+start' || query.sort === '-start');
}

async function* nothing(): AsyncGenerator<string[]> {}

/** Entries of a descending page read per query, each batch then reversed. */
const BACKWARD_BATCH = 2048;

/**
 * The page's entries in chunks. `total` (the query's count) places a -start page: its entries are
 * the ascending list's [total - offset - limit, total - offset), read from the end.
 */
export async function storedOrderPage(c: DuckDBConnection, query: ListQuery, total: number): Promise<AsyncIterable<string[]>> {
  const descending = query.sort === '-start';
  const end = descending ? total - query.offset : query.offset + query.limit;
  const start = descending ? Math.max(0, end - query.limit) : query.offset;
  if (end <= start) return nothing();
  const rows = compileRows(query);
  const n = rows.params.length;
  const rowIds = (await readRows(c, `SELECT rowid ${rows.sql} LIMIT $${n + 1} OFFSET $${n + 2}`, [...rows.params, end - start, start])).map((r) => r[0] as bigint);
  if (rowIds.length === 0) return nothing();
  const between = `SELECT entry ${rows.sql} AND rowid BETWEEN $${n + 1} AND $${n + 2}`;
  if (!descending) return textChunks(await c.stream(between, [...rows.params, rowIds[0]!, rowIds[rowIds.length - 1]!]));
  return (async function* backwards() {
    for (let upper = rowIds.length; upper > 0; upper -= BACKWARD_BATCH) {
      if (upper < rowIds.length) await nextTurn();
      const lower = Math.max(0, upper - BACKWARD_BATCH);
      const batch = await readRows(c, between, [...rows.params, rowIds[lower]!, rowIds[upper - 1]!]);
      yield batch.map((r) => r[0] as string).reverse();
    }
  })();
}
