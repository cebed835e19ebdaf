// Reading the catalog: loaded dataset versions, vessel group ids, region ids and geometries.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DatasetVersion } from '../../query/datasets.ts';
import { ENTRY_COMPRESSION_KEY, SCHEMA_VERSION } from './schema.ts';
import { DEFAULT_ENTRY_COMPRESSION, ENTRY_COMPRESSIONS, type EntryCompression } from '../writer.ts';
import { addGeometries, addToSets, toDatasetVersion, type RegionCatalog } from '../catalog.ts';
import { ISO3_COLUMN_SQL, regionGeometrySelect } from '../sql.ts';
import { tableExists } from './tables.ts';

/** The versions a database file (or an attached one, such as a layer's) holds. */
export async function readVersions(c: DuckDBConnection, database?: string): Promise<DatasetVersion[]> {
  if (!(await tableExists(c, 'dataset_versions', database))) return [];
  const reader = await c.runAndReadAll(
    `SELECT version_id::INTEGER, dataset_id, kind, version, strftime(loaded_at, '%Y-%m-%dT%H:%M:%S.%gZ'), row_count::DOUBLE,
            strftime(last_updated, '%Y-%m-%dT%H:%M:%S.%gZ'), longest_ms::DOUBLE, epoch_ms(earliest_open_start)::DOUBLE
       FROM ${database ? `${database}.` : ''}dataset_versions ORDER BY version_id`,
  );
  return reader.getRowsJS().map(toDatasetVersion);
}

/**
 * The layout a file was written with (schema.ts SCHEMA_VERSION), in the current database or an
 * attached one; undefined when it has none (a new file, or one older than layouts).
 */
export async function readSchemaVersion(c: DuckDBConnection, database?: string): Promise<number | undefined> {
  const layout = await readMeta(c, 'schema_version', database);
  return layout === undefined ? undefined : Number(layout);
}

/** How a file's events table stores its entries: meta's record, or fsst for a file written before the choice was recorded. */
export async function readEntryCompression(c: DuckDBConnection, database?: string): Promise<EntryCompression> {
  const recorded = await readMeta(c, ENTRY_COMPRESSION_KEY, database);
  return (ENTRY_COMPRESSIONS as readonly string[]).includes(recorded ?? '') ? (recorded as EntryCompression) : DEFAULT_ENTRY_COMPRESSION;
}

/** A value of the meta table, of the current database or an attached one; undefined when the file has no such key (or no meta). */
async function readMeta(c: DuckDBConnection, key: string, database?: string): Promise<string | undefined> {
  if (!(await tableExists(c, 'meta', database))) return undefined;
  const row = (await c.runAndReadAll(`SELECT value FROM ${database ? `"${database}".` : ''}meta WHERE key = ?`, [key])).getRowsJS()[0];
  return row ? String(row[0]) : undefined;
}

/**
 * Why the server and the loader cannot use a file (an older layout lacks what this code reads),
 * naming the command that migrates it; undefined when they can.
 */
export async function olderLayoutProblem(c: DuckDBConnection, path: string, database?: string): Promise<string | undefined> {
  const layout = await readSchemaVersion(c, database);
  if (layout === undefined || layout >= SCHEMA_VERSION) return undefined;
  return `${path} has the storage layout of an older version (${layout}; this one reads ${SCHEMA_VERSION}); migrate it with "vessel-events migrate --db ${path}"`;
}

/**
 * The generation the last load stamped (writer.ts commit). A file written before generations
 * existed gets one from its identity on disk, which a load (a rename of a new file) also changes.
 */
export async function readGeneration(c: DuckDBConnection, fileIdentity: string): Promise<string> {
  return (await readMeta(c, 'generation')) ?? `file:${fileIdentity}`;
}

export async function readGroupIds(c: DuckDBConnection): Promise<Set<string>> {
  if (!(await tableExists(c, 'vessel_groups'))) return new Set();
  const reader = await c.runAndReadAll(`SELECT DISTINCT group_id FROM vessel_groups`);
  return new Set(reader.getRowsJS().map((r) => r[0] as string));
}


export async function readRegionCatalog(c: DuckDBConnection): Promise<RegionCatalog> {
  const ids = new Map<string, Set<string>>();
  const regions: RegionCatalog = { ids, geometries: new Map(), labels: new Map() };
  if (await tableExists(c, 'region_ids')) {
    addToSets(ids, (await c.runAndReadAll(`SELECT member, id FROM region_ids`)).getRowsJS() as [string, string][]);
  }
  if (await tableExists(c, 'region_geometries')) {
    const hasIso3 = (await c.runAndReadAll(ISO3_COLUMN_SQL)).getRowsJS().length > 0;
    addGeometries(regions, (await c.runAndReadAll(regionGeometrySelect(hasIso3))).getRowsJS() as [string, string, string, string | null, string | null][]);
  }
  return regions;
}
