// When a table of positions by place (DuckDB's spatial_events, src/store/duckdb/spatial-table.ts;
// PostgreSQL's, src/store/postgres/spatial-table.ts) answers a query: the rule both engines follow.
// Each table holds, per event, its position, the grid cell it lies in (src/geo/grid.ts) and the
// columns a polygon query is commonly filtered and sorted on.
import { coverCells, type CellCover } from '../geo/grid.ts';
import type { Polygon } from '../geo/geojson.ts';
import { fieldsRead, type Condition, type Field } from '../query/plan.ts';
import type { EventQuery } from '../query/types.ts';

/** The fields the tables have columns for, besides the position. */
const SPATIAL_FIELDS: ReadonlySet<Field> = new Set<Field>(['version', 'id', 'kind', 'start', 'end']);

/**
 * Cells a query's polygons may cover, counted in their bounding boxes: past this (about 100 x 100
 * degrees) they are read from events, where the cells would prune little. Russia's EEZ, whose
 * boxes span 38,000 cells, took 118-127 ms from events (a year of the 10M demo's fishing events).
 */
const MAX_CELLS = 40_000;

/** A query a table by place answers: its polygons, the cells they cover, its other conditions. */
export interface SpatialConditions {
  polygons: readonly Polygon[];
  cover: CellCover;
  others: Condition[];
}

/**
 * The polygons and other conditions when a table by place answers the query: every dataset version
 * is in it (`versions` holds it), one of the query's conditions is its polygons, their boxes span
 * at most MAX_CELLS cells, and every other condition reads only fields the table has (versions,
 * ids, kinds, start and end: the time window, types, durations, open gaps).
 */
export function spatialConditions(query: EventQuery, versions: { has(versionId: number): boolean }): SpatialConditions | undefined {
  if (!query.datasets.every((d) => versions.has(d.resolved.versionId))) return undefined;
  const conditions = query.filters.conditions;
  const polygons = conditions.filter((c): c is Extract<Condition, { is: 'inPolygons' }> => c.is === 'inPolygons');
  if (polygons.length !== 1) return undefined;
  const others = conditions.filter((c) => c.is !== 'inPolygons');
  const { fields, other } = fieldsRead(others);
  if (other.size > 0 || ![...fields].every((f) => SPATIAL_FIELDS.has(f))) return undefined;
  const cover = coverCells(polygons[0]!.polygons, MAX_CELLS);
  if (!cover) return undefined;
  return { polygons: polygons[0]!.polygons, cover, others };
}
