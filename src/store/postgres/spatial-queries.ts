// Queries on spatial_events (spatial-table.ts): a polygon query's total and its pages, from the
// rows of the cells its polygons cover.
import type { ListQuery } from '../../query/types.ts';
import type { SpatialConditions } from '../spatial-plan.ts';
import { SqlBuilder } from '../sql.ts';
import { joinedPage, PAGE_KEY_COLUMNS, type CompiledSql } from './compile.ts';
import type { VersionScope } from './lineage.ts';
import { renderCondition } from './render-plan.ts';

/**
 * The rows in the polygons that meet the other conditions: the cells wholly inside count as they
 * are, the rows of the cells an edge comes near are tested on their own position, as the events'
 * `position` is (render-plan.ts inPolygons).
 */
function rowsWhere(b: SqlBuilder, plan: SpatialConditions, scope: VersionScope): string {
  const { inside, edge } = plan.cover;
  const shape = `ST_SetSRID(ST_GeomFromGeoJSON(${b.param(JSON.stringify({ type: 'MultiPolygon', coordinates: plan.polygons }))}), 4326)`;
  const inPolygons = [
    ...(inside.length > 0 ? [`cell_key = ANY(${b.param(inside)}::integer[])`] : []),
    ...(edge.length > 0 ? [`(cell_key = ANY(${b.param(edge)}::integer[]) AND ST_Intersects(ST_SetSRID(ST_MakePoint(lon, lat), 4326), ${shape}))`] : []),
  ];
  return [
    `cell_key = ANY(${b.param([...inside, ...edge])}::integer[])`,
    inPolygons.length > 0 ? `(${inPolygons.join(' OR ')})` : 'FALSE',
    ...plan.others.map((c) => renderCondition(b, c, scope)),
  ].join(' AND ');
}

export function spatialCountSql(plan: SpatialConditions, scope: VersionScope): CompiledSql {
  const b = new SqlBuilder();
  return { sql: `SELECT count(*)::float8 FROM spatial_events WHERE ${rowsWhere(b, plan, scope)}`, params: b.params };
}

/** A page: its rows found and sorted on spatial_events, then joined to their events. */
export function spatialPageSql(plan: SpatialConditions, query: ListQuery, scope: VersionScope): CompiledSql {
  const b = new SqlBuilder();
  return { sql: joinedPage(b, query, `SELECT ${PAGE_KEY_COLUMNS}, end_ts FROM spatial_events WHERE ${rowsWhere(b, plan, scope)}`), params: b.params };
}
