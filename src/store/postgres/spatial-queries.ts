// Queries on spatial_events (spatial-table.ts): a polygon query's total and its pages, from the
// rows of the cells its polygons cover. A version whose lineage was updated has its rows of
// spatial_added too, less those of either table hidden from it (change-tables.ts).
import type { Condition } from '../../query/plan.ts';
import type { ListQuery } from '../../query/types.ts';
import type { SortValue } from '../../query/enumerations.ts';
import type { SpatialConditions } from '../spatial-plan.ts';
import { ORDER_BY, SqlBuilder } from '../sql.ts';
import { joinedPage, PAGE_KEY_COLUMNS, type CompiledSql } from './compile.ts';
import type { VersionScope } from './lineage.ts';
import { renderCondition } from './render-plan.ts';
import { readsUpdates, SPATIAL_CHANGES } from './change-tables.ts';

/** The polygons' shape in SQL, its GeoJSON a parameter. */
const shapeOf = (b: SqlBuilder, plan: SpatialConditions) => `ST_SetSRID(ST_GeomFromGeoJSON(${b.param(JSON.stringify({ type: 'MultiPolygon', coordinates: plan.polygons }))}), 4326)`;
/** A row's own position in the polygons, as the events' `position` is tested (render-plan.ts inPolygons). */
const positionIn = (shape: string) => `ST_Intersects(ST_SetSRID(ST_MakePoint(lon, lat), 4326), ${shape})`;

/**
 * `part` of each set of the polygons' cells with the test its rows take: the cells wholly inside
 * none, those an edge comes near their own position; a set without cells has no part.
 */
function cellParts<T>(b: SqlBuilder, plan: SpatialConditions, part: (cells: readonly number[], test: string[]) => T): T[] {
  const { inside, edge } = plan.cover;
  return [...(inside.length > 0 ? [part(inside, [])] : []), ...(edge.length > 0 ? [part(edge, [positionIn(shapeOf(b, plan))])] : [])];
}

/**
 * The rows in the polygons that meet `others`: the cells wholly inside count as they are, the rows
 * of the cells an edge comes near are tested on their own position.
 */
function rowsWhere(b: SqlBuilder, plan: SpatialConditions, others: readonly Condition[], scope: VersionScope): string {
  const { inside, edge } = plan.cover;
  const inPolygons = cellParts(b, plan, (cells, test) => `(${[`cell_key = ANY(${b.param(cells)}::integer[])`, ...test].join(' AND ')})`);
  return [
    `cell_key = ANY(${b.param([...inside, ...edge])}::integer[])`,
    inPolygons.length > 0 ? `(${inPolygons.join(' OR ')})` : 'FALSE',
    ...others.map((c) => renderCondition(b, c, scope)),
  ].join(' AND ');
}

/**
 * The query's total (change-tables.ts countSql), spatial_events' own rows counted by ownRowsCount;
 * the rows updates add and hide are few, and their counts read their indexes alone as they are.
 */
export function spatialCountSql(plan: SpatialConditions, scope: VersionScope, updatedLineages: ReadonlySet<number>): CompiledSql {
  return SPATIAL_CHANGES.countSql(plan.others, scope, updatedLineages, (b, versions) => rowsWhere(b, plan, plan.others, versions), (b) => ownRowsCount(b, plan, scope));
}

/**
 * spatial_events' own rows in the polygons that meet the query's other conditions: the cells wholly
 * inside and those an edge comes near counted apart, each an index-only scan of its cells. One
 * count of both (rowsWhere's OR) was planned as a bitmap scan, which read the rows' heap pages too:
 * three boxes of the benchmark's polygon class at 10M, page cache dropped, 142-218 ms against 92-122
 * apart, 9-17 ms warm against 6-14 (2026-12-05; docs/performance.md, "The PostgreSQL engine:
 * polygons").
 */
function ownRowsCount(b: SqlBuilder, plan: SpatialConditions, scope: VersionScope): string {
  const others = plan.others.map((c) => renderCondition(b, c, scope));
  const counts = cellParts(b, plan, (cells, test) => `(SELECT count(*) FROM spatial_events WHERE ${[`cell_key = ANY(${b.param(cells)}::integer[])`, ...test, ...others].join(' AND ')})`);
  return counts.length > 0 ? `(${counts.join(' + ')})` : '0';
}

