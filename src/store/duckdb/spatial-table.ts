// spatial_events: for every event, its position and the columns a polygon query is commonly
// filtered and sorted on, sorted by (version, cell of the grid in src/geo/grid.ts, start). Events
// are stored by time, so a polygon query read a whole time window to find the few positions in a
// small area; here the cells near the polygons that hold events are a few ranges of the table that
// its zone maps find, an area where no event lies is answered without a statement, and positions in
// cells wholly inside the polygons skip the exact test (docs/performance.md, "Polygons: a table
// sorted by place"). The loader writes it with events (writer.ts); a version is read from it once
// spatial_versions lists it.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { CELL_KEY_SQL, coverCells, type CellCover } from '../../geo/grid.ts';
import { fieldsRead, planFilters, type Condition, type Field } from '../../query/plan.ts';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { ORDER_BY, SqlBuilder } from '../sql.ts';
import { compilePolygons } from './polygon-sql.ts';
import { renderCondition, typedParam } from './render-plan.ts';
import { deleteVersionRows, tableExists, versionsMissingFrom } from './tables.ts';
import type { Polygon } from '../../geo/geojson.ts';

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
  const cells = new Map<number, number[]>();
  for (const [version] of (await c.runAndReadAll(`SELECT version_id::INTEGER FROM spatial_versions`)).getRowsJS() as [number][]) cells.set(version, []);
  const rows = (await c.runAndReadAll(`SELECT version_id::INTEGER, cell_key FROM spatial_events GROUP BY ALL ORDER BY 1, 2`)).getRowsJS() as [number, number][];
  for (const [version, key] of rows) cells.get(version)?.push(key);
  return new Map([...cells].map(([version, keys]) => [version, Int32Array.from(keys)]));
}

/** The fields spatial_events has columns for, besides the position. */
const SPATIAL_FIELDS: ReadonlySet<Field> = new Set<Field>(['version', 'id', 'kind', 'start', 'end']);

/**
 * Cells a query's polygons may cover: a bounding box wider than this (about 70 x 70 degrees) is
 * read from events, where the cells would prune little.
 */
const MAX_CELLS = 20_000;

/** A query the table answers: its polygons, their cells, and its other conditions. */
export interface SpatialPlan {
  query: EventQuery;
  polygons: readonly Polygon[];
  cover: CellCover;
  /** Ranges of keys to read: every cell of the cover that holds events, none that does not. */
  ranges: [number, number][];
  others: Condition[];
}

/**
 * The plan when spatial_events answers the query: every dataset version is in it, one of the
 * query's conditions is its polygons, and every other condition reads only fields the table has
 * (versions, ids, kinds, start and end: the time window, types, durations, open gaps).
 */
