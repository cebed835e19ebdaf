// NDJSON rows rewritten as CSV or Parquet by DuckDB, with bounded memory (`vessel-events generate`).
import { DuckDBInstance } from '@duckdb/node-api';
import { OFFLINE_SETTINGS } from './duckdb-store.ts';

export interface Conversion {
  /** The NDJSON file to read. */
  source: string;
  target: string;
  format: 'csv' | 'parquet';
}

/**
 * Each source read with the given column types and written to its target. CSV has no nested
 * values: the columns named in `asJsonInCsv` become JSON strings, as in a BigQuery CSV export.
 */
export async function convertNdjson(conversions: readonly Conversion[], columnTypes: Readonly<Record<string, string>>, asJsonInCsv: readonly string[]): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:', OFFLINE_SETTINGS);
  const c = await instance.connect();
  try {
    await c.run(`SET TimeZone = 'UTC'`);
    const columns = `{${Object.entries(columnTypes).map(([k, t]) => `'${k}': '${t}'`).join(', ')}}`;
    const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
    for (const { source, target, format } of conversions) {
      const rows = `read_json(${quote(source)}, format = 'newline_delimited', columns = ${columns})`;
      const select = format === 'csv' && asJsonInCsv.length ? `SELECT * REPLACE (${asJsonInCsv.map((col) => `to_json(${col})::VARCHAR AS ${col}`).join(', ')}) FROM ${rows}` : `SELECT * FROM ${rows}`;
      await c.run(`COPY (${select}) TO ${quote(target)} (FORMAT ${format === 'csv' ? 'csv, HEADER' : 'parquet, COMPRESSION zstd'})`);
    }
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}
