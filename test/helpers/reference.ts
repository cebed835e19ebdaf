// A reference implementation of the filter semantics (docs/api.md, "Parameters") in plain TypeScript over
// the loaded records, written for the tests only and independently of the SQL path.
import type { EventRecord } from '../../src/domain/record.ts';
import type { EventQuery, ListQuery } from '../../src/query/types.ts';

const KIND_OF: Record<string, string> = { FISHING: 'fishing', ENCOUNTER: 'encounter', LOITERING: 'loitering', PORT_VISIT: 'port_visit', GAP: 'gap' };

function listed(filter: { values: readonly (string | number)[]; operator: string } | undefined, value: string | number | null | undefined): boolean {
  if (!filter) return true;
  const hit = value !== null && value !== undefined && filter.values.includes(value);
  return filter.operator === 'INCLUDE' ? hit : !hit;
}

export interface ReferenceData {
  records: EventRecord[];
  groups: Map<string, Set<string>>;
}

/** The query as the reference reads it: the kinds searched instead of resolved datasets. */
export type ReferenceQuery = Omit<EventQuery, 'datasets'> & { kinds: string[] };
export type ReferenceListQuery = ReferenceQuery & Pick<ListQuery, 'sort' | 'limit' | 'offset'>;

export function fromEventQuery<Q extends EventQuery>(q: Q): Omit<Q, 'datasets'> & { kinds: string[] } {
  const { datasets, ...rest } = q;
  return { ...rest, kinds: datasets.map((d) => d.kind) };
}

// A dataset was last updated when its latest event ended (or, if open, started); open events run to it.
const lastUpdatedCache = new WeakMap<EventRecord[], Map<string, number>>();
export function lastUpdated(records: EventRecord[]): Map<string, number> {
  let map = lastUpdatedCache.get(records);
  if (!map) {
    map = new Map();
    for (const r of records) map.set(r.kind, Math.max(map.get(r.kind) ?? -Infinity, r.endMs ?? r.startMs));
    lastUpdatedCache.set(records, map);
  }
  return map;
}

export function referenceMatches(r: EventRecord, q: ReferenceQuery, data: ReferenceData): boolean {
  if (!q.kinds.includes(r.kind)) return false;
  if (q.vesselIds && !q.vesselIds.includes(r.vessel.id)) return false;
  if (q.eventIds && !q.eventIds.includes(r.id)) return false;
  if (q.types) {
    const hit = q.types.values.some((t) => (t === 'GAP_START' ? r.kind === 'gap' && r.endMs === null : KIND_OF[t] === r.kind));
    if (q.types.operator === 'INCLUDE' ? !hit : hit) return false;
  }
  if (!listed(q.flags, r.vessel.flag)) return false;
  if (!listed(q.vesselTypes, r.vessel.type)) return false;
  if (q.vesselGroups && !q.vesselGroups.some((g) => data.groups.get(g)?.has(r.vessel.id))) return false;
  if (!listed(q.nextPortIds, r.vessel.next_port?.id)) return false;
  if (r.kind === 'port_visit') {
    if (q.confidences && !listed(q.confidences, String(r.info['confidence']))) return false;
    if (q.portIds && !listed(q.portIds, (r.info['intermediate_anchorage'] as { id: string } | null)?.id)) return false;
  }
  if (r.kind === 'encounter' && q.encounterTypes && !listed(q.encounterTypes, r.info['type'] as string)) return false;
  if (r.kind === 'gap') {
    if (q.gapIntentional !== undefined && r.info['intentional_disabling'] !== q.gapIntentional) return false;
    if (q.gapClosed !== undefined && (r.endMs !== null) !== q.gapClosed) return false;
  }
  if (q.duration) {
    const ms = (r.endMs ?? lastUpdated(data.records).get(r.kind)!) - r.startMs;
    if (q.duration.minMs !== undefined && ms < q.duration.minMs) return false;
    if (q.duration.maxMs !== undefined && ms >= q.duration.maxMs) return false;
  }
  const { startMs, endMs, mode } = q.time;
  if (mode === 'OVERLAP') {
    if (startMs !== undefined && r.endMs !== null && r.endMs < startMs) return false;
    if (endMs !== undefined && r.startMs >= endMs) return false;
  } else if (startMs !== undefined || endMs !== undefined) {
    // A bound on the end excludes open events, which have none; no bound, no time filter.
    const t = mode === 'START-DATE' ? r.startMs : r.endMs;
    if (t === null) return false;
    if (startMs !== undefined && t < startMs) return false;
    if (endMs !== undefined && t >= endMs) return false;
  }
  return true;
}

export function referencePage(data: ReferenceData, q: ReferenceListQuery): { total: number; ids: string[] } {
  const matching = data.records.filter((r) => referenceMatches(r, q, data));
  const field = q.sort.slice(1) === 'start' ? 'startMs' : 'endMs';
  const desc = q.sort.startsWith('-');
  const key = (r: EventRecord) => r[field] ?? Number.POSITIVE_INFINITY;
  matching.sort((a, b) => {
    const byTime = key(a) - key(b);
    if (byTime !== 0 && !Number.isNaN(byTime)) return desc ? -byTime : byTime;
    const byId = a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return desc ? -byId : byId;
  });
  return { total: matching.length, ids: matching.slice(q.offset, q.offset + q.limit).map((r) => r.id) };
}
