// Read-only looks into a PostgreSQL database for the command line (`versions list`, `regions list`).
import pg from 'pg';
import { REGION_LIST_SQL } from '../sql.ts';
import type { DatasetVersion } from '../../query/datasets.ts';
import type { ListedRegion } from '../catalog.ts';
import { readVersions, tableExists } from './versions.ts';
import { connectionConfig } from './connection.ts';

async function connected<T>(url: string, read: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client(connectionConfig(url));
  await c.connect();
  try {
    return await read(c);
  } finally {
    await c.end();
  }
}

export function listVersions(url: string): Promise<DatasetVersion[]> {
  return connected(url, readVersions);
}

export function listRegions(url: string, filter: { dataset: string }): Promise<ListedRegion[]> {
  return connected(url, async (c) => {
    if (!(await tableExists(c, 'region_ids'))) return [];
    const rows = (await c.query({ text: REGION_LIST_SQL, values: [filter.dataset], rowMode: 'array' })).rows as [string, string, string | null][];
    return rows.map(([dataset, id, name]) => ({ dataset, id, name }));
  });
}

/** Whether a load has written any dataset version into the database. */
export async function holdsEvents(url: string): Promise<boolean> {
  return (await listVersions(url)).length > 0;
}
