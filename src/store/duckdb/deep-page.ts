// A page far into a list. Sorting every matching row with all its columns to skip the first
// `offset` of them costs a full-width sort; instead the page is found on the sort keys alone
// (id and version), then only its rows are read, and put back in the page's order.
import type { DuckDBConnection } from '@duckdb/node-api';
import { convertedSlices, nextTurn, SLICE_ROWS } from './slices.ts';
import type { EventRecord } from '../../data/record.ts';
import type { ListQuery } from '../../query/types.ts';
import { compileSearch } from './compile.ts';
import { toRecord } from './columns.ts';

/** From this offset on a page is read in two steps; before it the one-step read is as fast. */
export const DEEP_OFFSET = 1000;

/**
 * Rows of a deep page read per query, so its memory stays bounded whatever the limit (all 99,999 at
 * once held 1.66 GB in Node). Each batch is one more pass over the id column, so batches are large.
 */
const DEEP_BATCH = 10_000;

/**
 * Finds the page on the sort keys (the costly step, run before the response starts), and returns
 * its rows in batches, in the page's order.
 */
export async function deepPageKeys(connection: DuckDBConnection, query: ListQuery): Promise<[number, string][]> {
  const keys = compileSearch(query, 'version_id, id');
  return (await connection.runAndReadAll(keys.sql, keys.params)).getRowsJS() as [number, string][];
}

export async function* deepPageRows(connection: DuckDBConnection, page: [number, string][], select: string, batchRows = DEEP_BATCH): AsyncGenerator<EventRecord[]> {
  for (let start = 0; start < page.length; start += batchRows) {
    const batch = page.slice(start, start + batchRows);
    const ids = [...new Set(batch.map(([, id]) => id))];
    const result = await connection.stream(`SELECT version_id, ${select} FROM events WHERE id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`, ids);
    const byKey = new Map<string, unknown[]>();
    for await (const rows of convertedSlices(result)) for (const r of rows) byKey.set(`${r[0]}|${r[1]}`, r);
    // Back in the page's order, a slice at a time like every page.
    for (let from = 0; from < batch.length; from += SLICE_ROWS) {
      if (from > 0) await nextTurn();
      yield batch.slice(from, from + SLICE_ROWS).map(([version, id]) => toRecord(byKey.get(`${version}|${id}`)!.slice(1)));
    }
  }
}
