// spatial_events: for every event, its position and the columns a polygon query is commonly
// filtered and sorted on, sorted by (version, cell of the grid in src/geo/grid.ts, start). Events
// are stored by time, so a polygon query read a whole time window to find the few positions in a
// small area; here the cells near the polygons that hold events are a few ranges of the table that
// its zone maps find, an area where no event lies is answered without a statement, positions in
// cells wholly inside the polygons skip the exact test, and the rest are tested in TypeScript
// (docs/performance.md, "Polygons: a table sorted by place" and "Polygons: the exact test in
// TypeScript"). Its pages' entries are read by entries-by-id.ts. The loader writes it with events
// (writer.ts); a version is read from it once spatial_versions lists it.
import type { DuckDBConnection, DuckDBDataChunk, DuckDBResult, DuckDBValue } from '@duckdb/node-api';
import { bandedPolygon, passesEvenOdd, type BandedPolygon } from '../../geo/even-odd.ts';
import { CELL_KEY_SQL, cellsOfBox, type CellCover } from '../../geo/grid.ts';
import { spatialConditions } from '../spatial-plan.ts';
import { eventCellsOf } from '../event-cells.ts';
import type { Condition } from '../../query/plan.ts';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { ORDER_BY, SqlBuilder } from '../sql.ts';
import { renderCondition } from './render-plan.ts';
import { deleteVersionRows, tableExists, versionsMissingFrom } from './tables.ts';
import { entriesOf, type EntrySources } from './entries-by-id.ts';
import { float64Column, int32Column } from './chunk-columns.ts';
import type { Polygon } from '../../geo/geojson.ts';
import { streamRows } from './statements.ts';
import type { EntryChunk } from '../entry-bytes.ts';

export const CREATE_SPATIAL_TABLES = [
  `CREATE TABLE IF NOT EXISTS spatial_events (
     cell_key INTEGER NOT NULL, version_id USMALLINT NOT NULL, id VARCHAR NOT NULL, kind VARCHAR NOT NULL,
     start_ts TIMESTAMP NOT NULL, end_ts TIMESTAMP, lat DOUBLE NOT NULL, lon DOUBLE NOT NULL)`,
  // The versions whose rows are in spatial_events: a database written before the table has none.
  `CREATE TABLE IF NOT EXISTS spatial_versions (version_id USMALLINT PRIMARY KEY)`,
];

/** Copies the versions' rows from events, sorted by place, and lists the versions. */
async function insertSpatialRows(c: DuckDBConnection, versionIds: readonly number[]): Promise<void> {
  if (versionIds.length === 0) return;
  const list = versionIds.map(Number).join(', ');
  await c.run(`INSERT INTO spatial_events SELECT ${CELL_KEY_SQL} AS cell_key, version_id, id, kind, start_ts, end_ts, lat, lon
    FROM events WHERE version_id IN (${list}) ORDER BY version_id, cell_key, start_ts`);
  await c.run(`INSERT INTO spatial_versions SELECT unnest([${list}])`);
}

/** Writes the rows of every version not yet in spatial_events (all of them in an older file); resolves to how many. */
export async function writeMissingSpatialRows(c: DuckDBConnection): Promise<number> {
  const missing = await versionsMissingFrom(c, 'spatial_versions');
  await insertSpatialRows(c, missing);
  return missing.length;
}

export function dropSpatialRows(c: DuckDBConnection, versionId: number): Promise<void> {
  return deleteVersionRows(c, ['spatial_events', 'spatial_versions'], versionId);
}

/**
 * The cells holding events, ascending, of each version the server may read from spatial_events
 * (a version listed with no rows has none). Read once when the database is opened: a GROUP BY
 * over the table's narrowest column (80 ms on 10M events).
 */
