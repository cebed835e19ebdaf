// compile*: a query's filter plan (src/query/plan.ts, where each filter's meaning is written) in
// DuckDB's SQL, with order and paging. The list, its total and the statistics all call
// compileWhere; every user value is a bound parameter, never SQL text.
import type { DuckDBValue } from '@duckdb/node-api';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { renderCondition } from './render-plan.ts';
import { ORDER_BY, SqlBuilder as GenericSqlBuilder } from '../sql.ts';
import type { SqlBuilder } from './sql-builder.ts';

export interface CompiledSql {
  sql: string;
  params: DuckDBValue[];
}

export type { SqlBuilder };

/** The query's conditions; with `b`, their values follow those `b` already holds (one statement of several parts). */
export function compileWhere(q: EventQuery, b = new GenericSqlBuilder<DuckDBValue>()): CompiledSql {
  const sql = q.filters.conditions.map((c) => renderCondition(b, c)).join(' AND ');
  return { sql, params: b.params };
}

/** Where a query reads: a table, and a condition that only prunes (it removes no matching row). */
export interface Source {
  from: string;
  prune?: string;
}
const EVENTS: Source = { from: 'events' };

/** The rows of a query: FROM and WHERE. */
export function compileRows(q: EventQuery, source: Source = EVENTS): CompiledSql {
  const where = compileWhere(q);
  const before = source.prune === undefined ? '' : `${source.prune} AND `;
  return { sql: `FROM ${source.from} WHERE ${before}${where.sql}`, params: where.params };
}

/** The page of a list: the rows, then order, limit and offset as further parameters. */
export function compileSearch(q: ListQuery, select: string, source: Source = EVENTS): CompiledSql {
  const rows = compileRows(q, source);
  const n = rows.params.length;
  return {
    sql: `SELECT ${select} ${rows.sql} ORDER BY ${ORDER_BY[q.sort]} LIMIT $${n + 1} OFFSET $${n + 2}`,
    params: [...rows.params, q.limit, q.offset],
  };
}
