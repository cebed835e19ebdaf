// Queries on region_events (region-table.ts): a region's total, and its pages in start order. A
// version whose lineage's updates hid rows (region_hidden) has them subtracted from its total and
// left out of its pages.
import type { Condition } from '../../query/plan.ts';
import type { ListQuery } from '../../query/types.ts';
import type { RegionPlan } from '../region-plan.ts';
import { SqlBuilder } from '../sql.ts';
import { branchPerVersion, joinedPage, PAGE_KEY_COLUMNS, type CompiledSql } from './compile.ts';
import type { VersionScope } from './lineage.ts';
import { renderCondition } from './render-plan.ts';
import { regionRowsHeld } from './region-table.ts';

const regionWhere = (b: SqlBuilder, plan: RegionPlan, others: readonly Condition[], scope: VersionScope) =>
  [`member = ${b.param(plan.region.member)}`, `region = ${b.param(plan.region.id)}`, ...others.map((c) => renderCondition(b, c, scope))].join(' AND ');

/** Whether some version of the plan is of a lineage whose updates hid rows by region. */
function readsHidden(plan: RegionPlan, scope: VersionScope, hiddenLineages: ReadonlySet<number>): boolean {
  const versions = plan.others.find((c) => c.is === 'oneOf' && c.field === 'version');
  if (versions?.is !== 'oneOf') return hiddenLineages.size > 0;
  return versions.values.some((v) => hiddenLineages.has(scope.partitionOf(Number(v))));
}

/**
 * The query's total, counted on the region's rows, less those hidden from its versions: two
 * index-only scans (the hidden rows' condition inside the count made it a lookup per row).
 */
export function regionCountSql(plan: RegionPlan, scope: VersionScope, hiddenLineages: ReadonlySet<number>): CompiledSql {
  const b = new SqlBuilder();
  const where = regionWhere(b, plan, plan.others, scope);
  if (!readsHidden(plan, scope, hiddenLineages)) return { sql: `SELECT count(*)::float8 FROM region_events WHERE ${where}`, params: b.params };
  const held = `SELECT count(*) FROM region_events WHERE ${where}`;
  const hidden = `SELECT count(*) FROM region_hidden WHERE ${regionWhere(b, plan, plan.others, scope.hiddenRows())}`;
  return { sql: `SELECT ((${held}) - (${hidden}))::float8`, params: b.params };
}

/**
 * A page in start order found on the region's rows and joined to its events (one branch per
 * version, merged, as on the events: compile.ts branchPerVersion), or undefined for another order.
 */
export function regionPageSql(plan: RegionPlan, query: ListQuery, scope: VersionScope, hiddenLineages: ReadonlySet<number>): CompiledSql | undefined {
  const [first, ...rest] = plan.others;
  if ((query.sort !== '+start' && query.sort !== '-start') || first?.is !== 'oneOf' || first.field !== 'version') return undefined;
  const b = new SqlBuilder();
  const rows = branchPerVersion(b, query, [...new Set(first.values)], PAGE_KEY_COLUMNS, 'region_events', regionWhere(b, plan, rest, scope), (v) => regionRowsHeld(b, scope, hiddenLineages, v));
  return { sql: joinedPage(b, query, rows), params: b.params };
}
