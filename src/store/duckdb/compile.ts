// compile*: the one filter compiler. Every filter's meaning (decisions section 4) is written here
// once; the list, its total and (later) the stats all call compileWhere. Column names come from
// the field registry; every user value is a bound parameter, never SQL text.
import { DuckDBTimestampValue, type DuckDBValue } from '@duckdb/node-api';
import { REGION_MEMBERS, type RegionMember } from '../../data/record.ts';
import { bboxOf, type Polygon } from '../../geo/geojson.ts';
import { LatitudeBands, type Edge } from '../../geo/bands.ts';
import type { AreaFilter, EventQuery, ListQuery, TimeWindow, ValueFilter } from '../../query/types.ts';
import type { EventKind, EventTypeFilterValue, SortValue } from '../../query/kinds.ts';

export interface CompiledSql {
  sql: string;
  params: DuckDBValue[];
}

// Numbered placeholders ($1, $2, ...): a value bound once can be used several times (a polygon's
// edges inside a lambda), and callers can append more parameters after the WHERE clause.
export class SqlBuilder {
  readonly clauses: string[] = [];
  readonly params: DuckDBValue[] = [];
  placeholders(values: readonly DuckDBValue[]): string {
    return values.map((v) => this.param(v)).join(', ');
  }
  param(value: DuckDBValue): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

const KIND_OF_TYPE: Record<Exclude<EventTypeFilterValue, 'GAP_START'>, EventKind> = {
  FISHING: 'fishing',
  ENCOUNTER: 'encounter',
  LOITERING: 'loitering',
  PORT_VISIT: 'port_visit',
  GAP: 'gap',
};

export function compileWhere(q: EventQuery): CompiledSql {
  const b = new SqlBuilder();
  b.clauses.push(`version_id IN (${b.placeholders(q.datasets.map((d) => d.resolved.versionId))})`);
  if (q.vesselIds) b.clauses.push(q.vesselIds.length ? `vessel_id IN (${b.placeholders(q.vesselIds)})` : 'FALSE');
  if (q.eventIds) b.clauses.push(q.eventIds.length ? `id IN (${b.placeholders(q.eventIds)})` : 'FALSE');
  if (q.types) b.clauses.push(compileTypes(b, q.types));
  if (q.flags) b.clauses.push(compileValueFilter(b, 'vessel_flag', q.flags));
  if (q.vesselTypes) b.clauses.push(compileValueFilter(b, 'vessel_type', q.vesselTypes));
  if (q.vesselGroups) b.clauses.push(`vessel_id IN (SELECT vessel_id FROM vessel_groups WHERE group_id IN (${b.placeholders(q.vesselGroups)}))`);
  if (q.nextPortIds) b.clauses.push(compileValueFilter(b, 'next_port.id', q.nextPortIds));
  // Kind-specific filters (decisions section 4) leave every other kind alone.
  if (q.confidences) b.clauses.push(onlyFor('port_visit', compileValueFilter(b, 'port_visit.confidence', { ...q.confidences, values: q.confidences.values.map(Number) })));
  if (q.portIds) b.clauses.push(onlyFor('port_visit', compileValueFilter(b, 'port_visit.intermediate_anchorage.id', q.portIds)));
  if (q.encounterTypes) b.clauses.push(onlyFor('encounter', compileValueFilter(b, 'encounter.type', q.encounterTypes)));
  if (q.gapIntentional !== undefined) b.clauses.push(onlyFor('gap', `gap.intentional_disabling = ${b.param(q.gapIntentional)}`));
  if (q.gapClosed !== undefined) b.clauses.push(onlyFor('gap', q.gapClosed ? 'end_ts IS NOT NULL' : 'end_ts IS NULL'));
  if (q.duration) b.clauses.push(...compileDuration(b, q));
  if (q.area) b.clauses.push(compileArea(b, q.area));
  b.clauses.push(...compileTime(b, q.time), ...compileTimePruning(b, q));
  return { sql: b.clauses.join(' AND '), params: b.params };
}

const REGION_COLUMN = Object.fromEntries(REGION_MEMBERS.map((m) => [m.member, m.column])) as Record<RegionMember, string>;

// Named regions match the entry's `regions` members; polygons its position: a bounding-box cut
// first (cheap, and on the stored columns so zone maps prune), then the exact even-odd test.
function compileArea(b: SqlBuilder, area: AreaFilter): string {
  if (area.type === 'regions') {
    return `(${area.regions.map((r) => `list_contains(${REGION_COLUMN[r.member]}, ${b.param(r.id)})`).join(' OR ')})`;
  }
  if (area.polygons.length === 0) return 'FALSE';
  return compilePolygons(b, area.polygons);
}

/** Up to this many polygons, each is one OR term of the condition; beyond it, a join (see below). */
export const POLYGON_TERMS_LIMIT = 16;

function compilePolygons(b: SqlBuilder, polygons: readonly Polygon[]): string {
  const tested = polygons.map(toTestedPolygon);
  if (tested.length <= POLYGON_TERMS_LIMIT) return `(${tested.map((p) => compilePolygonTerm(b, p)).join(' OR ')})`;
  return compilePolygonJoin(b, tested);
}

// Each polygon's edges are grouped in latitude bands (src/geo/bands.ts), so a row tests only its
// own band's edges: a buffered EEZ has thousands of edges, a band a few dozen.
interface TestedPolygon {
  min_lon: number;
  min_lat: number;
  max_lon: number;
  max_lat: number;
  band_lat: number;
  band_height: number;
  bands: Edge[][];
}

function toTestedPolygon(polygon: Polygon): TestedPolygon {
  const [minLon, minLat, maxLon, maxLat] = bboxOf(polygon);
  const edges: Edge[] = [];
  for (const ring of polygon) for (let i = 0; i + 1 < ring.length; i++) edges.push([ring[i]![0], ring[i]![1], ring[i + 1]![0], ring[i + 1]![1]]);
  const banded = new LatitudeBands(edges, 8, 1024);
  return { min_lon: minLon, min_lat: minLat, max_lon: maxLon, max_lat: maxLat, band_lat: banded.minLat, band_height: banded.height, bands: banded.bands };
}

// A horizontal ray from the point crosses the edge e = [x1, y1, x2, y2] when:
const CROSSING = `(e[2] > lat) <> (e[4] > lat) AND lon < (e[3] - e[1]) * (lat - e[2]) / (e[4] - e[2]) + e[1]`;

// Bands are bound as JSON text and cast: a list value would take its element type from the first
// number (INTEGER for 170) and reject the decimals after it.
function compilePolygonTerm(b: SqlBuilder, p: TestedPolygon): string {
  const band = `(${b.param(JSON.stringify(p.bands))}::DOUBLE[][][])[least(${p.bands.length - 1}, greatest(0, floor((lat - ${b.param(p.band_lat)}) / ${b.param(p.band_height)})))::INTEGER + 1]`;
  return `(lon BETWEEN ${b.param(p.min_lon)} AND ${b.param(p.max_lon)} AND lat BETWEEN ${b.param(p.min_lat)} AND ${b.param(p.max_lat)} AND len(list_filter(${band}, e -> ${CROSSING})) % 2 = 1)`;
}

// Many polygons (a FeatureCollection of small areas) are bound as one list and joined: as one OR
// term each, DuckDB's expression rewriter took 1.2 s to plan 266 polygons and 1.7 s in all on
// 20,000 events (2026-11-23; the fuzz's FeatureCollections answered in 12 s under load); joined,
// 0.1 s. A lambda over the list copied the whole list for every row (3.7 s); a grid of cells
// joined by hash probed every row (10M events: 2.6 s for one polygon). Up to 16 polygons stay
// terms, where planning is still short: the benchmark's buffered polygon (10M events) took 140 ms
// p50 as a term and 205 as a join; 4 small polygons 800 ms as terms and 1,700 as a join (2 of
// them: 600 and 160; the crossing is not clean, 16 is where planning terms passes ~50 ms).
const POLYGON_LIST = 'STRUCT(min_lon DOUBLE, min_lat DOUBLE, max_lon DOUBLE, max_lat DOUBLE, band_lat DOUBLE, band_height DOUBLE, bands DOUBLE[][][])[]';
function compilePolygonJoin(b: SqlBuilder, tested: readonly TestedPolygon[]): string {
  let [minLon, minLat, maxLon, maxLat] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of tested) [minLon, minLat, maxLon, maxLat] = [Math.min(minLon, p.min_lon), Math.min(minLat, p.min_lat), Math.max(maxLon, p.max_lon), Math.max(maxLat, p.max_lat)];
  const band = `p.bands[least(len(p.bands) - 1, greatest(0, floor((lat - p.band_lat) / p.band_height)))::INTEGER + 1]`;
  const inside = `lon BETWEEN p.min_lon AND p.max_lon AND lat BETWEEN p.min_lat AND p.max_lat AND len(list_filter(${band}, e -> ${CROSSING})) % 2 = 1`;
  const polygons = `(SELECT unnest(${b.param(JSON.stringify(tested))}::${POLYGON_LIST}) AS p)`;
  return `(lon BETWEEN ${b.param(minLon)} AND ${b.param(maxLon)} AND lat BETWEEN ${b.param(minLat)} AND ${b.param(maxLat)} AND EXISTS (SELECT 1 FROM ${polygons} WHERE ${inside}))`;
}

