// Read-only looks into a database file for the command line (`versions list`, `regions list`):
// the commands print what these return and never open the file themselves.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { REGION_LIST_SQL } from '../sql.ts';
import { OFFLINE_SETTINGS } from './offline.ts';
import type { DatasetVersion } from '../../query/datasets.ts';
import { readVersions } from './versions.ts';
import { attachLayers } from './layers.ts';
import type { ListedRegion } from '../catalog.ts';

/** A read of the file through a read-only instance of its own, closed after. */
export async function readOnly<T>(dbPath: string, read: (c: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY', ...OFFLINE_SETTINGS });
  const c = await instance.connect();
  try {
    return await read(c);
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** Every loaded dataset version: the database file's, then the update layers' (layers.ts). */
export async function listVersions(dbPath: string): Promise<DatasetVersion[]> {
  const { stored, layered } = await readAllVersions(dbPath);
  return [...stored, ...layered].sort((a, b) => a.versionId - b.versionId);
}

/** The versions update layers hold (layers.ts), not the database file. */
export async function listLayeredVersions(dbPath: string): Promise<DatasetVersion[]> {
  return (await readAllVersions(dbPath)).layered;
}

/** The database file's versions, and those its update layers hold. */
function readAllVersions(dbPath: string): Promise<{ stored: DatasetVersion[]; layered: DatasetVersion[] }> {
  return readOnly(dbPath, async (c) => {
    const stored = await readVersions(c);
    const layers = await attachLayers(c, dbPath, new Set(stored.map((v) => v.versionId)));
    return { stored, layered: [...layers.values()].map((l) => l.version) };
  });
}


/** Region ids with names (from loaded geometries) and ids events carry without a geometry. */
export function listRegions(dbPath: string, filter: { dataset: string }): Promise<ListedRegion[]> {
  return readOnly(dbPath, async (c) => {
    const rows = (await c.runAndReadAll(REGION_LIST_SQL, [filter.dataset])).getRowsJS() as [string, string, string | null][];
    return rows.map(([dataset, id, name]) => ({ dataset, id, name }));
  });
}
