// Read-only looks into a PostgreSQL database for the command line (`versions list`, `regions list`).
import pg from 'pg';
import { REGION_DATASETS } from '../../domain/regions.ts';
import type { DatasetVersion } from '../../query/datasets.ts';
import type { ListedRegion } from '../duckdb/inspect.ts';
import { readVersions } from './catalog.ts';
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

export function listRegions(url: string, filter: { dataset: string; name: string }): Promise<ListedRegion[]> {
  return connected(url, async (c) => {
    if ((await c.query(`SELECT to_regclass('region_ids') IS NOT NULL AS present`)).rows[0].present !== true) return [];
    const members = Object.entries(REGION_DATASETS).map(([d, m]) => `('${d}', '${m}')`).join(', ');
    const rows = (await c.query({
      text: `WITH datasets(dataset, member) AS (VALUES ${members})
             SELECT coalesce(g.dataset, d.dataset) AS dataset, coalesce(g.id, r.id) AS id, g.name
               FROM (region_ids r JOIN datasets d USING (member)) FULL JOIN region_geometries g ON g.dataset = d.dataset AND g.id = r.id
              WHERE ($1 = '' OR coalesce(g.dataset, d.dataset) = $1) AND ($2 = '' OR g.name ILIKE '%' || $2 || '%')
              ORDER BY 1, 3 NULLS LAST, 2`,
      values: [filter.dataset, filter.name],
      rowMode: 'array',
    })).rows as [string, string, string | null][];
    return rows.map(([dataset, id, name]) => ({ dataset, id, name }));
  });
}

/** Whether a load has written any dataset version into the database. */
export async function holdsEvents(url: string): Promise<boolean> {
  return (await listVersions(url)).length > 0;
}
