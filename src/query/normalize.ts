// normalize*: meaning. Input is a request already reduced to canonical names and checked against
// its schema (types, enums, ranges); output is the EventQuery the store compiles. Cross-field
// rules, defaults, access and dataset resolution live here and nowhere else.
import { ProblemCollector, Forbidden, InvalidParameters, NotFound, type Spelling } from './errors.ts';
import { isEntryPath } from '../domain/entry-paths.ts';
import { normalizeArea, type Buffering } from './area.ts';
import { parseDatasetRef, resolveDataset, type DatasetCatalog, type DatasetRef, type ResolvedDataset } from './datasets.ts';
import { parseDateParam } from './dates.ts';
import type { EntryShaping, EventFilters, Paging } from './schema.ts';
import type { DatasetAccess, EventQuery, ListQuery, TimeWindow, ValueFilter } from './types.ts';
import { withPlan } from './plan.ts';
import { EVENT_TYPE_ALIASES, type EventTypeFilterValue, type Operator } from './enumerations.ts';

/** Maps a canonical parameter name to the spelling the client used, for error titles. */
const asIs: Spelling = (name) => name;

export interface NormalizeContext {
  catalog: DatasetCatalog;
  access: DatasetAccess;
  spelling?: Spelling;
  /** How buffers are computed (default: in this thread). */
  buffering?: Buffering;
}

export async function normalizeEventQuery(filters: EventFilters, ctx: NormalizeContext): Promise<EventQuery> {
  const spelling = ctx.spelling ?? asIs;
  const problems = new ProblemCollector();

  const unknownDatasets = new ProblemCollector();
  const refs = filters.datasets
    .map((d) => parseDatasetRef(d, spelling('datasets'), problems, unknownDatasets))
    .filter((r): r is DatasetRef => r !== undefined);
  const time = normalizeTimeWindow(filters, spelling, problems);
  const duration = normalizeDuration(filters, spelling, problems);
  const area = normalizeArea(filters, ctx.catalog, spelling, problems, ctx.buffering);
  problems.throwIfAny();
  if (!unknownDatasets.empty) throw new NotFound(unknownDatasets.messages);

  const datasets = resolveDatasets(refs, ctx, spelling('datasets'));
  const vesselGroups = filters.vesselGroups?.length ? unique(filters.vesselGroups) : undefined;
  if (vesselGroups) checkGroupsExist(vesselGroups, ctx.catalog, spelling('vesselGroups'));
  // is-closed lists the states to keep; both (or none) keep every gap.
  const closed = filters.isClosed ? unique(filters.isClosed) : [];
  return withPlan({
    datasets,
    ...(filters.vessels?.length ? { vesselIds: unique(filters.vessels) } : {}),
    ...(filters.ids?.length ? { eventIds: unique(filters.ids) } : {}),
    ...withFilter('types', filters.types?.map((t): EventTypeFilterValue => EVENT_TYPE_ALIASES[t] ?? (t as EventTypeFilterValue)), filters.typesOperator),
    ...withFilter('flags', filters.flags?.map((f) => f.toUpperCase()), filters.flagsOperator),
    ...withFilter('vesselTypes', filters.vesselTypes?.map((t) => t.toLowerCase()), filters.vesselTypesOperator),
    ...(vesselGroups ? { vesselGroups } : {}),
    ...withFilter('confidences', filters.confidences, filters.confidencesOperator),
    ...withFilter('encounterTypes', filters.encounterTypes?.map((t) => t.toLowerCase()), filters.encounterTypesOperator),
    ...(filters.gapIntentionalDisabling !== undefined ? { gapIntentional: filters.gapIntentionalDisabling } : {}),
    ...(closed.length === 1 ? { gapClosed: closed[0]! } : {}),
    ...withFilter('portIds', filters.portIds, filters.portIdsOperator),
    ...withFilter('nextPortIds', filters.nextPortIds, filters.nextPortIdsOperator),
    ...(duration ? { duration } : {}),
    ...(area ? { area: await area(datasets.map((d) => d.resolved.versionId)) } : {}),
    time,
  });
}

function checkGroupsExist(groups: string[], catalog: DatasetCatalog, title: string): void {
  const known = catalog.groupIds();
  const missing = groups.filter((g) => !known.has(g));
  if (missing.length === 0) return;
  const some = [...known].slice(0, 10).join(', ');
  throw new NotFound(missing.map((g) => ({ title, detail: `unknown vessel group "${g}"; loaded groups: ${some || 'none'}${known.size > 10 ? ', ...' : ''}` })));
}

