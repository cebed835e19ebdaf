// A page far into a list. Sorting every matching row with all its columns to skip the first
// `offset` of them costs a full-width sort; instead the page is found on the sort keys alone
// (id and version), then only its rows are read, and put back in the page's order.
import { JSDuckDBValueConverter, type DuckDBConnection } from '@duckdb/node-api';
import type { EventRecord } from '../../data/record.ts';
import type { ListQuery } from '../../query/types.ts';
import { compileSearch } from './compile.ts';
import { toRecord } from './columns.ts';

/** From this offset on a page is read in two steps; before it the one-step read is as fast. */
export const DEEP_OFFSET = 1000;

export async function deepPage(connection: DuckDBConnection, query: ListQuery, select: string): Promise<EventRecord[]> {
  const keys = compileSearch(query, 'version_id, id');
  const page = (await connection.runAndReadAll(keys.sql, keys.params)).getRowsJS() as [number, string][];
  if (page.length === 0) return [];
  const ids = [...new Set(page.map(([, id]) => id))];
  const rows = (await connection.runAndReadAll(
    `SELECT version_id, ${select} FROM events WHERE id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`,
    ids,
  )).convertRows(JSDuckDBValueConverter) as unknown[][];
  const byKey = new Map(rows.map((r) => [`${r[0]}|${r[1]}`, r]));
  return page.map(([version, id]) => toRecord(byKey.get(`${version}|${id}`)!.slice(1)));
}
