// Reading the catalog of a PostgreSQL database: loaded dataset versions, vessel group ids, region
// ids and geometries, the generation the last writer stamped. A database no load has written yet
// has none of the tables, and reads as empty: the server starts and waits for a first load.
import type pg from 'pg';
import type { DatasetVersion } from '../../query/datasets.ts';
import { addGeometries, addToSets, toDatasetVersion, type CatalogContents, type RegionCatalog } from '../catalog.ts';
import { ISO3_COLUMN_SQL, regionGeometrySelect } from '../sql.ts';
import { eventCellsOf, type EventCells } from '../event-cells.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { readStatsRollupVersions } from './stats-rollups.ts';
import { readRegionTableVersions } from './region-table.ts';
import { readRegionMonthVersions } from './region-months.ts';
import { REGION_CHANGES, SPATIAL_CHANGES, VESSEL_CHANGES } from './change-tables.ts';
import { readVesselTableVersions } from './vessel-table.ts';
import { readSpatialTableVersions } from './spatial-table.ts';
import { VersionScope, type VersionPlacement } from './lineage.ts';

/** Whether a table exists: a database no load has written to has none. */
export async function tableExists(c: pg.ClientBase, name: string): Promise<boolean> {
  return (await c.query('SELECT to_regclass($1) IS NOT NULL AS present', [name])).rows[0].present as boolean;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

export async function readVersions(c: pg.ClientBase): Promise<DatasetVersion[]> {
  if (!(await tableExists(c, 'dataset_versions'))) return [];
  const rows = (await c.query({
    text: `SELECT version_id, dataset_id, kind, version, to_char(loaded_at, ${ISO}), row_count::float8, to_char(last_updated, ${ISO}),
                  longest_ms::float8, (extract(epoch FROM earliest_open_start) * 1000)::float8
             FROM dataset_versions ORDER BY version_id`,
    rowMode: 'array',
  })).rows as unknown[][];
  return rows.map(toDatasetVersion);
}

/** The layout a writer stamped in meta, or undefined in a database no writer has written. */
export async function readLayout(c: pg.ClientBase): Promise<number | undefined> {
  if (!(await tableExists(c, 'meta'))) return undefined;
  const row = (await c.query(`SELECT value FROM meta WHERE key = 'schema_version'`)).rows[0] as { value: string } | undefined;
  return row ? Number(row.value) : undefined;
}

/** Why this code cannot use the database (another layout), or undefined when it can. */
export async function schemaProblem(c: pg.ClientBase): Promise<string | undefined> {
  const layout = await readLayout(c);
  if (layout === undefined || layout === SCHEMA_VERSION) return undefined;
  const how = layout < SCHEMA_VERSION ? `; run "vessel-events migrate --engine postgres --database-url URL" to move it to layout ${SCHEMA_VERSION} (its events are kept)` : '';
  return `the database has the PostgreSQL layout ${layout}; this version reads layout ${SCHEMA_VERSION}${how}`;
}

/** The generation the last writer stamped ('empty' before any). */
export async function readGeneration(c: pg.ClientBase): Promise<string> {
  if (!(await tableExists(c, 'meta'))) return 'empty';
  return ((await c.query(`SELECT value FROM meta WHERE key = 'generation'`)).rows[0] as { value: string } | undefined)?.value ?? 'empty';
}

/** The cells holding events of each version whose cells the load wrote (event_cells). */
async function readEventCells(c: pg.ClientBase): Promise<EventCells> {
  if (!(await tableExists(c, 'event_cell_versions'))) return new Map();
  const versions = (await c.query({ text: 'SELECT version_id FROM event_cell_versions', rowMode: 'array' })).rows.map((r) => r[0] as number);
  const rows = (await c.query({ text: 'SELECT version_id, cell_key FROM event_cells WHERE version_id IN (SELECT version_id FROM event_cell_versions)', rowMode: 'array' })).rows as [number, number][];
  return eventCellsOf(rows, versions);
}

export interface PostgresCatalog extends CatalogContents {
  /** The versions with statistics rollups (stats-rollups.ts). */
  statsRollupVersions: ReadonlySet<number>;
  /** The versions region_events holds (region-table.ts). */
  regionTableVersions: ReadonlySet<number>;
  /** The versions whose rows of region_events are counted by month (region-months.ts). */
  regionMonthVersions: ReadonlySet<number>;
  /** The lineages whose updates added and hid rows by region (change-tables.ts). */
  regionUpdatedLineages: ReadonlySet<number>;
  /** The lineages whose updates added and hid rows by place (change-tables.ts). */
  spatialUpdatedLineages: ReadonlySet<number>;
  /** The versions spatial_events holds (spatial-table.ts). */
  spatialTableVersions: ReadonlySet<number>;
  /** The versions vessel_events holds (vessel-table.ts). */
  vesselTableVersions: ReadonlySet<number>;
  /** The lineages whose updates added and hid rows by vessel (change-tables.ts). */
  vesselUpdatedLineages: ReadonlySet<number>;
  /** Where each version's rows are (lineage.ts). */
  scope: VersionScope;
}

/** Each version's partition, as the catalog says (lineage.ts). */
export async function readPlacements(c: pg.ClientBase): Promise<VersionPlacement[]> {
  if (!(await tableExists(c, 'dataset_versions'))) return [];
  return (await c.query<{ version_id: number; lineage_id: number | null }>('SELECT version_id, lineage_id FROM dataset_versions')).rows.map((r) => ({ versionId: r.version_id, lineageId: r.lineage_id }));
}

/** Everything the store keeps of the catalog, read in one snapshot (a REPEATABLE READ transaction). */
export async function readCatalog(c: pg.ClientBase): Promise<PostgresCatalog> {
  await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const problem = await schemaProblem(c);
    if (problem) throw new Error(problem);
    const generation = await readGeneration(c);
    const versions = await readVersions(c);
    const groups = new Set<string>();
    const regions: RegionCatalog = { ids: new Map(), geometries: new Map(), labels: new Map() };
    // The tables are created together, by the first writer.
    if (await tableExists(c, 'vessel_groups')) {
      for (const r of (await c.query({ text: 'SELECT DISTINCT group_id FROM vessel_groups', rowMode: 'array' })).rows) groups.add(r[0] as string);
      addToSets(regions.ids, (await c.query({ text: 'SELECT member, id FROM region_ids', rowMode: 'array' })).rows as [string, string][]);
      const hasIso3 = (await c.query(ISO3_COLUMN_SQL)).rowCount! > 0;
      addGeometries(regions, (await c.query({ text: regionGeometrySelect(hasIso3), rowMode: 'array' })).rows as [string, string, string, string | null, string | null][]);
    }
    return { versions, groups, regions, generation, cells: await readEventCells(c), statsRollupVersions: await readStatsRollupVersions(c), regionTableVersions: await readRegionTableVersions(c), regionMonthVersions: await readRegionMonthVersions(c), regionUpdatedLineages: await REGION_CHANGES.readUpdatedLineages(c), spatialTableVersions: await readSpatialTableVersions(c), spatialUpdatedLineages: await SPATIAL_CHANGES.readUpdatedLineages(c), vesselTableVersions: await readVesselTableVersions(c), vesselUpdatedLineages: await VESSEL_CHANGES.readUpdatedLineages(c), scope: new VersionScope(await readPlacements(c)) };
  } finally {
    await c.query('COMMIT');
  }
}
