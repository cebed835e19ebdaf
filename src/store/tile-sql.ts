// The rows of a map tile (GET /v3/events/tiles/{z}/{x}/{y}.pbf), in SQL both engines run as written:
// the list's WHERE (each engine's compileWhere), the tile's bounds on the stored position, and either
// the events' counts on a grid of the tile or the events themselves. The bounds and the grid come
// from src/geo/tiles.ts, so each event lies in one tile of a zoom and one cell of it.
import { EVENT_KINDS, type EventKind } from '../domain/kinds.ts';
import { MAX_MERCATOR_LAT, type TileBounds } from '../geo/tiles.ts';
import { sqlText } from './sql.ts';

export type Rows = (sql: string, params: readonly unknown[]) => Promise<unknown[][]>;
export interface TileWhere {
  sql: string;
  params: readonly unknown[];
  /** The rows' FROM, where it is not the events table (DuckDB's layered versions, layers.ts). */
  from?: string;
}

/** A grid cell holding events: its column and row in the tile's grid, counts per kind, distinct vessels. */
export interface TileCell {
  x: number;
  y: number;
  counts: Partial<Record<EventKind, number>>;
  total: number;
  vessels: number;
}

/** An event drawn as itself. */
export interface TilePoint {
  id: string;
  kind: EventKind;
  startMs: number;
  vesselId: string;
  lon: number;
  lat: number;
}

/** A number as an SQL literal: the bounds are computed, never taken from the request's text. */
function literal(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  return String(n);
}

/** The stored position within the tile's bounds (src/geo/tiles.ts says which edges it holds). */
export function inTileSql(t: TileBounds): string {
  return [
    `lon >= ${literal(t.west)}`,
    `lon ${t.lastColumn ? '<=' : '<'} ${literal(t.east)}`,
    ...(t.bottomRow ? [] : [`lat >= ${literal(t.south)}`]),
    ...(t.topRow ? [] : [`lat < ${literal(t.north)}`]),
  ].join(' AND ');
}

const whereInTile = (where: TileWhere, t: TileBounds) => (where.sql ? `${where.sql} AND ${inTileSql(t)}` : inTileSql(t));

/**
 * Counts per cell of a `grid` x `grid` division of the tile, per kind of `kinds` and in all, with
 * distinct vessels counted on `vesselKey`, the engine's key of vessel_id (a hash where it is cheaper).
 */
export async function readTileCells(rows: Rows, where: TileWhere, t: TileBounds, grid: number, vesselKey: string, kinds: readonly EventKind[]): Promise<TileCell[]> {
  const last = grid - 1;
  const column = `LEAST(${last}, GREATEST(0, CAST(floor((lon - ${literal(t.west)}) * ${literal(grid / (t.east - t.west))}) AS INTEGER)))`;
  const mercator = `ln(tan(pi() / 4 + radians(LEAST(${MAX_MERCATOR_LAT}, GREATEST(-${MAX_MERCATOR_LAT}, lat))) / 2))`;
  const row = `LEAST(${last}, GREATEST(0, CAST(floor((${literal(t.topY)} - ${mercator}) * ${literal(grid / (t.topY - t.bottomY))}) AS INTEGER)))`;
  // The tile's rows once, grouped by cell and vessel, then by cell: a vessel is a row of its cell,
  // so the cell's distinct vessels are a plain count, with no DISTINCT aggregate. World tiles of a
  // year of fishing at 10M: 40.0 ms p50 against 47.2 for the rows materialised and grouped twice,
  // by kind and with a distinct count (docs/performance.md, "Vector tiles").
  const known = EVENT_KINDS.filter((k) => kinds.includes(k));
  const double = (sql: string) => `CAST(${sql} AS DOUBLE PRECISION)`;
  const found = await rows(
    `SELECT cx, cy, ${double('sum(n)')}, ${double('count(*)')}${known.map((_, i) => `, ${double(`sum(n${i})`)}`).join('')} FROM (
       SELECT cx, cy, vessel, count(*) AS n${known.map((k, i) => `, count(*) FILTER (WHERE kind = ${sqlText(k)}) AS n${i}`).join('')} FROM (
         SELECT ${column} AS cx, ${row} AS cy, kind, ${vesselKey} AS vessel FROM ${where.from ?? 'events'} WHERE ${whereInTile(where, t)}) AS tile_rows
       GROUP BY cx, cy, vessel) AS cell_vessels
     GROUP BY cx, cy ORDER BY cy, cx`,
    where.params,
  );
  return found.map(([cx, cy, total, vessels, ...perKind]) => ({
    x: Number(cx),
    y: Number(cy),
    total: Number(total),
    vessels: Number(vessels),
    counts: Object.fromEntries(known.map((k, i) => [k, Number(perKind[i])]).filter(([, n]) => (n as number) > 0)),
  }));
}

/** The events in the tile, by start; `startMs` is the engine's expression of start_ts in epoch milliseconds. */
export async function readTilePoints(rows: Rows, where: TileWhere, t: TileBounds, startMs: string): Promise<TilePoint[]> {
  const found = await rows(
    `SELECT id, kind, ${startMs}, vessel_id, lon, lat FROM ${where.from ?? 'events'} WHERE ${whereInTile(where, t)} ORDER BY start_ts, id`,
    where.params,
  );
  return found.map(([id, kind, start, vesselId, lon, lat]) => ({ id: id as string, kind: kind as EventKind, startMs: Number(start), vesselId: vesselId as string, lon: Number(lon), lat: Number(lat) }));
}
