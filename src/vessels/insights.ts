// Vessel insights (docs/api.md, "Vessel insights"): what a vessel's events say of its risk, in the
// shape of the Python client's VesselInsightItem. The vessels' events are read as lists (the
// period's with the list's own time filter, OVERLAP, and all of them for the historical counters),
// and counted from their entries: apparent fishing in a no-take MPA (`regions.mpaNoTake` not empty)
// or in an RFMO area without a known authorization (a `vessel.publicAuthorizations` item with
// `hasPubliclyListedAuthorization` "false"), and gaps with AIS switched off on purpose
// (`gap.intentionalDisabling`).
import type { EventKind } from '../domain/kinds.ts';
import { DATASET_ID_BY_KIND } from '../domain/kinds.ts';
import { invalid, notFound } from '../query/errors.ts';
import { VESSEL_DATASET_LATEST } from '../query/vessel-params.ts';
import type { IuuListing } from '../domain/vessel-identity.ts';
import type { InsightRequest } from '../query/insight-params.ts';
import { normalizeListQuery, type NormalizeContext } from '../query/normalize.ts';
import { resolvedName } from '../query/datasets.ts';
import { MAX_PAGE_NUMBER } from '../query/schema.ts';
import type { EventStore } from '../store/store.ts';
import type { VesselDirectory } from './directory.ts';

type Entry = {
  id: string;
  regions?: { mpaNoTake?: string[] };
  vessel?: { publicAuthorizations?: { hasPubliclyListedAuthorization?: unknown }[] };
  gap?: { intentionalDisabling?: unknown };
};

/** The vessels' events of one dataset's latest version, in the period or in all its history: one list, read whole. */
async function entriesOf(store: EventStore, ctx: NormalizeContext, kind: EventKind, vesselIds: string[], period?: { startDate: string; endDate: string }): Promise<{ version: string; entries: Entry[] }> {
  const filters = { datasets: [`${DATASET_ID_BY_KIND[kind]}:latest`], vessels: vesselIds, ...period };
  const list = await normalizeListQuery(filters, { limit: MAX_PAGE_NUMBER, offset: 0, sort: '+start' }, ctx);
  const entries: Entry[] = [];
  const { page } = await store.listPage(list);
  for await (const chunk of page ?? []) for (const text of chunk) entries.push(JSON.parse(text) as Entry);
  return { version: resolvedName(list.datasets[0]!), entries };
}

const inNoTakeMpa = (e: Entry) => (e.regions?.mpaNoTake?.length ?? 0) > 0;
const withoutKnownAuthorization = (e: Entry) => (e.vessel?.publicAuthorizations ?? []).some((a) => String(a.hasPubliclyListedAuthorization) === 'false');
const aisOff = (e: Entry) => e.gap?.intentionalDisabling === true || e.gap?.intentionalDisabling === 'true';

function requireLoaded(store: EventStore, kind: EventKind, include: string, title: string): void {
  if (!store.versions().some((v) => v.kind === kind)) throw notFound(title, `${include} reads ${DATASET_ID_BY_KIND[kind]}, which has no data loaded`);
}

/** The insights of the vessels, added together, keys in the live service's order. */
export async function vesselInsights(store: EventStore, directory: VesselDirectory, ctx: NormalizeContext, request: InsightRequest, includesTitle: string): Promise<Record<string, unknown>> {
  const ids = request.vesselIds;
  const unknown = ids.filter((id) => !directory.vessel(id));
  const period = { startDate: request.startDate, endDate: request.endDate };
  const answer: Record<string, unknown> = { period, vesselIdsWithoutIdentity: unknown.length > 0 ? unknown : null };
  if (request.includes.has('GAP')) {
    requireLoaded(store, 'gap', 'GAP', includesTitle);
    const [all, inPeriod] = await Promise.all([entriesOf(store, ctx, 'gap', ids), entriesOf(store, ctx, 'gap', ids, period)]);
    const counters = (entries: Entry[]) => ({ events: entries.length, eventsGapOff: entries.filter(aisOff).length });
    answer['gap'] = {
      datasets: [all.version],
      historicalCounters: counters(all.entries),
      periodSelectedCounters: counters(inPeriod.entries),
      aisOff: inPeriod.entries.filter(aisOff).map((e) => e.id),
    };
  }
  if (request.includes.has('FISHING')) {
    requireLoaded(store, 'fishing', 'FISHING', includesTitle);
    const [all, inPeriod] = await Promise.all([entriesOf(store, ctx, 'fishing', ids), entriesOf(store, ctx, 'fishing', ids, period)]);
    const counters = (entries: Entry[]) => ({
      events: entries.length,
      eventsInRFMOWithoutKnownAuthorization: entries.filter(withoutKnownAuthorization).length,
      eventsInNoTakeMPAs: entries.filter(inNoTakeMpa).length,
    });
    answer['apparentFishing'] = {
      datasets: [all.version],
      historicalCounters: counters(all.entries),
      periodSelectedCounters: counters(inPeriod.entries),
      eventsInRfmoWithoutKnownAuthorization: inPeriod.entries.filter(withoutKnownAuthorization).map((e) => e.id),
      eventsInNoTakeMpas: inPeriod.entries.filter(inNoTakeMpa).map((e) => e.id),
    };
  }
  if (request.includes.has('VESSEL-IDENTITY-IUU-VESSEL-LIST')) {
    const list = await store.iuuListings();
    if (!list) throw invalid(includesTitle, 'VESSEL-IDENTITY-IUU-VESSEL-LIST reads an IUU vessel list, and none is loaded: load one with "vessel-events iuu load FILE", or leave it out');
    answer['vesselIdentity'] = { datasets: [VESSEL_DATASET_LATEST], iuuVesselList: iuuInsight(list, directory, ids, period) };
  }
  return answer;
}

/**
 * The vessels' listings: a listing names a vessel by its id, or by an MMSI one of its identities
 * reported. In the period: the listings that overlap [startDate, endDate).
 */
export function iuuInsight(list: readonly IuuListing[], directory: VesselDirectory, vesselIds: readonly string[], period: { startDate: string; endDate: string }): Record<string, unknown> {
  const ids = new Set(vesselIds);
  const ssvids = new Set(vesselIds.flatMap((id) => directory.vessel(id)?.identities.map((i) => i.ssvid) ?? []).filter((s) => s !== null));
  const listed = list.filter((l) => (l.vesselId !== null && ids.has(l.vesselId)) || (l.ssvid !== null && ssvids.has(l.ssvid)));
  const inPeriod = listed.filter((l) => l.listedFrom < period.endDate && (l.listedTo === null || l.listedTo >= period.startDate));
  return {
    valuesInThePeriod: inPeriod.map((l) => ({ from: `${l.listedFrom}T00:00:00Z`, to: l.listedTo === null ? null : `${l.listedTo}T00:00:00Z` })),
    totalTimesListed: listed.length,
    totalTimesListedInThePeriod: inPeriod.length,
  };
}
