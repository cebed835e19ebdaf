// The filter plan: what each filter means (docs/api.md, "Parameters"), written once, on the logical
// fields of an event and in no engine's dialect. Each engine renders a plan in its own SQL
// (src/store/render-plan.ts and each engine's dialect); the list, its total and the statistics all start here.
// Conditions follow SQL's three-valued logic: a comparison with a field that has no value is
// unknown (neither true nor false, and so is its negation), and an event is kept only when every
// condition is true. The plan never leans on that where a missing value must count: EXCLUDE says
// `missing or not one of` in so many words. src/query/evaluate-plan.ts evaluates plans in JS.
import type { EventKind } from '../domain/kinds.ts';
import type { EventQuery, TimeWindow, ValueFilter } from './types.ts';

/** What a query asks, before it is planned: every member but the plan. */
export type QueryFilters = Omit<EventQuery, 'filters'>;
import type { Condition, Field, FilterPlan, TimeField, ValueField } from './conditions.ts';

export type { Condition, Field, FilterPlan, TimeField, ValueField };

const TRUE: Condition = { is: 'true' };
const FALSE: Condition = { is: 'false' };
const and = (...all: Condition[]): Condition => (all.length === 1 ? all[0]! : { is: 'and', all });
const or = (...any: Condition[]): Condition => (any.length === 1 ? any[0]! : { is: 'or', any });
const not = (condition: Condition): Condition => ({ is: 'not', condition });
const oneOf = (field: ValueField, values: readonly (string | number | boolean)[]): Condition => (values.length ? { is: 'oneOf', field, values } : FALSE);
const missing = (field: Field): Condition => ({ is: 'missing', field });

export const KIND_OF_TYPE: Record<'FISHING' | 'ENCOUNTER' | 'LOITERING' | 'PORT_VISIT' | 'GAP', EventKind> = {
  FISHING: 'fishing',
  ENCOUNTER: 'encounter',
  LOITERING: 'loitering',
  PORT_VISIT: 'port_visit',
  GAP: 'gap',
};

/** The filters that apply to one kind and leave every other kind alone (docs/api.md, "List filters (`GET` query, `POST` body)"). */
export const KIND_OF_FILTER = {
  confidences: 'port_visit', portIds: 'port_visit', encounterTypes: 'encounter', gapIntentional: 'gap', gapClosed: 'gap',
} as const satisfies Partial<Record<keyof EventQuery, EventKind>>;

/** The query with its plan. */
export function withPlan<Q extends QueryFilters>(q: Q): Q & { filters: FilterPlan } {
  const conditions = planFilters(q);
  return { ...q, filters: { conditions, matchesNothing: conditions.some((c) => c.is === 'false'), ...fieldsRead(conditions) } };
}

/**
 * The query read at other versions of its datasets, each keeping its time of last update (open
 * events last until it) and its reach: its plan made again. An engine reads a version made of
 * another and changes to it (DuckDB's update layers) on the version it is made of.
 */
export function atVersions<Q extends QueryFilters>(q: Q, versionOf: (d: Q['datasets'][number]) => number): Q & { filters: FilterPlan } {
  return withPlan({ ...q, datasets: q.datasets.map((d) => ({ ...d, resolved: { ...d.resolved, versionId: versionOf(d) } })) });
}

/** Every condition an event of the query must meet, in the order engines evaluate them best. */
export function planFilters(q: QueryFilters): Condition[] {
  const conditions: Condition[] = [oneOf('version', q.datasets.map((d) => d.resolved.versionId))];
  if (q.vesselIds) conditions.push(oneOf('vessel', q.vesselIds));
  if (q.eventIds) conditions.push(oneOf('id', q.eventIds));
  if (q.types) conditions.push(planTypes(q.types));
  if (q.flags) conditions.push(planValues('vesselFlag', q.flags));
  if (q.vesselTypes) conditions.push(planValues('vesselType', q.vesselTypes));
  if (q.vesselGroups) conditions.push({ is: 'inVesselGroups', groups: q.vesselGroups });
  if (q.nextPortIds) conditions.push(planValues('nextPort', q.nextPortIds));
  // Kind-specific filters (KIND_OF_FILTER) leave every other kind alone.
  if (q.confidences) conditions.push(onlyFor(KIND_OF_FILTER.confidences, planValues('portVisitConfidence', { ...q.confidences, values: q.confidences.values.map(Number) })));
  if (q.portIds) conditions.push(onlyFor(KIND_OF_FILTER.portIds, planValues('portVisitAnchorage', q.portIds)));
  if (q.encounterTypes) conditions.push(onlyFor(KIND_OF_FILTER.encounterTypes, planValues('encounterType', q.encounterTypes)));
  if (q.gapIntentional !== undefined) conditions.push(onlyFor(KIND_OF_FILTER.gapIntentional, oneOf('gapIntentionalDisabling', [q.gapIntentional])));
  if (q.gapClosed !== undefined) conditions.push(onlyFor(KIND_OF_FILTER.gapClosed, q.gapClosed ? not(missing('end')) : missing('end')));
  if (q.duration) conditions.push(...planDuration(q));
  if (q.area) conditions.push(planArea(q));
  conditions.push(...planTime(q.time), ...planTimePruning(q));
  return conditions;
}

function onlyFor(kind: EventKind, condition: Condition): Condition {
  return or(not(oneOf('kind', [kind])), condition);
}

