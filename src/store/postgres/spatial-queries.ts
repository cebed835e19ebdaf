// Queries on spatial_events (spatial-table.ts): a polygon query's total and its pages, from the
// rows of the cells its polygons cover. A version whose lineage was updated has its rows of
// spatial_added too, less those of either table hidden from it (change-tables.ts).
import type { Condition } from '../../query/plan.ts';
import type { ListQuery } from '../../query/types.ts';
import type { SpatialConditions } from '../spatial-plan.ts';
import { SqlBuilder } from '../sql.ts';
import { joinedPage, PAGE_KEY_COLUMNS, type CompiledSql } from './compile.ts';
import type { VersionScope } from './lineage.ts';
import { renderCondition } from './render-plan.ts';
import { readsUpdates, SPATIAL_CHANGES } from './change-tables.ts';

/**
 * The rows in the polygons that meet `others`: the cells wholly inside count as they are, the rows
 * of the cells an edge comes near are tested on their own position, as the events' `position` is
 * (render-plan.ts inPolygons).
 */
function rowsWhere(b: SqlBuilder, plan: SpatialConditions, others: readonly Condition[], scope: VersionScope): string {
  const { inside, edge } = plan.cover;
  const shape = `ST_SetSRID(ST_GeomFromGeoJSON(${b.param(JSON.stringify({ type: 'MultiPolygon', coordinates: plan.polygons }))}), 4326)`;
  const inPolygons = [
    ...(inside.length > 0 ? [`cell_key = ANY(${b.param(inside)}::integer[])`] : []),
    ...(edge.length > 0 ? [`(cell_key = ANY(${b.param(edge)}::integer[]) AND ST_Intersects(ST_SetSRID(ST_MakePoint(lon, lat), 4326), ${shape}))`] : []),
  ];
  return [
    `cell_key = ANY(${b.param([...inside, ...edge])}::integer[])`,
    inPolygons.length > 0 ? `(${inPolygons.join(' OR ')})` : 'FALSE',
    ...others.map((c) => renderCondition(b, c, scope)),
  ].join(' AND ');
}

/**
 * The query's total; for an updated version, plus the rows added and less those hidden, each
 * counted on its table's index as the rows by region are (region-queries.ts).
 */
export function spatialCountSql(plan: SpatialConditions, scope: VersionScope, updatedLineages: ReadonlySet<number>): CompiledSql {
  const b = new SqlBuilder();
  const where = rowsWhere(b, plan, plan.others, scope);
  if (!readsUpdates(plan.others, scope, updatedLineages)) return { sql: `SELECT count(*)::float8 FROM spatial_events WHERE ${where}`, params: b.params };
  const hidden = rowsWhere(b, plan, plan.others, scope.hiddenRows());
  return {
    sql: `SELECT ((SELECT count(*) FROM spatial_events WHERE ${where}) + (SELECT count(*) FROM spatial_added WHERE ${where}) - (SELECT count(*) FROM spatial_hidden WHERE ${hidden}))::float8`,
    params: b.params,
  };
}

/**
 * A page: its rows found and sorted on spatial_events (and for an updated version spatial_added,
 * less the rows hidden from it, a SELECT per version and table), then joined to their events; or
 * undefined where the versions are not one condition of their own to read each by.
 */
export function spatialPageSql(plan: SpatialConditions, query: ListQuery, scope: VersionScope, updatedLineages: ReadonlySet<number>): CompiledSql | undefined {
  const b = new SqlBuilder();
  if (!readsUpdates(plan.others, scope, updatedLineages)) {
    return { sql: joinedPage(b, query, `SELECT ${PAGE_KEY_COLUMNS}, end_ts FROM spatial_events WHERE ${rowsWhere(b, plan, plan.others, scope)}`), params: b.params };
  }
  const versionsAt = plan.others.findIndex((c) => c.is === 'oneOf' && c.field === 'version');
  const versions = plan.others[versionsAt];
  if (versions?.is !== 'oneOf') return undefined;
  const where = rowsWhere(b, plan, plan.others.filter((_, i) => i !== versionsAt), scope);
  const rows = [...new Set(versions.values)].map(Number).flatMap((v) => {
    const tables = updatedLineages.has(scope.partitionOf(v)) ? ['spatial_events', SPATIAL_CHANGES.added] : ['spatial_events'];
    return tables.map((table) => `SELECT ${PAGE_KEY_COLUMNS}, end_ts FROM ${table} WHERE ${SPATIAL_CHANGES.rowsHeld(b, scope, updatedLineages, table, v)} AND ${where}`);
  });
  return { sql: joinedPage(b, query, rows.join(' UNION ALL ')), params: b.params };
}
