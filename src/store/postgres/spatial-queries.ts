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

/** The query's total (change-tables.ts countSql). */
export function spatialCountSql(plan: SpatialConditions, scope: VersionScope, updatedLineages: ReadonlySet<number>): CompiledSql {
  return SPATIAL_CHANGES.countSql(plan.others, scope, updatedLineages, (b, versions) => rowsWhere(b, plan, plan.others, versions));
}

/**
 * A page: its rows found and sorted on spatial_events (and for an updated version spatial_added,
 * less the rows hidden from it), then joined to their events. The hidden rows are taken off as a
 * set (EXCEPT ALL: each hidden row is one row of either table, with its key, end and the version
 * that added it), not by a lookup per row: a polygon's page sorts every row in it, and a lookup in
 * spatial_hidden per row took 75 of a page's 326 ms for 50,000 rows (the 10M catalogue's fishing
 * version, 2026-11-29; docs/performance.md, "The PostgreSQL engine: updates").
 */
export function spatialPageSql(plan: SpatialConditions, query: ListQuery, scope: VersionScope, updatedLineages: ReadonlySet<number>): CompiledSql {
  const b = new SqlBuilder();
  const where = rowsWhere(b, plan, plan.others, scope);
  const rowsOf = (table: string, condition: string) => `SELECT ${PAGE_KEY_COLUMNS}, end_ts FROM ${table} WHERE ${condition}`;
  if (!readsUpdates(plan.others, scope, updatedLineages)) return { sql: joinedPage(b, query, rowsOf('spatial_events', where)), params: b.params };
  const hidden = rowsWhere(b, plan, plan.others, scope.hiddenRows());
  const held = `(${rowsOf('spatial_events', where)} UNION ALL ${rowsOf(SPATIAL_CHANGES.added, where)}) EXCEPT ALL ${rowsOf(SPATIAL_CHANGES.hidden, hidden)}`;
  return { sql: joinedPage(b, query, held), params: b.params };
}
