// Reading the catalog: loaded dataset versions and vessel group ids.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DatasetVersion } from '../../query/datasets.ts';
import type { EventKind } from '../../query/kinds.ts';

export async function readVersions(c: DuckDBConnection): Promise<DatasetVersion[]> {
  const tables = await c.runAndReadAll(`SELECT count(*)::INTEGER FROM duckdb_tables() WHERE table_name = 'dataset_versions'`);
  if ((tables.getRowsJS()[0]![0] as number) === 0) return [];
  const reader = await c.runAndReadAll(
    `SELECT version_id::INTEGER, dataset_id, kind, version, strftime(loaded_at, '%Y-%m-%dT%H:%M:%S.%gZ'), row_count::DOUBLE,
            strftime(last_updated, '%Y-%m-%dT%H:%M:%S.%gZ')
       FROM dataset_versions ORDER BY version_id`,
  );
  return reader.getRowsJS().map((r) => ({
    versionId: r[0] as number,
    datasetId: r[1] as string,
    kind: r[2] as EventKind,
    version: r[3] as string,
    loadedAt: r[4] as string,
    rowCount: r[5] as number,
    lastUpdated: (r[6] as string | null) ?? null,
  }));
}

export async function readGroupIds(c: DuckDBConnection): Promise<Set<string>> {
  const tables = await c.runAndReadAll(`SELECT count(*)::INTEGER FROM duckdb_tables() WHERE table_name = 'vessel_groups'`);
  if ((tables.getRowsJS()[0]![0] as number) === 0) return new Set();
  const reader = await c.runAndReadAll(`SELECT DISTINCT group_id FROM vessel_groups`);
  return new Set(reader.getRowsJS().map((r) => r[0] as string));
}
