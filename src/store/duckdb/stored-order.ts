// Pages read in the order rows are stored (docs/performance.md). Events are stored sorted by
// (version, start, id), so for one dataset version the matching rows in storage order are the list
// sorted by +start, and backwards by -start: no sort is needed, and a page far into the list costs
// no more than the first. The page is found on the filter columns alone (the row ids of its first
// and last entries), then only its entries are read, between those row ids.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { compileRows } from './compile.ts';
import { SqlBuilder } from '../sql.ts';
import { typedParam } from './render-plan.ts';
import { readRows, streamRows } from './statements.ts';
import { ENTRY_BYTES_SQL, entryChunks, nextTurn, readEntryBytesReversed } from './entry-stream.ts';
import type { EntryChunk } from '../entry-bytes.ts';

/** Whether storage order answers the query: a list of one dataset version, sorted by start. */
export function inStoredOrder(query: EventQuery | ListQuery): boolean {
  return 'sort' in query && query.datasets.length === 1 && (query.sort === '+start' || query.sort === '-start');
}

/** The earliest and latest start (µs) of a version's events. */
export interface StartRange {
  firstUs: number;
  lastUs: number;
}

/**
 * A version's range of starts, read on the first -start page that needs it (the store keeps it):
 * read for every version when the database was opened, it took 185 ms of the 10M file's start-up.
 */
export async function readStartRange(c: DuckDBConnection, versionId: number): Promise<StartRange> {
  const b = new SqlBuilder<DuckDBValue>();
  const sql = `SELECT epoch_us(min(start_ts))::DOUBLE, epoch_us(max(start_ts))::DOUBLE FROM events WHERE version_id = ${typedParam(b, 'version_id', versionId)}`;
  const [firstUs, lastUs] = (await readRows(c, sql, b.params))[0] as [number | null, number | null];
  return { firstUs: firstUs ?? 0, lastUs: lastUs ?? 0 };
}

/** Probes of the list's end before the page is read from its beginning, as without them. */
const MAX_PROBES = 5;

/**
 * Where a -start page near the end of a long list begins. Storage order is ascending, so such a
 * page was found by reading the whole list up to it (30 ms for the newest 50,000 of the 7.4M
 * fishing events). Instead, a start is guessed from the version's range of starts, as far back as
 * the page would reach if events were spread evenly, and the rows from it on are counted (the zone
 * maps read the list's end alone); a guess that holds too few rows reaches four times further back.
 * Undefined when the page is not in the list's second half, or no guess held it.
 */
export async function startFromEnd(c: DuckDBConnection, query: ListQuery, total: number, rangeOf: () => Promise<StartRange>): Promise<PageStart | undefined> {
  const needed = query.offset + query.limit;
  if (query.sort !== '-start' || needed * 2 > total) return undefined;
  const range = await rangeOf();
  const rows = compileRows(query);
  let span = ((range.lastUs - range.firstUs) * needed * 1.5) / total + 1e6;
  for (let probe = 0; probe < MAX_PROBES; probe++, span *= 4) {
    const startUs = Math.floor(range.lastUs - span);
    if (startUs <= range.firstUs) return undefined;
    const n = rows.params.length;
    const later = (await readRows(c, `SELECT count(*)::DOUBLE ${rows.sql} AND start_ts >= make_timestamp($${n + 1}::BIGINT)`, [...rows.params, BigInt(startUs)]))[0]![0] as number;
    if (later >= needed) return { startUs, before: total - later };
  }
  return undefined;
}

/** A page with no entries. */
export async function* nothing(): AsyncGenerator<EntryChunk> {}

/** Entries of a descending page read per query, each batch then reversed. */
const BACKWARD_BATCH = 2048;

/**
 * Where a page begins when another table has found it (region-table.ts): no row of the page
 * starts before `startUs`, and `before` of the query's rows do.
 */
export interface PageStart {
  startUs: number;
  before: number;
  /**
   * The start (µs) of an ascending page's last row, when the caller knows it (region_events reads
   * it with the first): the page is then read in one pass, its window of starts bounded at both ends.
   */
  lastUs?: number;
}