/** The orders of spatial_events' index within a cell (version_id, cell_key, start_ts, id). */
const CELL_ORDERED: ReadonlySet<SortValue> = new Set(['+start', '-start']);
/**
 * The most index entries a page may read a cell at a time (its cells times the rows up to its end);
 * past it, every row in the polygons is read and sorted once. A 6-degree box and 10 nm, 196 cells
 * (144 inside), a first page: 19,600 at most, 11,254 read, against the 38,396 rows of a year of
 * fishing there at 10M (EXPLAIN ANALYZE, 2026-12-04).
 */
const MAX_CELL_ROWS = 40_000;

/**
 * A page: its rows found and sorted on spatial_events (and for an updated version spatial_added,
 * less the rows hidden from it), then joined to their events. In start order, over few enough
 * cells, each cell's first rows up to the page's end are read in the index's order and only those
 * sorted (firstRowsPerCell); else every row in the polygons is. The hidden rows are taken off as a
 * set (EXCEPT ALL: each hidden row is one row of either table, with its key, end and the version
 * that added it), not by a lookup per row, which took 75 of a page's 326 ms for 50,000 rows (the 10M
 * catalogue's fishing version, 2026-11-29; docs/performance.md, "The PostgreSQL engine: updates").
 */
export function spatialPageSql(plan: SpatialConditions, query: ListQuery, scope: VersionScope, updatedLineages: ReadonlySet<number>): CompiledSql {
  const b = new SqlBuilder();
  const pageEnd = query.offset + query.limit;
  const cells = plan.cover.inside.length + plan.cover.edge.length;
  const perCell = CELL_ORDERED.has(query.sort) && cells > 0 && cells * pageEnd <= MAX_CELL_ROWS;
  const columns = `${PAGE_KEY_COLUMNS}, end_ts`;
  const rowsOf = (table: string, condition: string) => `SELECT ${columns} FROM ${table} WHERE ${condition}`;
  if (!readsUpdates(plan.others, scope, updatedLineages)) {
    const rows = perCell ? firstRowsPerCell(b, plan, query, scope, 'spatial_events', () => `${b.param(pageEnd)}::bigint`) : rowsOf('spatial_events', rowsWhere(b, plan, plan.others, scope));
    return { sql: joinedPage(b, query, rows), params: b.params };
  }
  const hiddenWhere = rowsWhere(b, plan, plan.others, scope.hiddenRows());
  const hidden = rowsOf(SPATIAL_CHANGES.hidden, hiddenWhere);
  // Each hidden row takes off at most one row of the two tables, so the page is among their first
  // rows up to its end plus as many as are hidden (in each cell, as many as are hidden there): the
  // set difference is taken on those alone.
  const end = `${b.param(pageEnd)}::bigint`;
  const reach = `${end} + (SELECT count(*) FROM (${hidden}) h)`;
  const reachInCell = (cell: string) => `${end} + (SELECT count(*) FROM ${SPATIAL_CHANGES.hidden} WHERE ${hiddenWhere} AND cell_key = ${cell})`;
  const where = perCell ? '' : rowsWhere(b, plan, plan.others, scope);
  const first = (table: string) => (perCell ? `(${firstRowsPerCell(b, plan, query, scope, table, reachInCell)})` : `(${rowsOf(table, where)} ORDER BY ${ORDER_BY[query.sort]} LIMIT ${reach})`);
  const held = `(SELECT * FROM (${first('spatial_events')} UNION ALL ${first(SPATIAL_CHANGES.added)}) u ORDER BY ${ORDER_BY[query.sort]} LIMIT ${reach}) EXCEPT ALL ${hidden}`;
  return { sql: joinedPage(b, query, held), params: b.params };
}

/**
 * The first rows (in the query's order) of each cell of the polygons in `table`, as many as
 * `reach` says of the cell (an SQL expression of its cell_key), those of the cells an edge comes
 * near tested on their position: each an index scan of one cell from the window on, stopped there,
 * rather than every row in the polygons read and sorted.
 */
function firstRowsPerCell(b: SqlBuilder, plan: SpatialConditions, query: ListQuery, scope: VersionScope, table: string, reach: (cell: string) => string): string {
  const others = plan.others.map((c) => renderCondition(b, c, scope));
  const cellRows = (cells: readonly number[], test: string[]) =>
    `SELECT r.* FROM unnest(${b.param(cells)}::integer[]) AS c(cell_key), LATERAL (SELECT ${PAGE_KEY_COLUMNS}, end_ts FROM ${table} t
      WHERE ${['t.cell_key = c.cell_key', ...test, ...others].join(' AND ')} ORDER BY ${ORDER_BY[query.sort]} LIMIT ${reach('c.cell_key')}) r`;
  return cellParts(b, plan, cellRows).join(' UNION ALL ');
}
