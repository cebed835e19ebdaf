// A query that names two versions of one dataset whose rows share a partition (lineage.ts) must
// still give each version's rows, as two partitions would: a row both versions hold is one stored
// row, which a condition of either version finds once. Such a query reads `events` as a WITH query
// of that name, each version's rows under its own id, which the statement's own `events` then
// means; its versions are then conditions on that id alone, and the tables by region, by place and
// by vessel and the rollups, which hold the stored rows, are not read. Rare (a query comparing two versions
// of a dataset), and read from the events.
import { EVENT_COLUMNS } from './schema.ts';
import type { VersionScope } from './lineage.ts';

/** Version ids are the catalog's numbers, never a user's text: written as literals. */
const literal = { param: (value: unknown) => String(Number(value)) };

/** Columns of `events` besides version_id, in any order the statements name them by. */
export const OTHER_COLUMNS = [...EVENT_COLUMNS.map(([n]) => n).filter((n) => n !== 'version_id'), 'position', 'from_version', 'to_version'].join(', ');

/**
 * A SELECT of each version's rows of `table` (events, region_events, spatial_events) under its own
 * id: version_id, then `columns` (the table's others).
 */
export function rowsApart(scope: VersionScope, versionIds: readonly number[], table: string, columns: string): string {
  return [...new Set(versionIds)].map((v) => `SELECT ${Number(v)}::smallint AS version_id, ${columns} FROM ${table} WHERE ${scope.rowsOf(literal, v)}`).join(' UNION ALL ');
}

/** The WITH clause giving each version's rows under its own id, for `versionIds`. */
export function versionsApart(scope: VersionScope, versionIds: readonly number[]): string {
  return `WITH events AS (${rowsApart(scope, versionIds, 'events', OTHER_COLUMNS)})`;
}

/** `sql` reading `events` as `withClause` says; a statement with a WITH of its own gets this one first. */
export function readingApart(withClause: string, sql: string): string {
  return /^\s*WITH\s/i.test(sql) ? `${withClause}, ${sql.replace(/^\s*WITH\s/i, '')}` : `${withClause} ${sql}`;
}
