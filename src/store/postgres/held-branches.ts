// A page's rows read from a table kept per version beside the events (region_events,
// vessel_events) and, for a version whose lineage was updated, from its `_added` table, less the
// rows hidden from it (change-tables.ts). Apart from change-tables.ts, which schema.ts reads: this
// reads compile.ts, which reaches schema.ts.
import type { ListQuery } from '../../query/types.ts';
import type { SqlBuilder } from '../sql.ts';
import { branchPerVersion } from './compile.ts';
import type { ChangeTables } from './change-tables.ts';
import type { VersionScope } from './lineage.ts';

/**
 * The rows of `versions` with `columns`, in the list's order up to its page's end: a branch per
 * version of the table (compile.ts branchPerVersion), and of `_added` for a version whose lineage
 * was updated, each less the rows hidden from it, joined by UNION ALL for PostgreSQL to merge.
 * `where`: the other conditions, rendered once.
 */
export function heldBranches(changes: ChangeTables, b: SqlBuilder, query: ListQuery, versions: readonly (string | number | boolean)[], columns: string, where: string, scope: VersionScope, updatedLineages: ReadonlySet<number>): string {
  const updated = versions.filter((v) => updatedLineages.has(scope.partitionOf(Number(v))));
  const branches = (table: string, of: typeof versions) =>
    branchPerVersion(b, query, of, columns, table, where, (v) => changes.rowsHeld(b, scope, updatedLineages, table, v));
  return [branches(changes.table, versions), ...(updated.length > 0 ? [branches(changes.added, updated)] : [])].join(' UNION ALL ');
}