function onlyFor(kind: EventKind, clause: string): string {
  return `(kind <> '${kind}' OR ${clause})`;
}

// An open event lasts until its dataset was last updated (decisions section 4).
function compileDuration(b: SqlBuilder, q: EventQuery): string[] {
  // Built at each use: every use binds its own parameters, in order.
  const length = () => {
    const updated = q.datasets.map((d) => `WHEN ${b.param(d.resolved.versionId)} THEN ${b.param(timestamp(Date.parse(d.resolved.lastUpdated ?? d.resolved.loadedAt)))}`);
    return `date_diff('millisecond', start_ts, coalesce(end_ts, CASE version_id ${updated.join(' ')} END))`;
  };
  const clauses: string[] = [];
  if (q.duration!.minMs !== undefined) clauses.push(`${length()} >= ${b.param(q.duration!.minMs)}`);
  if (q.duration!.maxMs !== undefined) clauses.push(`${length()} < ${b.param(q.duration!.maxMs)}`);
  return clauses;
}

/** INCLUDE keeps rows whose value is listed; EXCLUDE keeps every other row, those without a value too. */
function compileValueFilter(b: SqlBuilder, column: string, filter: { values: readonly (string | number)[]; operator: 'INCLUDE' | 'EXCLUDE' }): string {
  if (filter.values.length === 0) return filter.operator === 'INCLUDE' ? 'FALSE' : 'TRUE';
  const list = b.placeholders(filter.values);
  return filter.operator === 'INCLUDE' ? `${column} IN (${list})` : `(${column} IS NULL OR ${column} NOT IN (${list}))`;
}

