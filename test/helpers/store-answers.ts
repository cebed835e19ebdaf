// A list query's total and page ids from the DuckDB store, and from the events table in plain SQL
// (the way every query was read before the tables sorted by place and by region): the store's
// differential tests compare the two.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { ListQuery } from '../../src/query/types.ts';
import type { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import { compileRows, compileSearch } from '../../src/store/duckdb/compile.ts';

export interface Answer {
  total: number;
  ids: string[];
}

/** The store's answer as the list route asks for it (listPage: a region's page may be found while it is counted). */
export async function storeAnswer(store: DuckDbStore, query: ListQuery): Promise<Answer> {
  const { total, page } = await store.listPage(query);
  return { total, ids: page ? await idsOf(page) : [] };
}

/** The store's answer with its total counted first and handed to the page. */
export async function countedThenSearched(store: DuckDbStore, query: ListQuery): Promise<Answer> {
  const total = await store.count(query);
  return { total, ids: await idsOf(await store.search(query, total)) };
}

async function idsOf(page: AsyncIterable<string[]>): Promise<string[]> {
  const ids: string[] = [];
  for await (const chunk of page) ids.push(...chunk.map((text) => (JSON.parse(text) as { id: string }).id));
  return ids;
}

/** The same query on events, in SQL. */
export async function eventsAnswer(c: DuckDBConnection, query: ListQuery): Promise<Answer> {
  const rows = compileRows(query);
  const page = compileSearch(query, 'id');
  return {
    total: Number((await c.runAndReadAll(`SELECT count(*) ${rows.sql}`, rows.params as never)).getRowsJS()[0]![0]),
    ids: (await c.runAndReadAll(page.sql, page.params as never)).getRowsJS().map((x) => x[0] as string),
  };
}

/** A writable connection to a database file (the loader's files are read through `readOnly`). */
export async function writing(path: string, work: (c: DuckDBConnection) => Promise<void>): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const c = await instance.connect();
  try {
    await work(c);
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}
