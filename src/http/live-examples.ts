// Examples from the loaded data, so that "Try it out" in /docs finds something: the request schemas
// carry static examples (src/query/schema.ts), but the ones that name data (a vessel, an event, a
// region, a group, a port) only work where that data is loaded. When the document is served, they
// are replaced by the values of one real event of a `public-*` dataset (the docs need no token, so
// nothing of another dataset is shown), and the answers to the pre-filled requests become the
// documented response examples. Computed once per loaded generation.
import { EVENT_KINDS, type EventKind } from '../domain/kinds.ts';
import type { Buffering } from '../query/area.ts';
import { VESSEL_TYPES } from '../query/enumerations.ts';
import { normalizeEventQuery, normalizeListQuery, normalizeSingleDataset, type NormalizeContext } from '../query/normalize.ts';
import { KIND_OF_FILTER, KIND_OF_TYPE } from '../query/plan.ts';
import { normalizeStatsOptions, StatsGetQuerySchema } from '../query/stats.ts';
import { ListGetQuerySchema, type EventFilters, type ListGetQuery } from '../query/schema.ts';
import { echoQuery } from '../shape/metadata.ts';
import { streamListBody } from '../shape/list-body.ts';
import { specFromGfw } from '../shape/spec-wire.ts';
import type { WireFormat } from '../shape/wire.ts';
import type { EventStore } from '../store/store.ts';
import { regionItems } from './routes/context-layers.ts';
import { labelRegions } from './routes/stats.ts';

/** The `types` filter value of each kind. */
const TYPE_OF_KIND = Object.fromEntries(Object.entries(KIND_OF_TYPE).map(([type, kind]) => [kind, type])) as Record<EventKind, string>;
/**
 * The request parameters of each kind-specific filter (which kind: the plan's KIND_OF_FILTER).
 * Their examples are harmless beside events of another kind, not beside their own.
 */
const PARAMETERS_OF_FILTER: Record<keyof typeof KIND_OF_FILTER, string[]> = {
  confidences: ['confidences', 'confidencesOperator'],
  portIds: ['portIds', 'portIdsOperator'],
  encounterTypes: ['encounterTypes', 'encounterTypesOperator'],
  gapIntentional: ['gapIntentionalDisabling'],
  gapClosed: ['isClosed'],
};

/**
 * The parameters the list operations pre-fill: the sample's dataset, year and flag, and the page.
 * Every filter pre-filled would narrow the list to the sample alone; the others keep their examples
 * in their schemas, for the reader to add.
 */
export const LIST_PREFILLED = ['datasets', 'flags', 'startDate', 'endDate', 'limit', 'offset', 'sort'];

/** What /docs pre-fills for an operation's query: the live value where there is one, else the schema's example. */
function prefilled(properties: Record<string, { examples?: unknown[] }>, live: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const value = name in live ? live[name] : schema.examples?.[0];
    if (value !== undefined) values[name] = value;
  }
  return values;
}

export interface LiveExamples {
  /** Parameter or body member -> its example; `undefined` removes a static example that would not hold here. */
  values: Record<string, unknown>;
  /** What the list operations pre-fill (LIST_PREFILLED): a page of several events. */
  listValues: Record<string, unknown>;
  eventId: string;
  byIdDataset: string;
  listAnswer: unknown;
  entry: unknown;
  statsAnswer: unknown;
  /** The first EEZs of the region list (the whole list is hundreds long). */
  regionsAnswer: unknown;
  /** The Vessels API's examples: the sample's vessel, its name and flag. */
  vessel: { id: string; name?: string; flag?: string } | undefined;
}

type Entry = { id: string; type: EventKind; start: string; vessel?: { id?: string; name?: string | null; flag?: string | null; type?: string | null; nextPort?: { id?: string | null } }; regions?: Record<string, string[]> };