export async function readSpatialCells(c: DuckDBConnection): Promise<Map<number, Int32Array>> {
  if (!(await tableExists(c, 'spatial_versions'))) return new Map();
  const versions = (await c.runAndReadAll(`SELECT version_id::INTEGER FROM spatial_versions`)).getRowsJS().map((r) => r[0] as number);
  const rows = (await c.runAndReadAll(`SELECT version_id::INTEGER, cell_key FROM spatial_events
    WHERE version_id IN (SELECT version_id FROM spatial_versions) GROUP BY ALL`)).getRowsJS() as [number, number][];
  return eventCellsOf(rows, versions);
}

/** A query the table answers: its polygons, their cells, and its other conditions. */
export interface SpatialPlan {
  query: EventQuery;
  polygons: readonly Polygon[];
  cover: CellCover;
  /** Ranges of keys to read: every cell of the cover that holds events, none that does not. */
  ranges: [number, number][];
  others: Condition[];
}

/** The plan when spatial_events answers the query (src/store/spatial-plan.ts), with the key ranges to read. */
export function spatialPlan(query: EventQuery, cells: ReadonlyMap<number, Int32Array>): SpatialPlan | undefined {
  const found = spatialConditions(query, cells);
  if (!found) return undefined;
  const occupied = query.datasets.map((d) => cells.get(d.resolved.versionId)!);
  return { query, polygons: found.polygons, cover: found.cover, ranges: rangesToRead(found.cover, occupied), others: found.others };
}

/** At most this many ranges (SELECTs of the UNION): each costs about a millisecond to plan and run. */
const MAX_RANGES = 12;

/**
 * The ranges of keys that hold the cover's occupied cells and as few other occupied cells as
 * possible: a cell no version holds costs nothing to include, one that holds events outside the
 * polygons costs its rows. An area where no event lies has no range, and no statement is run.
 */
function rangesToRead(cover: CellCover, occupied: readonly Int32Array[]): [number, number][] {
  const holds = (key: number) => occupied.some((keys) => binarySearch(keys, key) >= 0);
  /** Occupied cells strictly between two keys, in any version. */
  const between = (lo: number, hi: number) => occupied.reduce((n, keys) => n + Math.max(0, lowerBound(keys, hi) - lowerBound(keys, lo + 1)), 0);
  const wanted = [...cover.inside, ...cover.edge].filter(holds).sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  const costs: number[] = [];
  for (const key of wanted) {
    const last = ranges[ranges.length - 1];
    const cost = last ? between(last[1], key) : 0;
    if (last && cost === 0) last[1] = key;
    else {
      if (last) costs.push(cost);
      ranges.push([key, key]);
    }
  }
  // Past the limit, join the neighbours with the fewest foreign cells between them.
  while (ranges.length > MAX_RANGES) {
    const i = costs.indexOf(Math.min(...costs));
    ranges.splice(i, 2, [ranges[i]![0], ranges[i + 1]![1]]);
    costs.splice(i, 1);
  }
  return ranges;
}

