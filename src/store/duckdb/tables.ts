// Whether a table exists. Its own module, with no imports of the project's: schema.ts imports the
// modules that define tables (spatial-table.ts), and those need this check, so taking it from
// versions.ts (which imports schema.ts) made a cycle that failed whichever of them loaded first.
import type { DuckDBConnection } from '@duckdb/node-api';

// A database may predate a table (or be new): a missing table reads as empty.
export async function tableExists(c: DuckDBConnection, name: string, database?: string): Promise<boolean> {
  const r = await c.runAndReadAll(`SELECT count(*)::INTEGER FROM duckdb_tables() WHERE table_name = ? AND database_name = coalesce(?, current_database())`, [name, database ?? null]);
  return (r.getRowsJS()[0]![0] as number) > 0;
}
