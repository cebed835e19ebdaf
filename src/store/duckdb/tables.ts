// Whether a table exists. Its own module, with no imports of the project's: schema.ts imports the
// modules that define tables (spatial-table.ts), and those need this check, so taking it from
// versions.ts (which imports schema.ts) made a cycle that failed whichever of them loaded first.
import type { DuckDBConnection } from '@duckdb/node-api';

// A database may predate a table (or be new): a missing table reads as empty.
export async function tableExists(c: DuckDBConnection, name: string, database?: string): Promise<boolean> {
  const r = await c.runAndReadAll(`SELECT count(*)::INTEGER FROM duckdb_tables() WHERE table_name = ? AND database_name = coalesce(?, current_database())`, [name, database ?? null]);
  return (r.getRowsJS()[0]![0] as number) > 0;
}

/**
 * The loaded versions a table of rows derived from events (spatial_events, region_events) does not
 * hold yet, by its list of versions: all of them in a file written before the table.
 */
export async function versionsMissingFrom(c: DuckDBConnection, versionsTable: string): Promise<number[]> {
  return (await c.runAndReadAll(
    `SELECT version_id::INTEGER FROM dataset_versions WHERE version_id NOT IN (SELECT version_id FROM ${versionsTable}) ORDER BY 1`,
  )).getRowsJS().map((r) => r[0] as number);
}

/** Deletes one version's rows from each table. */
export async function deleteVersionRows(c: DuckDBConnection, tables: readonly string[], versionId: number): Promise<void> {
  for (const table of tables) await c.run(`DELETE FROM ${table} WHERE version_id = ?`, [versionId]);
}