// minDuration and maxDuration are hours, duration minutes (docs/api.md, "List filters (`GET` query, `POST` body)").
function normalizeDuration(filters: EventFilters, spelling: Spelling, problems: ProblemCollector): EventQuery['duration'] {
  const minimums = [filters.minDuration, filters.duration === undefined ? undefined : filters.duration / 60].filter((h): h is number => h !== undefined);
  const minMs = minimums.length ? Math.max(...minimums) * 3_600_000 : undefined;
  const maxMs = filters.maxDuration === undefined ? undefined : filters.maxDuration * 3_600_000;
  if (minMs !== undefined && maxMs !== undefined && minMs >= maxMs) {
    problems.add(spelling('maxDuration'), `${spelling('maxDuration')} (${filters.maxDuration} h, exclusive) must be above the minimum duration (${minMs / 3_600_000} h)`);
  }
  if (minMs === undefined && maxMs === undefined) return undefined;
  return { ...(minMs !== undefined ? { minMs } : {}), ...(maxMs !== undefined ? { maxMs } : {}) };
}

export async function normalizeListQuery(filters: EventFilters, paging: Paging, ctx: NormalizeContext, shaping: EntryShaping = {}): Promise<ListQuery> {
  const spelling = ctx.spelling ?? asIs;
  const bad = (shaping.includes ?? []).filter((p) => !isEntryPath(p));
  if (bad.length) {
    throw new InvalidParameters(bad.map((p) => ({
      title: spelling('includes'),
      detail: `${spelling('includes')} has "${p}", a path no entry has; paths are dotted entry properties such as id, start, vessel.name, regions.eez, encounter.vessel.id, port_visit.confidence`,
    })));
  }
  return {
    ...(await normalizeEventQuery(filters, ctx)),
    sort: paging.sort ?? '+start',
    limit: paging.limit,
    offset: paging.offset,
    shape: {
      ...(shaping.includes?.length ? { includes: unique(shaping.includes) } : {}),
      includeRegions: shaping.includeRegions ?? true,
      summary: shaping.summary ?? false,
    },
  };
}

/** The one dataset of a by-id request, checked for access and resolved. */
export function normalizeSingleDataset(dataset: string, ctx: NormalizeContext): ResolvedDataset {
  const title = (ctx.spelling ?? asIs)('dataset');
  const several = dataset.split(',').filter((d) => d.trim() !== '');
  if (several.length > 1) {
    throw new InvalidParameters([{ title, detail: `${title} takes exactly one dataset, the one holding the event; got ${several.length}: ${several.join(', ')}` }]);
  }
  const problems = new ProblemCollector();
  const unknown = new ProblemCollector();
  const ref = parseDatasetRef(dataset, title, problems, unknown);
  problems.throwIfAny();
  if (!unknown.empty) throw new NotFound(unknown.messages);
  const [resolved] = resolveDatasets([ref!], ctx, title);
  return resolved!;
}

function resolveDatasets(refs: DatasetRef[], ctx: NormalizeContext, title: string): ResolvedDataset[] {
  const denied = refs.filter((r) => !ctx.access.canRead(r.datasetId));
  if (denied.length > 0) {
    // Live wording (reference/gfw-examples/errors.real-examples.json), naming what was asked for.
    throw new Forbidden([
      { title: 'Forbidden', detail: `Insufficient permissions for ${denied.map((r) => r.requested).join(', ')} datasets` },
    ]);
  }
  const notFound: NotFound[] = [];
  const resolved: ResolvedDataset[] = [];
  for (const ref of refs) {
    try {
      resolved.push(resolveDataset(ref, ctx.catalog, title));
    } catch (e) {
      if (e instanceof NotFound) notFound.push(e);
      else throw e;
    }
  }
  if (notFound.length > 0) throw new NotFound(notFound.flatMap((e) => e.messages));
  // Two references to one version (`encounter`/`encounters`, `latest` and its tag) must not double its entries.
  const seen = new Set<number>();
  return resolved.filter((d) => !seen.has(d.resolved.versionId) && seen.add(d.resolved.versionId));
}

function normalizeTimeWindow(filters: EventFilters, spelling: Spelling, problems: ProblemCollector): TimeWindow {
  const startMs = parseBound(filters.startDate, spelling('startDate'), problems);
  const endMs = parseBound(filters.endDate, spelling('endDate'), problems);
  if (startMs !== undefined && endMs !== undefined && startMs >= endMs) {
    problems.add(
      spelling('startDate'),
      `${spelling('startDate')} (${filters.startDate}) must be before ${spelling('endDate')} (${filters.endDate}); the end is exclusive`,
    );
  }
  return {
    ...(startMs !== undefined ? { startMs } : {}),
    ...(endMs !== undefined ? { endMs } : {}),
    mode: filters.timeFilterMode ?? 'OVERLAP',
  };
}

function parseBound(text: string | undefined, title: string, problems: ProblemCollector): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseDateParam(text);
  if (ms === undefined) problems.add(title, `${title} must be a real date YYYY-MM-DD or an ISO 8601 date-time, got "${text}"`);
  return ms;
}

function withFilter<K extends string, T extends string>(
  key: K,
  values: T[] | undefined,
  operator: Operator | undefined,
): { [P in K]?: ValueFilter<T> } {
  // An empty list means "no filter": clients send the (possibly empty) selection of a form.
  if (values === undefined || values.length === 0) return {};
  return { [key]: { values: unique(values), operator: operator ?? 'INCLUDE' } } as { [P in K]?: ValueFilter<T> };
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