// GAP_START (decisions section 3) is a gap still open: no end yet.
function compileTypes(b: SqlBuilder, filter: ValueFilter<EventTypeFilterValue>): string {
  const parts: string[] = [];
  const kinds = filter.values.filter((v): v is Exclude<EventTypeFilterValue, 'GAP_START'> => v !== 'GAP_START').map((v) => KIND_OF_TYPE[v]);
  if (kinds.length) parts.push(`kind IN (${b.placeholders(kinds)})`);
  if (filter.values.includes('GAP_START')) parts.push(`(kind = 'gap' AND end_ts IS NULL)`);
  const match = parts.length ? `(${parts.join(' OR ')})` : 'FALSE';
  return filter.operator === 'INCLUDE' ? match : `NOT ${match}`;
}

function timestamp(ms: number): DuckDBTimestampValue {
  return new DuckDBTimestampValue(BigInt(ms) * 1000n);
}

// Decisions section 4, timeFilterMode. An open event (end_ts NULL) overlaps every window after
// its start, and has no end to fall inside an END-DATE window.
function compileTime(b: SqlBuilder, t: TimeWindow): string[] {
  const clauses: string[] = [];
  const { startMs, endMs } = t;
  switch (t.mode) {
    case 'OVERLAP':
      if (startMs !== undefined) clauses.push(`(end_ts >= ${b.param(timestamp(startMs))} OR end_ts IS NULL)`);
      if (endMs !== undefined) clauses.push(`start_ts < ${b.param(timestamp(endMs))}`);
      break;
    case 'START-DATE':
      if (startMs !== undefined) clauses.push(`start_ts >= ${b.param(timestamp(startMs))}`);
      if (endMs !== undefined) clauses.push(`start_ts < ${b.param(timestamp(endMs))}`);
      break;
    case 'END-DATE':
      if (startMs !== undefined) clauses.push(`end_ts >= ${b.param(timestamp(startMs))}`);
      if (endMs !== undefined) clauses.push(`end_ts < ${b.param(timestamp(endMs))}`);
      break;
  }
  return clauses;
}

