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

/** A page with no entries. */
export async function* nothing(): AsyncGenerator<string[]> {}

/** Entries of a descending page read per query, each batch then reversed. */
const BACKWARD_BATCH = 2048;

/**
 * Where a page begins when another table has found it (region-table.ts): no row of the page
 * starts before `startUs`, and `before` of the query's rows do.
 */
export interface PageStart {
  startUs: number;
  before: number;
}

/**
 * The page's entries in chunks. `total` (the query's count) places a -start page: its entries are
 * the ascending list's [total - offset - limit, total - offset), read from the end. With `from`,
 * the rows before its start are neither read nor counted: the page's place is shifted by them.
 */
export async function storedOrderPage(c: DuckDBConnection, query: ListQuery, total: number, from?: PageStart): Promise<AsyncIterable<string[]>> {
  const descending = query.sort === '-start';
  const skipped = from?.before ?? 0;
  const end = (descending ? total - query.offset : query.offset + query.limit) - skipped;
  const start = descending ? Math.max(0, end - query.limit) : query.offset - skipped;
  if (start < 0) throw new Error(`a page at offset ${query.offset} cannot begin after ${skipped} rows`);
  if (end <= start) return nothing();
  // The start is an integer this code read from the database: written into the text.
  const rows = compileRows(query, from ? { from: 'events', after: `start_ts >= make_timestamp(${BigInt(Math.round(from.startUs))})` } : undefined);
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
