// `metadata` echoes what the service understood (decisions section 5): resolved datasets and the
// normalised filters, for people debugging a query. The same description keys the ETag.
import { resolvedName } from '../query/datasets.ts';
import type { EventQuery, ListQuery } from '../query/types.ts';

export function describeQuery(q: EventQuery | ListQuery): Record<string, unknown> {
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  const described: Record<string, unknown> = {
    datasets: q.datasets.map(resolvedName),
    vessels: q.vesselIds,
    ids: q.eventIds,
    types: q.types,
    flags: q.flags,
    vesselTypes: q.vesselTypes,
    vesselGroups: q.vesselGroups,
    confidences: q.confidences,
    encounterTypes: q.encounterTypes,
    gapIntentionalDisabling: q.gapIntentional,
    isClosed: q.gapClosed,
    portIds: q.portIds,
    nextPortIds: q.nextPortIds,
    minDurationHours: q.duration?.minMs === undefined ? undefined : q.duration.minMs / 3_600_000,
    maxDurationHours: q.duration?.maxMs === undefined ? undefined : q.duration.maxMs / 3_600_000,
    startDate: iso(q.time.startMs),
    endDate: iso(q.time.endMs),
    timeFilterMode: q.time.mode,
  };
  if ('sort' in q) {
    described['sort'] = q.sort;
    if (q.shape.includes) described['includes'] = q.shape.includes;
    if (!q.shape.includeRegions) described['includeRegions'] = false;
    if (q.shape.summary) described['summary'] = true;
  }
  return Object.fromEntries(Object.entries(described).filter(([, v]) => v !== undefined));
}