/** INCLUDE keeps events whose value is listed; EXCLUDE keeps every other event, those without a value too. */
function planValues(field: ValueField, filter: { values: readonly (string | number)[]; operator: 'INCLUDE' | 'EXCLUDE' }): Condition {
  if (filter.values.length === 0) return filter.operator === 'INCLUDE' ? FALSE : TRUE;
  return filter.operator === 'INCLUDE' ? oneOf(field, filter.values) : or(missing(field), not(oneOf(field, filter.values)));
}

// GAP_START (docs/api.md, "List filters (`GET` query, `POST` body)") is a gap still open: no end yet.
function planTypes(filter: ValueFilter<keyof typeof KIND_OF_TYPE | 'GAP_START'>): Condition {
  const kinds = filter.values.filter((v) => v !== 'GAP_START').map((v) => KIND_OF_TYPE[v as keyof typeof KIND_OF_TYPE]);
  const parts: Condition[] = [];
  if (kinds.length) parts.push(oneOf('kind', kinds));
  if (filter.values.includes('GAP_START')) parts.push(and(oneOf('kind', ['gap']), missing('end')));
  const match = parts.length ? or(...parts) : FALSE;
  return filter.operator === 'INCLUDE' ? match : not(match);
}

// An open event lasts until its dataset was last updated (docs/api.md, "List filters (`GET` query, `POST` body)").
function planDuration(q: QueryFilters): Condition[] {
  const openUntil = q.datasets.map((d) => ({ version: d.resolved.versionId, ms: Date.parse(d.resolved.lastUpdated ?? d.resolved.loadedAt) }));
  const conditions: Condition[] = [];
  if (q.duration!.minMs !== undefined) conditions.push({ is: 'lastsAtLeast', ms: q.duration!.minMs, openUntil });
  if (q.duration!.maxMs !== undefined) conditions.push({ is: 'lastsLessThan', ms: q.duration!.maxMs, openUntil });
  return conditions;
}

// Named regions match the entry's `regions` members; polygons its position.
function planArea(q: QueryFilters): Condition {
  const area = q.area!;
  if (area.type === 'regions') return or(...area.regions.map((r): Condition => ({ is: 'inRegion', member: r.member, id: r.id })));
  return area.polygons.length ? { is: 'inPolygons', polygons: area.polygons } : FALSE;
}

// Decisions section 4, timeFilterMode. An open event (no end) overlaps every window after its
// start, and has no end to fall inside an END-DATE window.
function planTime(t: TimeWindow): Condition[] {
  const { startMs, endMs } = t;
  const conditions: Condition[] = [];
  switch (t.mode) {
    case 'OVERLAP':
      if (startMs !== undefined) conditions.push(or({ is: 'atOrAfter', field: 'end', ms: startMs }, missing('end')));
      if (endMs !== undefined) conditions.push({ is: 'before', field: 'start', ms: endMs });
      break;
    case 'START-DATE':
      if (startMs !== undefined) conditions.push({ is: 'atOrAfter', field: 'start', ms: startMs });
      if (endMs !== undefined) conditions.push({ is: 'before', field: 'start', ms: endMs });
      break;
    case 'END-DATE':
      if (startMs !== undefined) conditions.push({ is: 'atOrAfter', field: 'end', ms: startMs });
      if (endMs !== undefined) conditions.push({ is: 'before', field: 'end', ms: endMs });
      break;
  }
  return conditions;
}

/**
 * Conditions implied by the time window, which change no answer but let an engine skip the data
 * before the window when rows are ordered by start: an event that ends in or overlaps the window
 * cannot start earlier than the window's start minus the longest event of its dataset, or, if it
 * is still open (OVERLAP only), than the earliest open event's start.
 */
function planTimePruning(q: QueryFilters): Condition[] {
  const { startMs, endMs, mode } = q.time;
  const conditions: Condition[] = [];
  if (mode === 'END-DATE' && endMs !== undefined) conditions.push({ is: 'before', field: 'start', ms: endMs });
  if (mode === 'START-DATE' || startMs === undefined) return conditions;
  let earliest = startMs;
  for (const { resolved } of q.datasets) {
    if (!resolved.reach) return conditions;
    const { longestMs, earliestOpenStartMs } = resolved.reach;
    // Durations are stored in whole milliseconds, rounded down: one more keeps the bound safe.
    if (longestMs !== null) earliest = Math.min(earliest, startMs - longestMs - 1);
    if (mode === 'OVERLAP' && earliestOpenStartMs !== null) earliest = Math.min(earliest, earliestOpenStartMs);
  }
  conditions.push({ is: 'atOrAfter', field: 'start', ms: earliest });
  return conditions;
}

/** The fields a condition reads, and whether it needs more than fields (groups, regions, position). */
export function fieldsRead(conditions: readonly Condition[]): { fields: Set<Field>; other: Set<Condition['is']> } {
  const fields = new Set<Field>();
  const other = new Set<Condition['is']>();
  const visit = (c: Condition): void => {
    switch (c.is) {
      case 'and': return c.all.forEach(visit);
      case 'or': return c.any.forEach(visit);
      case 'not': return visit(c.condition);
      case 'oneOf': case 'missing': case 'atOrAfter': case 'before': fields.add(c.field); return;
      case 'lastsAtLeast': case 'lastsLessThan': fields.add('start'); fields.add('end'); fields.add('version'); return;
      case 'true': case 'false': return;
      default: other.add(c.is);
    }
  };
  conditions.forEach(visit);
  return { fields, other };
}