/**
 * Conditions implied by the time window, which change no answer but let the zone maps of start_ts
 * (rows are sorted by it) skip the data before the window: an event that ends in or overlaps the
 * window cannot start earlier than the window's start minus the longest event of its dataset, or,
 * if it is still open (OVERLAP only), than the earliest open event's start.
 */
function compileTimePruning(b: SqlBuilder, q: EventQuery): string[] {
  const { startMs, endMs, mode } = q.time;
  const clauses: string[] = [];
  if (mode === 'END-DATE' && endMs !== undefined) clauses.push(`start_ts < ${b.param(timestamp(endMs))}`);
  if (mode === 'START-DATE' || startMs === undefined) return clauses;
  let earliest = startMs;
  for (const { resolved } of q.datasets) {
    if (!resolved.reach) return clauses;
    const { longestMs, earliestOpenStartMs } = resolved.reach;
    // Durations are stored in whole milliseconds, rounded down: one more keeps the bound safe.
    if (longestMs !== null) earliest = Math.min(earliest, startMs - longestMs - 1);
    if (mode === 'OVERLAP' && earliestOpenStartMs !== null) earliest = Math.min(earliest, earliestOpenStartMs);
  }
  clauses.push(`start_ts >= ${b.param(timestamp(earliest))}`);
  return clauses;
}

// Ties are broken by id so pages are stable. An open event has not ended: it sorts after every
// ended event on +end and before them on -end.
const ORDER_BY: Record<SortValue, string> = {
  '+start': 'start_ts ASC, id ASC',
  '-start': 'start_ts DESC, id DESC',
  '+end': 'end_ts ASC NULLS LAST, id ASC',
  '-end': 'end_ts DESC NULLS FIRST, id DESC',
};

/** Where a query reads: a table and a condition that only prunes (it removes no matching row). */
export interface Source {
  from: string;
  prune?: string;
}
const EVENTS: Source = { from: 'events' };

/** The rows of a query: FROM and WHERE. */
export function compileRows(q: EventQuery, source: Source = EVENTS): CompiledSql {
  const where = compileWhere(q);
  return { sql: `FROM ${source.from} WHERE ${source.prune ? `${source.prune} AND ` : ''}${where.sql}`, params: where.params };
}

/** The page of a list: the rows, then order, limit and offset as further parameters. */
export function compileSearch(q: ListQuery, select: string, source: Source = EVENTS): CompiledSql {
  const rows = compileRows(q, source);
  const n = rows.params.length;
  return {
    sql: `SELECT ${select} ${rows.sql} ORDER BY ${ORDER_BY[q.sort]} LIMIT $${n + 1} OFFSET $${n + 2}`,
    params: [...rows.params, q.limit, q.offset],
  };
}
