// A page sorted by the engine (any list that storage order does not answer: several dataset
// versions, or a sort by end) found on the sort columns alone, then its entries read by (version,
// id, start) as spatial pages are (entries-by-id.ts). Sorting the entries themselves carried
// about 1 KB a row through the sort: on the 10M catalogue a page of the five datasets at offset
// 50,000 took 17.3-19.5 s. Found on (start, id) the same sort took 0.55-0.8 s, and 22 ms within a
// window of starts that holds the page (docs/performance.md, "Sorted pages"); a sort by end has a
// window of ends.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ListQuery } from '../../query/types.ts';
import { ORDER_BY, SORT_KEYS } from '../sql.ts';
import type { EntryChunk } from '../entry-bytes.ts';
import { compileRows, type CompiledSql, type Source } from './compile.ts';
import { entriesOf, type EntrySources } from './entries-by-id.ts';
import { nextTurn } from './entry-stream.ts';
import { nothing, type StartRange } from './stored-order.ts';
import { readRows } from './statements.ts';

/**
 * Lists of at most this many rows are sorted with their entries in one statement. On the 10M
 * catalogue (2026-11-27, load 0.5-1.2), p50 of 7 in process, direct against
 * found then read: 2 datasets, 483 rows 14.1 / 12.6 ms, 972 rows 10.9 / 14.5; 5 datasets, 984 rows
 * 84.4 / 34.7, 8,032 rows 104.5 / 25.6; fishing of one flag by -end, 25,875 rows 62.3 / 23.1.
 */
export const SORTED_WITH_ENTRIES_MAX = 1_000;

/** Entries read per statement (entriesOf) and handed over per chunk. */
const ENTRY_BATCH = 4096;

/** Probes of each bound of a window; a bound that no probe found is left open. */
const MAX_PROBES = 5;

/**
 * One bound of a window on the sort column, as a condition on its rows: `op` the bound's time, or,
 * with `orOpen`, no end yet (open events sort after every end on +end and before on -end).
 */
interface Bound {
  op: '<' | '<=' | '>=';
  us: number;
  orOpen: boolean;
}

/**
 * A window on the sort column that holds the page: no row of the page lies outside its bounds, and
 * `before` of the list's rows come before the window in the list's order.
 */
export interface SortWindow {
  bounds: Bound[];
  before: number;
}

/** The query's rows with one more condition on the sort column, its time bound as a parameter. */
function within(rows: CompiledSql, column: string, bound: Bound): CompiledSql {
  const at = `${column} ${bound.op} make_timestamp($${rows.params.length + 1}::BIGINT)`;
  return { sql: `${rows.sql} AND ${bound.orOpen ? `(${at} OR ${column} IS NULL)` : at}`, params: [...rows.params, BigInt(Math.round(bound.us))] };
}

/** How many of a list's rows lie beyond a bound on its sort column. */
export type BoundCount = (bound: Bound) => Promise<number>;

/** A bound's count as a statement on the rows (`total`: an aggregate other than count(*), e.g. a sum of signs). */
export function countWithin(c: DuckDBConnection, rows: CompiledSql, column: string, total = 'count(*)'): BoundCount {
  return async (bound) => {
    const bounded = within(rows, column, bound);
    return (await readRows(c, `SELECT (${total})::DOUBLE ${bounded.sql}`, bounded.params))[0]![0] as number;
  };
}

/**
 * A window around a page of a list sorted by start or end. Its bounds are guessed from the range of
 * the versions' starts (an event's end is near its start) as if events were spread evenly, then
 * checked by counting the rows beyond them (events are stored sorted by version and start, so the
 * zone maps read mostly the rows counted): the far bound must leave the page's rows inside (a guess
 * too near is pushed four times further), the near one must leave out no more rows than the offset
 * (a guess too far is pulled four times nearer).
 */
export async function sortWindow(query: ListQuery, countOf: BoundCount, total: number, range: StartRange): Promise<SortWindow> {
  const { column, ascending, openFirst } = SORT_KEYS[query.sort];
  // Open events (no end) come last by +end: the window's near side holds them.
  const openLast = column === 'end_ts' && !openFirst;
  const needed = query.offset + query.limit;
  const span = Math.max(0, range.lastUs - range.firstUs);
  const rate = span / Math.max(1, total);
  // µs from the list's first time, in the list's order, to a time.
  const at = (fromFirst: number) => (ascending ? range.firstUs + fromFirst : range.lastUs - fromFirst);
  const window: SortWindow = { bounds: [], before: 0 };
  if (needed < total) {
    for (let probe = 0, reach = rate * needed * 1.5 + 1e6; probe < MAX_PROBES && reach < span; probe++, reach *= 4) {
      // The rows up to the bound, in the list's order.
      const bound: Bound = ascending ? { op: '<', us: at(reach), orOpen: false } : { op: '>=', us: at(reach), orOpen: openFirst };
      if ((await countOf(bound)) < needed) continue;
      window.bounds.push(bound);
      break;
    }
  }
  if (query.offset > query.limit) {
    for (let probe = 0, reach = rate * query.offset * 0.67; probe < MAX_PROBES && reach >= 1; probe++, reach /= 4) {
      // Whole microseconds, the columns' unit: after `us` is at or after `us + 1`.
      const us = Math.round(at(reach));
      // The rows before the bound, in the list's order, and the window's side of it.
      const skipped: Bound = ascending ? { op: '<', us, orOpen: false } : { op: '>=', us: us + 1, orOpen: openFirst };
      const before = await countOf(skipped);
      if (before > query.offset) continue;
      window.bounds.push(ascending ? { op: '>=', us, orOpen: openLast } : { op: '<=', us, orOpen: false });
      window.before = before;
      break;
    }
  }
  return window;
}

/**
 * The page's rows as (version, id, start in µs), in the list's order. From a source other than
 * events (layers.ts eventsFrom), the version is each row's `origin`, whose table holds its entry.
 */
async function pageRows(c: DuckDBConnection, query: ListQuery, total: number, range: () => Promise<StartRange>, source?: Source, count?: BoundCount): Promise<[number, string, number][]> {
  const listed = compileRows(query, source);
  const window = await sortWindow(query, count ?? countWithin(c, listed, SORT_KEYS[query.sort].column), total, await range());
  const rows = window.bounds.reduce((sql, bound) => within(sql, SORT_KEYS[query.sort].column, bound), listed);
  const n = rows.params.length;
  const sql = `SELECT ${source ? 'origin' : 'version_id'}::INTEGER, id, epoch_us(start_ts)::DOUBLE ${rows.sql} ORDER BY ${ORDER_BY[query.sort]} LIMIT $${n + 1} OFFSET $${n + 2}`;
  return (await readRows(c, sql, [...rows.params, query.limit, query.offset - window.before])) as [number, string, number][];
}

/**
 * The page's entries in chunks: its rows found first, their entries then read a batch at a time.
 * `range` gives the start range of the query's versions together.
 */
export async function sortedPage(c: DuckDBConnection, query: ListQuery, total: number, range: () => Promise<StartRange>, sources: EntrySources, source?: Source, count?: BoundCount): Promise<AsyncIterable<EntryChunk>> {
  const rows = await pageRows(c, query, total, range, source, count);
  if (rows.length === 0) return nothing();
  return (async function* batches() {
    for (let at = 0; at < rows.length; at += ENTRY_BATCH) {
      if (at > 0) await nextTurn();
      yield await entriesOf(c, rows.slice(at, at + ENTRY_BATCH), sources);
    }
  })();
}
