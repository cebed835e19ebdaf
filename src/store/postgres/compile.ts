// A query's filter plan in PostgreSQL's SQL, with order and paging: the list, its total and the
// statistics all call compileWhere.
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { ORDER_BY, SqlBuilder } from '../sql.ts';
import { renderCondition } from './render-plan.ts';

export interface CompiledSql {
  sql: string;
  params: unknown[];
}

/** The query's conditions, their parameters added to `b` (a new builder by default). */
export function compileWhere(q: EventQuery, b = new SqlBuilder()): CompiledSql {
  return { sql: q.filters.conditions.map((c) => renderCondition(b, c)).join(' AND '), params: b.params };
}

/**
 * From this offset on, a page sorted by start is found on the index's columns alone, then joined to
 * its rows (docs/performance.md, "The PostgreSQL engine: pages"). On 1M events,
 * warm, the join cost more than it saved up to offset 2,000 (1.8 against 2.0 ms), and less from
 * 5,000 (2.5 against 2.1; 24.7 against 16.6 at 50,000, and 24.5 against 4.0 sorted by -start).
 */
export const DEFERRED_OFFSET = 5000;

/** The order of a page found on the index, by the columns it carries. */
const PAGE_ORDER: Partial<Record<ListQuery['sort'], string>> = {
  '+start': 'page.start_ts ASC, page.id ASC',
  '-start': 'page.start_ts DESC, page.id DESC',
};

/**
 * The query's rows with the columns named, as a SELECT. In start order over several versions, one
 * SELECT per version, each in the list's order and limited to the rows up to the page's end, joined
 * by UNION ALL: each reads its partition's (version_id, start_ts, id) index in order, and PostgreSQL
 * merges them (a Merge Append), reading no further than the page. With `version_id = ANY(...)`,
 * or branches without their own order and limit, it read every row of the versions and sorted them
 * (five datasets' page at offset 50,000 of 10M events: 1,164 ms against 12.7; docs/performance.md,
 * "The PostgreSQL engine at 10M").
 */
function rowsOf(q: ListQuery, columns: string, b: SqlBuilder): string {
  const [first, ...others] = q.filters.conditions;
  const versions = first?.is === 'oneOf' && first.field === 'version' ? [...new Set(first.values)] : [];
  if (versions.length < 2 || !PAGE_ORDER[q.sort]) return `SELECT ${columns} FROM events WHERE ${compileWhere(q, b).sql}`;
  const rest = others.map((c) => ` AND ${renderCondition(b, c)}`).join('');
  const pageEnd = b.param(q.offset + q.limit);
  return versions.map((v) => `(SELECT ${columns} FROM events WHERE version_id = ${b.param(v)}::smallint${rest} ORDER BY ${ORDER_BY[q.sort]} LIMIT ${pageEnd})`).join(' UNION ALL ');
}

/**
 * The page of a list: its entries, ordered, then limit and offset. Past DEFERRED_OFFSET a page in
 * start order skips its rows on (version_id, start_ts, id) alone, which the index holds, and reads
 * only its own rows: skipped as whole rows, each was a read of the table (50,000 of them for
 * offset 50,000, seconds where the table is not cached).
 */
export function compileSearch(q: ListQuery, deferredFrom = DEFERRED_OFFSET): CompiledSql {
  const b = new SqlBuilder();
  const pageOrder = PAGE_ORDER[q.sort];
  if (q.offset >= deferredFrom && pageOrder) {
    const rows = rowsOf(q, 'version_id, start_ts, id', b);
    return {
      sql: `SELECT e.entry FROM (SELECT version_id, start_ts, id FROM (${rows}) r ORDER BY ${ORDER_BY[q.sort]} LIMIT ${b.param(q.limit)} OFFSET ${b.param(q.offset)}) page
        JOIN events e ON e.id = page.id AND e.version_id = page.version_id ORDER BY ${pageOrder}`,
      params: b.params,
    };
  }
  const rows = rowsOf(q, 'entry, start_ts, end_ts, id', b);
  return { sql: `SELECT entry FROM (${rows}) r ORDER BY ${ORDER_BY[q.sort]} LIMIT ${b.param(q.limit)} OFFSET ${b.param(q.offset)}`, params: b.params };
}
