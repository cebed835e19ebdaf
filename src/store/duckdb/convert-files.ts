// NDJSON rows rewritten as CSV or Parquet by DuckDB, with bounded memory (`vessel-events generate`).
import { DuckDBInstance } from '@duckdb/node-api';
import { OFFLINE_SETTINGS } from './offline.ts';
import { sqlText } from '../sql.ts';

export interface Conversion {
  /** The NDJSON file to read, with its columns' types. */
  source: string;
  columnTypes: Readonly<Record<string, string>>;
  target: string;
  format: 'csv' | 'parquet';
  /** CSV has no nested values: these columns become JSON strings, as in a BigQuery CSV export. */
  asJsonInCsv: readonly string[];
}

/** The source read with the given column types and written to its target. */
export async function convertNdjson({ source, columnTypes, target, format, asJsonInCsv }: Conversion): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:', OFFLINE_SETTINGS);
  const c = await instance.connect();
  try {
    await c.run(`SET TimeZone = 'UTC'`);
    const columns = `{${Object.entries(columnTypes).map(([k, t]) => `'${k}': '${t}'`).join(', ')}}`;
    const rows = `read_json(${sqlText(source)}, format = 'newline_delimited', columns = ${columns})`;
    const select = format === 'csv' && asJsonInCsv.length ? `SELECT * REPLACE (${asJsonInCsv.map((col) => `to_json(${col})::VARCHAR AS ${col}`).join(', ')}) FROM ${rows}` : `SELECT * FROM ${rows}`;
    await c.run(`COPY (${select}) TO ${sqlText(target)} (FORMAT ${format === 'csv' ? 'csv, HEADER' : 'parquet, COMPRESSION zstd'})`);
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}