/**
 * The page's entries in chunks. `total` (the query's count) places a -start page: its entries are
 * the ascending list's [total - offset - limit, total - offset), read from the end. With `from`,
 * the rows before its start are neither read nor counted: the page's place is shifted by them.
 */
export async function storedOrderPage(c: DuckDBConnection, query: ListQuery, total: number, from?: PageStart): Promise<AsyncIterable<EntryChunk>> {
  const descending = query.sort === '-start';
  const skipped = from?.before ?? 0;
  const end = (descending ? total - query.offset : query.offset + query.limit) - skipped;
  const start = descending ? Math.max(0, end - query.limit) : query.offset - skipped;
  if (start < 0) throw new Error(`a page at offset ${query.offset} cannot begin after ${skipped} rows`);
  if (end <= start) return nothing();
  // The page's first start is bound like every other value, so that every page of a list's shape
  // is one statement, kept prepared (statements.ts).
  const listed = compileRows(query);
  const rows = from
    ? { sql: `${listed.sql} AND start_ts >= make_timestamp($${listed.params.length + 1}::BIGINT)`, params: [...listed.params, BigInt(Math.round(from.startUs))] }
    : listed;
  const n = rows.params.length;
  const pageRows = `${rows.sql} LIMIT $${n + 1} OFFSET $${n + 2}`;
  const pageParams = [...rows.params, end - start, start];
  // DuckDB does not skip row groups on a rowid range, and read every row's id (16 ms on 10M
  // events); the starts of the first and last rows let the zone maps find their row groups.
  const between = `SELECT ${ENTRY_BYTES_SQL} ${rows.sql} AND start_ts BETWEEN make_timestamp($${n + 1}::BIGINT) AND make_timestamp($${n + 2}::BIGINT) AND rowid BETWEEN $${n + 3} AND $${n + 4}`;
  const bounds = (firstRow: bigint, lastRow: bigint, firstUs: number, lastUs: number) => [...rows.params, BigInt(firstUs), BigInt(lastUs), firstRow, lastRow];
  if (!descending && from?.lastUs !== undefined) {
    // Both ends of the window known: the page's rows in storage order, the rows at its first start
    // that come before it skipped. Finding the first and last rows first (below) read the window
    // twice: 1.6-2.3 ms more for one EEZ and flag on 10M events.
    const sql = `SELECT ${ENTRY_BYTES_SQL} ${rows.sql} AND start_ts <= make_timestamp($${n + 3}::BIGINT) LIMIT $${n + 1} OFFSET $${n + 2}`;
    return entryChunks(await streamRows(c, sql, [...pageParams, BigInt(Math.round(from.lastUs))]));
  }
  if (!descending) {
    // The page's first and last rows are all an ascending page needs: DuckDB finds them (3.4 ms
    // for the 10M file's first 99,999 fishing events) rather than hand every row over (118 ms).
    const sql = `SELECT min(rowid), max(rowid), epoch_us(min(start_ts))::DOUBLE, epoch_us(max(start_ts))::DOUBLE FROM (SELECT rowid, start_ts ${pageRows})`;
    const [firstRow, lastRow, firstUs, lastUs] = (await readRows(c, sql, pageParams))[0] as [bigint | null, bigint | null, number, number];
    return firstRow === null || lastRow === null ? nothing() : entryChunks(await streamRows(c, between, bounds(firstRow, lastRow, firstUs, lastUs)));
  }
  // A descending page is read in batches from its end, so it needs every row's place.
  const found = (await readRows(c, `SELECT rowid, epoch_us(start_ts)::DOUBLE ${pageRows}`, pageParams)) as [bigint, number][];
  if (found.length === 0) return nothing();
  return (async function* backwards() {
    for (let upper = found.length; upper > 0; upper -= BACKWARD_BATCH) {
      if (upper < found.length) await nextTurn();
      const lower = Math.max(0, upper - BACKWARD_BATCH);
      yield await readEntryBytesReversed(await streamRows(c, between, bounds(found[lower]![0], found[upper - 1]![0], found[lower]![1], found[upper - 1]![1])));
    }
  })();
}
