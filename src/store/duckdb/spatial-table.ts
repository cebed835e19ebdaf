// spatial_events: for every event, its position and the columns a polygon query is commonly
// filtered and sorted on, sorted by (version, cell of the grid in src/geo/grid.ts, start). Events
// are stored by time, so a polygon query read a whole time window to find the few positions in a
// small area; here the cells near the polygons are a few ranges of the table that its zone maps
// find, and positions in cells wholly inside the polygons skip the exact test
// (docs/performance.md, "Polygons: a table sorted by place"). The loader writes it with events
// (writer.ts); a version is read from it once spatial_versions lists it.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { CELL_KEY_SQL, coverCells, type CellCover } from '../../geo/grid.ts';
import { fieldsRead, planFilters, type Condition, type Field } from '../../query/plan.ts';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { ORDER_BY, SqlBuilder } from '../sql.ts';
import { compilePolygons } from './polygon-sql.ts';
import { DUCKDB_DIALECT, renderCondition } from './render-plan.ts';
import { tableExists } from './versions.ts';
import type { CompiledSql } from './compile.ts';

export const CREATE_SPATIAL_TABLES = [
  `CREATE TABLE IF NOT EXISTS spatial_events (
     cell_key INTEGER NOT NULL, version_id USMALLINT NOT NULL, id VARCHAR NOT NULL, kind VARCHAR NOT NULL,
     start_ts TIMESTAMP NOT NULL, end_ts TIMESTAMP, lat DOUBLE NOT NULL, lon DOUBLE NOT NULL)`,
  // The versions whose rows are in spatial_events: a database written before the table has none.
  `CREATE TABLE IF NOT EXISTS spatial_versions (version_id USMALLINT PRIMARY KEY)`,
];

/** Copies the versions' rows from events, sorted by place, and lists the versions. */
export async function insertSpatialRows(c: DuckDBConnection, versionIds: readonly number[]): Promise<void> {
  if (versionIds.length === 0) return;
  const list = versionIds.map(Number).join(', ');
  await c.run(`INSERT INTO spatial_events SELECT ${CELL_KEY_SQL} AS cell_key, version_id, id, kind, start_ts, end_ts, lat, lon
    FROM events WHERE version_id IN (${list}) ORDER BY version_id, cell_key, start_ts`);
  await c.run(`INSERT INTO spatial_versions SELECT unnest([${list}])`);
}

/** Writes the rows of every version not yet in spatial_events (all of them in an older file); resolves to how many. */
export async function writeMissingSpatialRows(c: DuckDBConnection): Promise<number> {
  const missing = (await c.runAndReadAll(
    `SELECT version_id::INTEGER FROM dataset_versions WHERE version_id NOT IN (SELECT version_id FROM spatial_versions) ORDER BY 1`,
  )).getRowsJS().map((r) => r[0] as number);
  await insertSpatialRows(c, missing);
  return missing.length;
}

export async function dropSpatialRows(c: DuckDBConnection, versionId: number): Promise<void> {
  await c.run(`DELETE FROM spatial_events WHERE version_id = ?`, [versionId]);
  await c.run(`DELETE FROM spatial_versions WHERE version_id = ?`, [versionId]);
}

/** The versions the server may read from spatial_events. */
export async function readSpatialVersions(c: DuckDBConnection): Promise<Set<number>> {
  if (!(await tableExists(c, 'spatial_versions'))) return new Set();
  return new Set((await c.runAndReadAll(`SELECT version_id::INTEGER FROM spatial_versions`)).getRowsJS().map((r) => r[0] as number));
}

/** The fields spatial_events has columns for, besides the position. */
const SPATIAL_FIELDS: ReadonlySet<Field> = new Set<Field>(['version', 'id', 'kind', 'start', 'end']);

/**
 * Cells a query's polygons may cover: a bounding box wider than this (about 20 x 20 degrees) is
 * read from events, where the cell lists would grow long and prune little.
 */
const MAX_CELLS = 1600;

/** A query the table answers, with the cells of its polygons. */
export interface SpatialPlan {
  query: EventQuery;
  cover: CellCover;
}

/**
 * The plan when spatial_events answers the query: every dataset version is in it, one of the
 * query's conditions is its polygons, and every other condition reads only fields the table has
 * (versions, ids, kinds, start and end: the time window, types, durations, open gaps).
 */
