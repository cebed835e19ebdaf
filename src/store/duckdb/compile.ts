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
// first (cheap), then the exact even-odd test over the polygon's edges, bound once as a list.
function compileArea(b: SqlBuilder, area: AreaFilter): string {
  if (area.type === 'regions') {
    return `(${area.regions.map((r) => `list_contains(${REGION_COLUMN[r.member]}, ${b.param(r.id)})`).join(' OR ')})`;
  }
  if (area.polygons.length === 0) return 'FALSE';
  return `(${area.polygons.map((p) => compilePolygon(b, p)).join(' OR ')})`;
}

// The edges are bound grouped in latitude bands (src/geo/bands.ts), so a row tests only its own
// band's edges: a buffered EEZ has thousands of edges, a band a few dozen.
function compilePolygon(b: SqlBuilder, polygon: Polygon): string {
  const [minLon, minLat, maxLon, maxLat] = bboxOf(polygon);
  const edges: Edge[] = [];
  for (const ring of polygon) for (let i = 0; i + 1 < ring.length; i++) edges.push([ring[i]![0], ring[i]![1], ring[i + 1]![0], ring[i + 1]![1]]);
  const banded = new LatitudeBands(edges, 8, 1024);
  // Bound as JSON text and cast: a list value would take its element type from the first number
  // (INTEGER for 170) and reject the decimals after it.
  const band = `(${b.param(JSON.stringify(banded.bands))}::DOUBLE[][][])[least(${banded.bands.length - 1}, greatest(0, floor((lat - ${b.param(banded.minLat)}) / ${b.param(banded.height)})))::INTEGER + 1]`;
  // A horizontal ray from the point crosses the edge [x1, y1, x2, y2] when:
  const crossing = `(e[2] > lat) <> (e[4] > lat) AND lon < (e[3] - e[1]) * (lat - e[2]) / (e[4] - e[2]) + e[1]`;
  return `(lon BETWEEN ${b.param(minLon)} AND ${b.param(maxLon)} AND lat BETWEEN ${b.param(minLat)} AND ${b.param(maxLat)} AND len(list_filter(${band}, e -> ${crossing})) % 2 = 1)`;
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
