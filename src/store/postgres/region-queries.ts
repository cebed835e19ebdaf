// Queries on region_events (region-table.ts): a region's total, and its pages in start order.
import type { Condition } from '../../query/plan.ts';
import type { ListQuery } from '../../query/types.ts';
import type { RegionPlan } from '../region-plan.ts';
import { ORDER_BY, SqlBuilder } from '../sql.ts';
import type { CompiledSql } from './compile.ts';
import { renderCondition } from './render-plan.ts';

const regionWhere = (b: SqlBuilder, plan: RegionPlan, others: readonly Condition[]) =>
  [`member = ${b.param(plan.region.member)}`, `region = ${b.param(plan.region.id)}`, ...others.map((c) => renderCondition(b, c))].join(' AND ');

/** The query's total, counted on the region's rows. */
export function regionCountSql(plan: RegionPlan): CompiledSql {
  const b = new SqlBuilder();
  return { sql: `SELECT count(*)::float8 FROM region_events WHERE ${regionWhere(b, plan, plan.others)}`, params: b.params };
}

/** The orders a page is found in on the region's rows: its index's. */
const PAGE_ORDER: Partial<Record<ListQuery['sort'], string>> = {
  '+start': 'page.start_ts ASC, page.id ASC',
  '-start': 'page.start_ts DESC, page.id DESC',
};

/**
 * A page in start order found on the region's rows and joined to its events, or undefined for
 * another order. One branch per version, each in the page's order and limited to its end, merged
 * (as compile.ts rowsOf does on the events).
 */
export function regionPageSql(plan: RegionPlan, query: ListQuery): CompiledSql | undefined {
  const pageOrder = PAGE_ORDER[query.sort];
  if (!pageOrder) return undefined;
  const [first, ...rest] = plan.others;
  if (first?.is !== 'oneOf' || first.field !== 'version') return undefined;
  const b = new SqlBuilder();
  const where = regionWhere(b, plan, rest);
  const pageEnd = b.param(query.offset + query.limit);
  const branches = [...new Set(first.values)].map((v) =>
    `(SELECT version_id, start_ts, id FROM region_events WHERE version_id = ${b.param(v)}::smallint AND ${where} ORDER BY ${ORDER_BY[query.sort]} LIMIT ${pageEnd})`);
  return {
    sql: `SELECT e.entry FROM (SELECT version_id, start_ts, id FROM (${branches.join(' UNION ALL ')}) r ORDER BY ${ORDER_BY[query.sort]} LIMIT ${b.param(query.limit)} OFFSET ${b.param(query.offset)}) page
      JOIN events e ON e.id = page.id AND e.version_id = page.version_id ORDER BY ${pageOrder}`,
    params: b.params,
  };
}
