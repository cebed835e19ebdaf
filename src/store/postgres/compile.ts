// A query's filter plan in PostgreSQL's SQL, with order and paging: the list, its total and the
// statistics all call compileWhere.
import { planFilters } from '../../query/plan.ts';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { ORDER_BY, SqlBuilder } from '../sql.ts';
import { renderCondition } from './render-plan.ts';

export interface CompiledSql {
  sql: string;
  params: unknown[];
}

export function compileWhere(q: EventQuery): CompiledSql {
  const b = new SqlBuilder();
  return { sql: planFilters(q).map((c) => renderCondition(b, c)).join(' AND '), params: b.params };
}

/** The page of a list: its entries, ordered, then limit and offset as further parameters. */
export function compileSearch(q: ListQuery): CompiledSql {
  const where = compileWhere(q);
  const n = where.params.length;
  return {
    sql: `SELECT entry FROM events WHERE ${where.sql} ORDER BY ${ORDER_BY[q.sort]} LIMIT $${n + 1} OFFSET $${n + 2}`,
    params: [...where.params, q.limit, q.offset],
  };
}