/** The first index whose key is at least `key`. */
function lowerBound(keys: Int32Array, key: number): number {
  let [lo, hi] = [0, keys.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function binarySearch(keys: Int32Array, key: number): number {
  const at = lowerBound(keys, key);
  return keys[at] === key ? at : -1;
}

/**
 * Where a position stands, cell by cell: every position of a cell wholly inside passes, none of a
 * cell left out does, and one in a cell an edge comes near passes when the exact test
 * (src/geo/even-odd.ts) says so, against the polygons whose bounding boxes reach the cell. The test
 * runs here, on positions read as DuckDB's arrays of doubles, rather than in the SQL: a buffered
 * EEZ with events in a year of the 10M demo took 13-64 ms to count with the test in SQL (over its
 * banded edges, a list lambda per row) and 2-20 ms read and tested here (docs/performance.md,
 * "Polygons: the exact test in TypeScript").
 */
class PositionTest {
  private readonly base: number;
  /** By key - base: 0 no position passes, -1 every position passes, k > 0 test against near[k - 1]. */
  private readonly cells: Int32Array;
  private readonly near: BandedPolygon[][] = [];

  constructor(plan: SpatialPlan) {
    const { cover, ranges, polygons } = plan;
    this.base = ranges[0]?.[0] ?? 0;
    this.cells = new Int32Array(ranges.length ? ranges[ranges.length - 1]![1] - this.base + 1 : 0);
    const within = (key: number) => key >= this.base && key - this.base < this.cells.length;
    for (const key of cover.inside) if (within(key)) this.cells[key - this.base] = -1;
    const slots = new Map<number, BandedPolygon[]>();
    for (const key of cover.edge) if (within(key)) slots.set(key, []);
    for (const polygon of polygons.map(bandedPolygon)) {
      for (const key of cellsOfBox([polygon.min_lon, polygon.min_lat, polygon.max_lon, polygon.max_lat])) slots.get(key)?.push(polygon);
    }
    for (const [key, near] of slots) {
      this.near.push(near);
      this.cells[key - this.base] = this.near.length;
    }
  }

  passes(key: number, lat: number, lon: number): boolean {
    const slot = this.cells[key - this.base] ?? 0;
    if (slot <= 0) return slot < 0;
    for (const polygon of this.near[slot - 1]!) if (passesEvenOdd(polygon, lat, lon)) return true;
    return false;
  }
}

/** Each plan's test, built once: a count and the page that follows it share the plan. */
const tests = new WeakMap<SpatialPlan, PositionTest>();
function positionTestOf(plan: SpatialPlan): PositionTest {
  let test = tests.get(plan);
  if (!test) tests.set(plan, (test = new PositionTest(plan)));
  return test;
}

/**
 * The rows of the plan's ranges of cells that meet the query's other conditions: one SELECT per
 * range, joined by UNION ALL. Each range is a single BETWEEN the zone maps prune on; an OR of
 * ranges in one WHERE was not pruned (7 ranges: 9.8 ms against 0.8 for one, on 10M events).
 */
function rangeRows(b: SqlBuilder<DuckDBValue>, plan: SpatialPlan, select: string, also?: string): string {
  const conditions = plan.others.map((c) => renderCondition(b, c));
  if (also) conditions.push(also);
  const where = conditions.length ? conditions.join(' AND ') : 'TRUE';
  // The ranges are integers this code computed: written into the text.
  return plan.ranges.map(([lo, hi]) => `SELECT ${select} FROM spatial_events WHERE cell_key BETWEEN ${lo} AND ${hi} AND ${where}`).join(' UNION ALL ');
}

/**
 * Calls `visit` for each row that passes the test, of a statement whose first three columns are
 * cell_key, lat and lon, until it returns false; resolves to how many rows were read. The columns
 * are read from DuckDB's vectors (typed arrays), not converted row by row; `columnsOf` reads the
 * others `visit` needs once per chunk.
 */
async function forEachPassing<C>(result: DuckDBResult, test: PositionTest, columnsOf: (chunk: DuckDBDataChunk) => C, visit: (columns: C, row: number) => boolean): Promise<number> {
  let read = 0;
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const [keys, lats, lons] = [int32Column(chunk, 0), float64Column(chunk, 1), float64Column(chunk, 2)];
    const columns = columnsOf(chunk);
    // rowCount is a call into the driver each time it is read.
    for (let row = 0; row < keys.length; row++) {
      read++;
      if (test.passes(keys[row]!, lats[row]!, lons[row]!) && !visit(columns, row)) return read;
    }
  }
  return read;
}

/** A count of the positions that pass, and their starts (µs, in no order) for the page that follows. */
export interface SpatialCount {
  total: number;
  starts: Float64Array;
}

export async function spatialCount(c: DuckDBConnection, plan: SpatialPlan): Promise<SpatialCount> {
  if (plan.ranges.length === 0) return { total: 0, starts: new Float64Array(0) };
  const b = new SqlBuilder<DuckDBValue>();
  let starts = new Float64Array(1024);
  let total = 0;
  const rows = await streamRows(c, rangeRows(b, plan, 'cell_key, lat, lon, epoch_us(start_ts)::DOUBLE'), b.params);
  await forEachPassing(rows, positionTestOf(plan), (chunk) => float64Column(chunk, 3), (rowStarts, row) => {
    if (total === starts.length) {
      const grown = new Float64Array(total * 2);
      grown.set(starts);
      starts = grown;
    }
    starts[total++] = rowStarts[row]!;
    return true;
  });
  return { total, starts: starts.subarray(0, total) };
}

/** Pages up to this long are found here and their entries read by id (entriesOf); longer ones read events in order. */
export const SPATIAL_PAGE_LIMIT = 1000;

/**
 * The page's entries: found in spatial_events, then read by entriesOf (from events by windows of
 * starts, or from the point files). The rows of the ranges are sorted in DuckDB and tested here in
 * that order until the page is complete.
 *
 * With the starts of the rows that pass (`starts`, the count's when the same query was counted
 * first), a page sorted by start reads only the rows up to the start of its last row: the count
 * has already read and tested every row, and a second pass over all of them with their ids and a
 * sort took 7-15 ms more. Otherwise it reads, sorted, first twice as many rows as the page needs (a
 * top-N sort) and all of them when too few of those pass. `total` (the query's count, when known)
 * ends the reading as soon as no more rows can pass.
 */
export async function spatialPage(c: DuckDBConnection, plan: SpatialPlan, query: ListQuery, sources: EntrySources, total?: number, starts?: Float64Array): Promise<EntryChunk> {
  const wanted = Math.min(query.offset + query.limit, total ?? Infinity);
  if (plan.ranges.length === 0 || wanted <= query.offset) return [];
  const passes: { cap?: number; bound?: (b: SqlBuilder<DuckDBValue>) => string }[] = [];
  if (starts && starts.length === total && (query.sort === '+start' || query.sort === '-start')) {
    const last = nthSmallest(starts, query.sort === '+start' ? wanted - 1 : starts.length - wanted);
    passes.push({ bound: (b) => `start_ts ${query.sort === '+start' ? '<=' : '>='} make_timestamp(${b.param(BigInt(last))}::BIGINT)` });
  } else passes.push({ cap: 2 * wanted + 100 }, {});
  for (const { cap, bound } of passes) {
    const b = new SqlBuilder<DuckDBValue>();
    const rows = rangeRows(b, plan, 'cell_key, lat, lon, version_id, id, start_ts, end_ts', bound?.(b));
    const sql = `SELECT cell_key, lat, lon, version_id::INTEGER, id, epoch_us(start_ts)::DOUBLE FROM (${rows}) ORDER BY ${ORDER_BY[query.sort]}${cap === undefined ? '' : ` LIMIT ${cap}`}`;
    const page: [number, string, number][] = [];
    let passed = 0;
    const columnsOf = (chunk: DuckDBDataChunk) => ({ versions: int32Column(chunk, 3), ids: chunk.getColumnVector(4), rowStarts: float64Column(chunk, 5) });
    const read = await forEachPassing(await streamRows(c, sql, b.params), positionTestOf(plan), columnsOf, ({ versions, ids, rowStarts }, row) => {
      if (++passed > query.offset) page.push([versions[row]!, String(ids.getItem(row)), rowStarts[row]!]);
      return passed < wanted;
    });
    // Complete, or every row was read (none capped): the page is all there is.
    if (passed >= wanted || cap === undefined || read < cap) return entriesOf(c, page, sources);
  }
  throw new Error('unreachable: the last pass reads every row');
}

/** The value that would be at index k if the values were sorted ascending (a quickselect on a copy, linear on average). */
export function nthSmallest(values: Float64Array, k: number): number {
  const a = Float64Array.from(values);
  let [lo, hi] = [0, a.length - 1];
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let [i, j] = [lo, hi];
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        [a[i], a[j]] = [a[j]!, a[i]!];
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}
