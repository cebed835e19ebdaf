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
 * The page of a list: its entries, ordered, then limit and offset as further parameters. Past
 * DEFERRED_OFFSET a page in start order skips its rows on (version_id, start_ts, id) alone, which
 * the index holds, and reads only its own rows: skipped as whole rows, each was a read of the
 * table (50,000 of them for offset 50,000, seconds where the table is not cached).
 */
export function compileSearch(q: ListQuery, deferredFrom = DEFERRED_OFFSET): CompiledSql {
  const where = compileWhere(q);
  const n = where.params.length;
  const paging = `LIMIT $${n + 1} OFFSET $${n + 2}`;
  const params = [...where.params, q.limit, q.offset];
  const pageOrder = PAGE_ORDER[q.sort];
  if (q.offset >= deferredFrom && pageOrder) {
    return {
      sql: `SELECT e.entry FROM (SELECT version_id, start_ts, id FROM events WHERE ${where.sql} ORDER BY ${ORDER_BY[q.sort]} ${paging}) page
        JOIN events e ON e.id = page.id AND e.version_id = page.version_id ORDER BY ${pageOrder}`,
      params,
    };
  }
  return { sql: `SELECT entry FROM events WHERE ${where.sql} ORDER BY ${ORDER_BY[q.sort]} ${paging}`, params };
}
