// A query's filter plan in PostgreSQL's SQL, with order and paging: the list, its total and the
// statistics all call compileWhere.
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { ORDER_BY, SqlBuilder } from '../sql.ts';
import { changesPartitionIdSql, type VersionScope } from './lineage.ts';
import { renderCondition } from './render-plan.ts';

export interface CompiledSql {
  sql: string;
  params: unknown[];
}

/** The query's conditions on the events, their parameters added to `b` (a new builder by default). */
export function compileWhere(q: EventQuery, scope: VersionScope, b = new SqlBuilder()): CompiledSql {
  return { sql: q.filters.conditions.map((c) => renderCondition(b, c, scope)).join(' AND '), params: b.params };
}

/**
 * From this offset on, a page sorted by start is found on the index's columns alone, then joined to
 * its rows (docs/performance.md, "The PostgreSQL engine: pages"). On 1M events,
 * warm, the join cost more than it saved up to offset 2,000 (1.8 against 2.0 ms), and less from
 * 5,000 (2.5 against 2.1; 24.7 against 16.6 at 50,000, and 24.5 against 4.0 sorted by -start).
 */
export const DEFERRED_OFFSET = 5000;

/** The order of a page's rows once joined to their entries, by the columns the rows carry. */
const JOINED_ORDER: Readonly<Record<ListQuery['sort'], string>> = {
  '+start': 'page.start_ts ASC, page.id ASC',
  '-start': 'page.start_ts DESC, page.id DESC',
  '+end': 'page.end_ts ASC NULLS LAST, page.id ASC',
  '-end': 'page.end_ts DESC NULLS FIRST, page.id DESC',
};

/** The sorts an index on (version_id, start_ts, id) gives in its order. */
const INDEX_ORDERED: ReadonlySet<ListQuery['sort']> = new Set(['+start', '-start']);

/**
 * The columns of the rows a page in start order is found on before it is joined to its entries:
 * those of the (version_id, start_ts, id) index with the versions' marks it includes, so that the
 * events' is read alone. The marks tell a row from the one it replaced, which has the same id.
 */
export const PAGE_KEY_COLUMNS = 'version_id, start_ts, id, from_version';

/**
 * A page found on `rows` (a SELECT of PAGE_KEY_COLUMNS, and end_ts for a page in end order: from
 * the events' index, region_events, spatial_events), ordered, limited and offset there, then joined
 * to its entries by id. A version of an updated lineage has rows in its lineage's partition of
 * changes, under the lineage's negated id (lineage.ts), which region_events and spatial_events
 * name by the lineage's own.
 */
export function joinedPage(b: SqlBuilder, q: ListQuery, rows: string): string {
  return `SELECT e.entry FROM (SELECT * FROM (${rows}) r ORDER BY ${ORDER_BY[q.sort]} LIMIT ${b.param(q.limit)} OFFSET ${b.param(q.offset)}) page
    JOIN events e ON e.id = page.id AND e.version_id IN (page.version_id, ${changesPartitionIdSql('page.version_id')}) AND e.from_version IS NOT DISTINCT FROM page.from_version ORDER BY ${JOINED_ORDER[q.sort]}`;
}

/**
 * The versions of a query in start order read one branch each (a version of an updated lineage,
 * one for each of its partitions), or undefined where one statement will do (one version in one
 * partition, or another order): `version_id = ANY(...)` read each partition's index out of its
 * order and sorted every row of the versions.
 */
function versionBranches(q: ListQuery, scope: VersionScope): (string | number | boolean)[] | undefined {
  const [first] = q.filters.conditions;
  const versions = first?.is === 'oneOf' && first.field === 'version' ? [...new Set(first.values)] : [];
  const branched = versions.length >= 2 || versions.some((v) => scope.readsChangesPartition(Number(v)));
  return branched && INDEX_ORDERED.has(q.sort) ? versions : undefined;
}

/**
 * One SELECT of `columns` from `table` per version, or per partition of a version's rows where
 * `rowsOf` gives several conditions (lineage.ts rowsByPartition), each with `where` (the conditions
 * but the versions), in the list's order and limited to the rows up to the page's end, joined by
 * UNION ALL: each reads its partition's index in order, and PostgreSQL merges them (a Merge
 * Append), reading no further than the page. Branches without their own order and limit were not
 * merged.
 */
export function branchPerVersion(b: SqlBuilder, q: ListQuery, versions: readonly (string | number | boolean)[], columns: string, table: string, where: string, rowsOf: (versionId: number) => string | readonly string[]): string {
  const pageEnd = b.param(q.offset + q.limit);
  return versions.flatMap((v) => rowsOf(Number(v))).map((rows) => `(SELECT ${columns} FROM ${table} WHERE ${rows}${where ? ` AND ${where}` : ''} ORDER BY ${ORDER_BY[q.sort]} LIMIT ${pageEnd})`).join(' UNION ALL ');
}

/**
 * The query's rows with the columns named, as a SELECT: one statement, or in start order over
 * several versions (or partitions) a branch each (five datasets' page at offset 50,000 of 10M events: 1,164
 * ms against 12.7; docs/performance.md, "The PostgreSQL engine at 10M").
 */
function rowsOf(q: ListQuery, columns: string, b: SqlBuilder, scope: VersionScope): string {
  const versions = versionBranches(q, scope);
  if (!versions) return `SELECT ${columns} FROM events WHERE ${compileWhere(q, scope, b).sql}`;
  return branchPerVersion(b, q, versions, columns, 'events', q.filters.conditions.slice(1).map((c) => renderCondition(b, c, scope)).join(' AND '), (v) => scope.rowsByPartition(b, v));
}

/**
 * The page of a list: its entries, ordered, then limit and offset. Past DEFERRED_OFFSET a page in
 * start order skips its rows on (version_id, start_ts, id) alone, which the index holds, and reads
 * only its own rows: skipped as whole rows, each was a read of the table (50,000 of them for
 * offset 50,000, seconds where the table is not cached).
 */
export function compileSearch(q: ListQuery, scope: VersionScope, deferredFrom = DEFERRED_OFFSET): CompiledSql {
  const b = new SqlBuilder();
  if (q.offset >= deferredFrom && INDEX_ORDERED.has(q.sort)) return { sql: joinedPage(b, q, rowsOf(q, PAGE_KEY_COLUMNS, b, scope)), params: b.params };
  const rows = rowsOf(q, 'entry, start_ts, end_ts, id', b, scope);
  return { sql: `SELECT entry FROM (${rows}) r ORDER BY ${ORDER_BY[q.sort]} LIMIT ${b.param(q.limit)} OFFSET ${b.param(q.offset)}`, params: b.params };
}
