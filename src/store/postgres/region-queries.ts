// Queries on region_events (region-table.ts): a region's total, and its pages in start order. A
// version whose lineage was updated has its rows of region_added too, less those of either table
// hidden from it (change-tables.ts).
import type { Condition } from '../../query/plan.ts';
import type { ListQuery } from '../../query/types.ts';
import type { RegionPlan } from '../region-plan.ts';
import { SqlBuilder } from '../sql.ts';
import { joinedPage, PAGE_KEY_COLUMNS, type CompiledSql } from './compile.ts';
import type { VersionScope } from './lineage.ts';
import { heldBranches } from './held-branches.ts';
import { renderCondition } from './render-plan.ts';
import { REGION_CHANGES } from './change-tables.ts';
import { regionMonthsSum, wholeMonths } from './region-months.ts';

const regionWhere = (b: SqlBuilder, plan: RegionPlan, others: readonly Condition[], scope: VersionScope) =>
  [`member = ${b.param(plan.region.member)}`, `region = ${b.param(plan.region.id)}`, ...others.map((c) => renderCondition(b, c, scope))].join(' AND ');

/**
 * The query's total, counted on the region's rows (change-tables.ts countSql); where every version
 * is counted in region_months and the window has whole months, those months' rows of region_events
 * summed there and only the rows at the window's edges counted (region-months.ts).
 */
export function regionCountSql(plan: RegionPlan, scope: VersionScope, updatedLineages: ReadonlySet<number>, monthVersions: ReadonlySet<number>): CompiledSql {
  const months = plan.others.some((c) => c.is === 'oneOf' && c.field === 'version' && c.values.every((v) => monthVersions.has(Number(v)))) ? wholeMonths(plan.others) : undefined;
  const ownCount = months && ((b: SqlBuilder, rows: () => string) => {
    const counted = months.counted.map((c) => renderCondition(b, c, scope)).join(' AND ');
    const edges = [
      ...(months.firstWholeMs !== undefined ? [renderCondition(b, { is: 'before', field: 'start', ms: months.firstWholeMs }, scope)] : []),
      ...(months.afterWholeMs !== undefined ? [renderCondition(b, { is: 'atOrAfter', field: 'start', ms: months.afterWholeMs }, scope)] : []),
    ];
    return `(${[regionMonthsSum(b, plan.region.member, plan.region.id, months, counted), ...edges.map((edge) => `(SELECT count(*) FROM region_events WHERE ${rows()} AND ${edge})`)].join(' + ')})`;
  });
  return REGION_CHANGES.countSql(plan.others, scope, updatedLineages, (b, versions) => regionWhere(b, plan, plan.others, versions), ownCount);
}

/**
 * A page in start order found on the region's rows and joined to its events (one branch per
 * version and table, merged, as on the events: compile.ts branchPerVersion), or undefined for
 * another order.
 */
export function regionPageSql(plan: RegionPlan, query: ListQuery, scope: VersionScope, updatedLineages: ReadonlySet<number>): CompiledSql | undefined {
  const [first, ...rest] = plan.others;
  if ((query.sort !== '+start' && query.sort !== '-start') || first?.is !== 'oneOf' || first.field !== 'version') return undefined;
  const b = new SqlBuilder();
  const where = regionWhere(b, plan, rest, scope);
  const rows = heldBranches(REGION_CHANGES, b, query, [...new Set(first.values)], PAGE_KEY_COLUMNS, where, scope, updatedLineages);
  return { sql: joinedPage(b, query, rows), params: b.params };
}