export function spatialPlan(query: EventQuery, versions: ReadonlySet<number>): SpatialPlan | undefined {
  if (!query.datasets.every((d) => versions.has(d.resolved.versionId))) return undefined;
  const conditions = planFilters(query);
  const polygons = conditions.filter((c): c is Extract<Condition, { is: 'inPolygons' }> => c.is === 'inPolygons');
  if (polygons.length !== 1) return undefined;
  const { fields, other } = fieldsRead(conditions.filter((c) => c.is !== 'inPolygons'));
  if (other.size > 0 || ![...fields].every((f) => SPATIAL_FIELDS.has(f))) return undefined;
  const cover = coverCells(polygons[0]!.polygons, MAX_CELLS);
  return cover && { query, cover };
}

/**
 * The query's rows in spatial_events with the given columns: one SELECT per range of cells, joined
 * by UNION ALL. Each range is a single BETWEEN the zone maps prune on; an OR of ranges in one
 * WHERE was not pruned (7 ranges: 9.8 ms against 0.8 for one, on 10M events). Undefined when no
 * cell can hold a match.
 */
export function spatialRows(plan: SpatialPlan, select: string): CompiledSql | undefined {
  const { cover } = plan;
  if (cover.ranges.length === 0) return undefined;
  const b = new SqlBuilder<DuckDBValue>();
  const keys = (list: number[]) => (list.length ? `cell_key IN (${list.join(', ')})` : 'FALSE');
  const dialect = { ...DUCKDB_DIALECT, inPolygons: (sb: SqlBuilder<DuckDBValue>, polygons: Parameters<typeof compilePolygons>[1]) => `(${keys(cover.inside)} OR (${keys(cover.edge)} AND ${compilePolygons(sb, polygons)}))` };
  const where = planFilters(plan.query).map((c) => renderCondition(b, c, dialect)).join(' AND ');
  // The keys are integers this code computed: written into the text, as the ranges are.
  const parts = cover.ranges.map(([lo, hi]) => `SELECT ${select} FROM spatial_events WHERE cell_key BETWEEN ${lo} AND ${hi} AND ${where}`);
  return { sql: parts.join(' UNION ALL '), params: b.params };
}

export async function spatialCount(c: DuckDBConnection, plan: SpatialPlan): Promise<number> {
  const rows = spatialRows(plan, '1');
  if (!rows) return 0;
  return (await c.runAndReadAll(`SELECT count(*)::DOUBLE FROM (${rows.sql})`, rows.params)).getRowsJS()[0]![0] as number;
}

/** Pages up to this long are found here and their entries read by id; longer ones read events in order. */
export const SPATIAL_PAGE_LIMIT = 1000;

/**
 * The page's entries: found in spatial_events, then read from events by version, start and id
 * (events are sorted by version and start, so the zone maps find them).
 */
export async function spatialPage(c: DuckDBConnection, plan: SpatialPlan & { query: ListQuery }): Promise<string[]> {
  const { query } = plan;
  const rows = spatialRows(plan, 'version_id, id, start_ts, end_ts');
  if (!rows) return [];
  const n = rows.params.length;
  const page = (await c.runAndReadAll(
    `SELECT version_id::INTEGER, id, epoch_us(start_ts)::DOUBLE FROM (${rows.sql}) ORDER BY ${ORDER_BY[query.sort]} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...rows.params, query.limit, query.offset],
  )).getRowsJS() as [number, string, number][];
  const byVersion = new Map<number, { ids: string[]; first: number; last: number }>();
  for (const [version, id, startUs] of page) {
    const v = byVersion.get(version) ?? { ids: [], first: startUs, last: startUs };
    v.ids.push(id);
    v.first = Math.min(v.first, startUs);
    v.last = Math.max(v.last, startUs);
    byVersion.set(version, v);
  }
  const entries = new Map<string, string>();
  for (const [version, { ids, first, last }] of byVersion) {
    const b = new SqlBuilder<DuckDBValue>();
    const sql = `SELECT id, entry FROM events WHERE version_id = ${b.param(version)} AND start_ts BETWEEN make_timestamp(${b.param(BigInt(first))}::BIGINT) AND make_timestamp(${b.param(BigInt(last))}::BIGINT) AND id IN (${b.placeholders(ids)})`;
    for (const [id, entry] of (await c.runAndReadAll(sql, b.params)).getRowsJS() as [string, string][]) entries.set(`${version}\u0000${id}`, entry);
  }
  return page.map(([version, id]) => {
    const entry = entries.get(`${version}\u0000${id}`);
    if (entry === undefined) throw new Error(`event ${id} of version ${version} is in spatial_events but not in events`);
    return entry;
  });
}