export function spatialPlan(query: EventQuery, cells: ReadonlyMap<number, Int32Array>): SpatialPlan | undefined {
  if (!query.datasets.every((d) => cells.has(d.resolved.versionId))) return undefined;
  const conditions = planFilters(query);
  const polygons = conditions.filter((c): c is Extract<Condition, { is: 'inPolygons' }> => c.is === 'inPolygons');
  if (polygons.length !== 1) return undefined;
  const others = conditions.filter((c) => c.is !== 'inPolygons');
  const { fields, other } = fieldsRead(others);
  if (other.size > 0 || ![...fields].every((f) => SPATIAL_FIELDS.has(f))) return undefined;
  const cover = coverCells(polygons[0]!.polygons, MAX_CELLS);
  if (!cover) return undefined;
  const occupied = query.datasets.map((d) => cells.get(d.resolved.versionId)!);
  return { query, polygons: polygons[0]!.polygons, cover, ranges: rangesToRead(cover, occupied), others };
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
 * The rows of the cells near the polygons that meet the query's other conditions, with the given
 * columns and each row's cell class (`cell`: 'i' inside, 'e' near an edge, '.' neither): one SELECT
 * per range of cells, joined by UNION ALL. Each range is a single BETWEEN the zone maps prune on; an
 * OR of ranges in one WHERE was not pruned (7 ranges: 9.8 ms against 0.8 for one, on 10M events).
 * The class is read by the caller, never in these WHEREs: a condition on it there cost the zone
 * maps too (1.4 ms against 3.2 for a range holding no row, 6.2 against 24.6 for five).
 */
function candidates(b: SqlBuilder<DuckDBValue>, plan: SpatialPlan, select: string): string {
  const { cover, ranges } = plan;
  // Each cell's class is a character of one bound text, looked up by the key's offset: written as
  // IN lists of keys, a query's text grew to thousands of numbers and DuckDB took about 100 ms to
  // plan it (five ranges, 700 cells, 10M events), where reading the ranges took 1.6.
  const base = ranges[0]![0];
  const classes = Array.from({ length: ranges[ranges.length - 1]![1] - base + 1 }, () => '.');
  for (const key of cover.inside) if (key >= base && key - base < classes.length) classes[key - base] = 'i';
  for (const key of cover.edge) if (key >= base && key - base < classes.length) classes[key - base] = 'e';
  const cell = `substr(${b.param(classes.join(''))}, cell_key - ${base} + 1, 1)`;
  const where = plan.others.length ? plan.others.map((c) => renderCondition(b, c)).join(' AND ') : 'TRUE';
  // The ranges are integers this code computed: written into the text.
  return ranges.map(([lo, hi]) => `SELECT ${select}, ${cell} AS cell FROM spatial_events WHERE cell_key BETWEEN ${lo} AND ${hi} AND ${where}`).join(' UNION ALL ');
}

/**
 * Rows in cells wholly inside (all match), and rows in cells near an edge (to be tested), counted
 * without the exact test: binding a buffered EEZ's edges costs a few milliseconds, and an area
 * where no event lies (most of the ocean in a time window) needs nothing more.
 */
async function countCandidates(c: DuckDBConnection, plan: SpatialPlan): Promise<{ inside: number; edge: number }> {
  if (plan.ranges.length === 0) return { inside: 0, edge: 0 };
  const b = new SqlBuilder<DuckDBValue>();
  const rows = candidates(b, plan, '1 AS one');
  const [inside, edge] = (await c.runAndReadAll(`SELECT count(*) FILTER (cell = 'i')::DOUBLE, count(*) FILTER (cell = 'e')::DOUBLE FROM (${rows})`, b.params)).getRowsJS()[0] as [number, number];
  return { inside, edge };
}

export async function spatialCount(c: DuckDBConnection, plan: SpatialPlan): Promise<number> {
  const { inside, edge } = await countCandidates(c, plan);
  if (edge === 0) return inside;
  const b = new SqlBuilder<DuckDBValue>();
  const rows = candidates(b, plan, 'lat, lon');
  // As a WHERE, the exact test runs on the edge cells' rows alone; as an aggregate's FILTER it ran
  // on every row (a buffered EEZ, 17,339 candidates: 20 ms against 77).
  const passed = (await c.runAndReadAll(`SELECT count(*)::DOUBLE FROM (${rows}) WHERE cell = 'e' AND ${compilePolygons(b, plan.polygons)}`, b.params)).getRowsJS()[0]![0] as number;
  return inside + passed;
}

/** Pages up to this long are found here and their entries read by id; longer ones read events in order. */
export const SPATIAL_PAGE_LIMIT = 1000;

/**
 * The page's entries: found in spatial_events, then read from events by version, start and id
 * (events are sorted by version and start, so the zone maps find them).
 */
export async function spatialPage(c: DuckDBConnection, plan: SpatialPlan & { query: ListQuery }): Promise<string[]> {
  const { query } = plan;
  const { inside, edge } = await countCandidates(c, plan);
  if (inside + edge === 0) return [];
  const b = new SqlBuilder<DuckDBValue>();
  const rows = candidates(b, plan, 'version_id, id, start_ts, end_ts, lat, lon');
  const matching = edge === 0 ? `cell = 'i'` : `cell = 'i' OR (cell = 'e' AND ${compilePolygons(b, plan.polygons)})`;
  const page = (await c.runAndReadAll(
    `SELECT version_id::INTEGER, id, epoch_us(start_ts)::DOUBLE FROM (${rows}) WHERE ${matching} ORDER BY ${ORDER_BY[query.sort]} LIMIT ${b.param(query.limit)} OFFSET ${b.param(query.offset)}`,
    b.params,
  )).getRowsJS() as [number, string, number][];
  return entriesOf(c, page);
}

/** The stored entries of (version, id, start in µs) rows, in their order. */
async function entriesOf(c: DuckDBConnection, page: [number, string, number][]): Promise<string[]> {
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
    const sql = `SELECT id, entry FROM events WHERE version_id = ${typedParam(b, 'version_id', version)} AND start_ts BETWEEN make_timestamp(${b.param(BigInt(first))}::BIGINT) AND make_timestamp(${b.param(BigInt(last))}::BIGINT) AND id IN (${b.placeholders(ids)})`;
    for (const [id, entry] of (await c.runAndReadAll(sql, b.params)).getRowsJS() as [string, string][]) entries.set(`${version}\u0000${id}`, entry);
  }
  return page.map(([version, id]) => {
    const entry = entries.get(`${version}\u0000${id}`);
    if (entry === undefined) throw new Error(`event ${id} of version ${version} is in spatial_events but not in events`);
    return entry;
  });
}
