// The tables beside the events that a writer fills per dataset version (the vessel identities, the
// statistics rollups, the rows by region, by place and by vessel) each list the versions they hold
// in a table of their own: a version missing from it is written by the next writer (or `migrate`),
// and read from the events until then.
import type pg from 'pg';

/**
 * The versions of the catalog that `listTable` does not list yet, ascending: those with a partition
 * of their own. An update's version, which shares its base's (lineage.ts), has its rows of every
 * table written by the update itself (update.ts).
 */
export async function versionsMissingFrom(c: pg.ClientBase, listTable: string): Promise<number[]> {
  return (await c.query<{ version_id: number }>(`SELECT version_id FROM dataset_versions WHERE lineage_id IS NULL AND version_id NOT IN (SELECT version_id FROM ${listTable}) ORDER BY 1`)).rows.map((r) => r.version_id);
}

/** The versions `listTable` lists; none in a database written before the table. */
export async function versionsListedIn(c: pg.ClientBase, listTable: string): Promise<Set<number>> {
  if (!(await c.query('SELECT to_regclass($1) IS NOT NULL AS present', [listTable])).rows[0].present) return new Set();
  return new Set((await c.query<{ version_id: number }>(`SELECT version_id FROM ${listTable}`)).rows.map((r) => r.version_id));
}

/**
 * Lists, in `listTable`, a version whose rows its table now holds, written from the version's
 * partition of the events, and the versions of the updates sharing that partition (lineage.ts):
 * their rows are there too, marked as in the events.
 */
export async function listWithLineage(c: pg.ClientBase, listTable: string, versionId: number): Promise<void> {
  await c.query(`INSERT INTO ${listTable} SELECT version_id FROM dataset_versions WHERE version_id = $1 OR lineage_id = $1 ON CONFLICT DO NOTHING`, [versionId]);
}
