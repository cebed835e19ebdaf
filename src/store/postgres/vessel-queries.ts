// Queries on vessel_events (vessel-table.ts): a vessel history's total and pages, entries
// included, so that a page reads no row of the events. A version whose lineage was updated has its
// rows of vessel_added too, less those of either table hidden from it (change-tables.ts).
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { ORDER_BY, SqlBuilder } from '../sql.ts';
import type { CompiledSql } from './compile.ts';
import type { VersionScope } from './lineage.ts';
import { heldBranches } from './held-branches.ts';
import { renderCondition } from './render-plan.ts';
import { VESSEL_CHANGES } from './change-tables.ts';

/**
 * The query's total: a count per version of the vessels' index entries, read alone
 * (change-tables.ts countPerVersionSql), when its versions are its first condition, as a query's
 * are; else one count (countSql).
 */
export function vesselCountSql(query: EventQuery, scope: VersionScope, updatedLineages: ReadonlySet<number>): CompiledSql {
  const [first, ...rest] = query.filters.conditions;
  if (first?.is !== 'oneOf' || first.field !== 'version') {
    const conditions = query.filters.conditions;
    return VESSEL_CHANGES.countSql(conditions, scope, updatedLineages, (b, versions) => conditions.map((c) => renderCondition(b, c, versions)).join(' AND '));
  }
  const b = new SqlBuilder();
  const where = rest.map((c) => renderCondition(b, c, scope)).join(' AND ');
  return { sql: VESSEL_CHANGES.countPerVersionSql(b, [...new Set(first.values)].map(Number), scope, updatedLineages, where), params: b.params };
}

/**
 * A page: each version's rows (and an updated one's rows of vessel_added) read in the list's order
 * up to the page's end, merged, then ordered, limited and offset; or undefined for a query whose
 * versions are not its first condition (read from the events).
 */
export function vesselPageSql(query: ListQuery, scope: VersionScope, updatedLineages: ReadonlySet<number>): CompiledSql | undefined {
  const [first, ...rest] = query.filters.conditions;
  if (first?.is !== 'oneOf' || first.field !== 'version') return undefined;
  const b = new SqlBuilder();
  const where = rest.map((c) => renderCondition(b, c, scope)).join(' AND ');
  const rows = heldBranches(VESSEL_CHANGES, b, query, [...new Set(first.values)], 'entry, start_ts, end_ts, id', where, scope, updatedLineages);
  return { sql: `SELECT entry FROM (${rows}) r ORDER BY ${ORDER_BY[query.sort]} LIMIT ${b.param(query.limit)} OFFSET ${b.param(query.offset)}`, params: b.params };
}
