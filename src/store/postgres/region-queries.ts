// Queries on region_events (region-table.ts): a region's total, and its pages in start order.
import type { Condition } from '../../query/plan.ts';
import type { ListQuery } from '../../query/types.ts';
import type { RegionPlan } from '../region-plan.ts';
import { SqlBuilder } from '../sql.ts';
import { branchPerVersion, joinedPage, PAGE_KEY_COLUMNS, type CompiledSql } from './compile.ts';
import type { VersionScope } from './lineage.ts';
import { renderCondition } from './render-plan.ts';

const regionWhere = (b: SqlBuilder, plan: RegionPlan, others: readonly Condition[], scope: VersionScope) =>
  [`member = ${b.param(plan.region.member)}`, `region = ${b.param(plan.region.id)}`, ...others.map((c) => renderCondition(b, c, scope))].join(' AND ');

/** The query's total, counted on the region's rows. */
export function regionCountSql(plan: RegionPlan, scope: VersionScope): CompiledSql {
  const b = new SqlBuilder();
  return { sql: `SELECT count(*)::float8 FROM region_events WHERE ${regionWhere(b, plan, plan.others, scope)}`, params: b.params };
}

/**
 * A page in start order found on the region's rows and joined to its events (one branch per
 * version, merged, as on the events: compile.ts branchPerVersion), or undefined for another order.
 */
export function regionPageSql(plan: RegionPlan, query: ListQuery, scope: VersionScope): CompiledSql | undefined {
  const [first, ...rest] = plan.others;
  if ((query.sort !== '+start' && query.sort !== '-start') || first?.is !== 'oneOf' || first.field !== 'version') return undefined;
  const b = new SqlBuilder();
  const rows = branchPerVersion(b, query, [...new Set(first.values)], PAGE_KEY_COLUMNS, 'region_events', regionWhere(b, plan, rest, scope), scope);
  return { sql: joinedPage(b, query, rows), params: b.params };
}