/** The examples, with answers in the deployment's default wire format. */
export async function liveExamples(store: EventStore, buffering: Buffering, wire: WireFormat): Promise<LiveExamples | undefined> {
  const ctx: NormalizeContext = { catalog: store, access: { canRead: () => true }, spelling: (name) => name, buffering };
  const kindRank = (kind: EventKind) => EVENT_KINDS.indexOf(kind);
  const versions = store.versions().filter((v) => v.datasetId.startsWith('public-')).sort((a, b) => kindRank(a.kind) - kindRank(b.kind));
  const version = versions[0];
  if (!version) return undefined;
  const dataset = `${version.datasetId}:latest`;
  const sample = await firstEntry(store, { datasets: [dataset], startDate: '2020-01-01', endDate: '2021-01-01' }, ctx) ?? await firstEntry(store, { datasets: [dataset] }, ctx);
  if (!sample) return undefined;

  const year = Number(sample.start.slice(0, 4));
  const vessel = sample.vessel ?? {};
  const vesselType = vessel.type?.toUpperCase();
  const eez = sample.regions?.['eez']?.[0];
  // A buffer needs the region's geometry; around the sample's own EEZ it keeps the sample.
  const buffer = eez !== undefined && store.regionGeometry('public-eez-areas', eez) !== undefined;
  const values: Record<string, unknown> = {
    datasets: [dataset],
    types: [TYPE_OF_KIND[sample.type]],
    startDate: `${year}-01-01`,
    endDate: `${year + 1}-01-01`,
    ids: [sample.id],
    vessels: vessel.id ? [vessel.id] : undefined,
    flags: vessel.flag ? [vessel.flag] : undefined,
    vesselTypes: vesselType && (VESSEL_TYPES as readonly string[]).includes(vesselType) ? [vesselType] : undefined,
    nextPortIds: vessel.nextPort?.id ? [vessel.nextPort.id] : undefined,
    regionDatasets: eez ? ['public-eez-areas'] : undefined,
    regionIds: eez ? [eez] : undefined,
    region: eez ? { dataset: 'public-eez-areas', id: eez } : undefined,
    bufferValue: buffer ? 10 : undefined,
    bufferUnit: buffer ? 'NAUTICALMILES' : undefined,
    bufferOperation: buffer ? 'DISSOLVE' : undefined,
    // The sample lies outside the demo's box off West Africa more often than not.
    geometry: undefined,
    vesselGroups: await groupOf(store, dataset, sample.id, ctx),
  };
  for (const [filter, kind] of Object.entries(KIND_OF_FILTER)) {
    if (kind === sample.type) for (const name of PARAMETERS_OF_FILTER[filter as keyof typeof KIND_OF_FILTER]) values[name] = undefined;
  }

  // The answers to exactly what /docs sends, so that the documented answers are the real ones. The
  // list's flag is dropped where the sample's flag alone holds too few events for a page.
  const listProperties = Object.fromEntries(Object.entries(ListGetQuerySchema.properties).filter(([name]) => LIST_PREFILLED.includes(name)));
  let listValues = prefilled(listProperties, values);
  let listAnswer = await listAnswerOf(store, listValues, ctx, wire);
  if (listAnswer.entries.length < 2 && 'flags' in listValues) {
    listValues = prefilled(listProperties, { ...values, flags: undefined });
    listAnswer = await listAnswerOf(store, listValues, ctx, wire);
  }
  const { timeseriesInterval, groupBy, includes: parts, ...statsFilters } = prefilled(StatsGetQuerySchema.properties, values) as EventFilters & Record<string, never>;
  const statsOptions = normalizeStatsOptions({ timeseriesInterval, groupBy, includes: parts } as never, (name) => name);
  // As the route answers: REGION_* groups labelled.
  const statsAnswer = labelRegions(await store.stats(await normalizeEventQuery(statsFilters, ctx), statsOptions), statsOptions, store);
  const entryText = await store.getEntry(normalizeSingleDataset(dataset, ctx), sample.id);
  const entry = entryText === undefined ? undefined : (JSON.parse(entryText) as Record<string, unknown>);
  return {
    values, listValues, eventId: sample.id, byIdDataset: dataset, listAnswer, entry: entry && wire === 'spec' ? specFromGfw(entry) : entry, statsAnswer,
    regionsAnswer: regionItems(store, 'public-eez-areas').slice(0, 3),
    vessel: vessel.id ? { id: vessel.id, name: vessel.name ?? undefined, flag: vessel.flag ?? undefined } : undefined,
  };
}

/** The list's answer to the pre-filled values, as the route gives it. */
async function listAnswerOf(store: EventStore, values: Record<string, unknown>, ctx: NormalizeContext, wire: WireFormat): Promise<{ entries: unknown[] }> {
  const { limit, offset, sort, includes, includeRegions, summary, ...filters } = values as ListGetQuery;
  const list = await normalizeListQuery(filters, { limit, offset, sort }, ctx, { includes, includeRegions, summary });
  const { total, page } = await store.listPage(list);
  let body = '';
  for await (const part of streamListBody(page ?? [], { total, limit: list.limit, offset: list.offset, metadata: echoQuery(list) }, wire, list.shape)) body += part;
  return JSON.parse(body) as { entries: unknown[] };
}

async function firstEntry(store: EventStore, filters: EventFilters, ctx: NormalizeContext): Promise<Entry | undefined> {
  const list = await normalizeListQuery(filters, { limit: 1, offset: 0 }, ctx);
  for await (const chunk of await store.search(list)) if (chunk[0]) return JSON.parse(chunk[0]) as Entry;
  return undefined;
}

/** A loaded vessel group holding the sample's vessel, tried in order (a demo has a handful). */
async function groupOf(store: EventStore, dataset: string, id: string, ctx: NormalizeContext): Promise<string[] | undefined> {
  for (const group of [...store.groupIds()].sort().slice(0, 20)) {
    if ((await store.count(await normalizeEventQuery({ datasets: [dataset], ids: [id], vesselGroups: [group] }, ctx))) > 0) return [group];
  }
  return undefined;
}
