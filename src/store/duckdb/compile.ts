// compile*: a query's filter plan (src/query/plan.ts, where each filter's meaning is written) in
// DuckDB's SQL, with order and paging. The list, its total and the statistics all call
// compileWhere; every user value is a bound parameter, never SQL text.
import type { DuckDBValue } from '@duckdb/node-api';
import { planFilters } from '../../query/plan.ts';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import type { SortValue } from '../../query/kinds.ts';
import { renderCondition } from './render-plan.ts';

export interface CompiledSql {
  sql: string;
  params: DuckDBValue[];
}

// Numbered placeholders ($1, $2, ...): a value bound once can be used several times, and callers
// can append more parameters after the WHERE clause.
export class SqlBuilder {
  readonly params: DuckDBValue[] = [];
  placeholders(values: readonly DuckDBValue[]): string {
    return values.map((v) => this.param(v)).join(', ');
  }
  param(value: DuckDBValue): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

export function compileWhere(q: EventQuery): CompiledSql {
  const b = new SqlBuilder();
  const sql = planFilters(q).map((c) => renderCondition(b, c)).join(' AND ');
  return { sql, params: b.params };
}

// Ties are broken by id so pages are stable. An open event has not ended: it sorts after every
// ended event on +end and before them on -end.
const ORDER_BY: Record<SortValue, string> = {
  '+start': 'start_ts ASC, id ASC',
  '-start': 'start_ts DESC, id DESC',
  '+end': 'end_ts ASC NULLS LAST, id ASC',
  '-end': 'end_ts DESC NULLS FIRST, id DESC',
};

/** Where a query reads: a table and a condition that only prunes (it removes no matching row). */
export interface Source {
  from: string;
  prune?: string;
}
const EVENTS: Source = { from: 'events' };

/** The rows of a query: FROM and WHERE. */
export function compileRows(q: EventQuery, source: Source = EVENTS): CompiledSql {
  const where = compileWhere(q);
  return { sql: `FROM ${source.from} WHERE ${source.prune ? `${source.prune} AND ` : ''}${where.sql}`, params: where.params };
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
