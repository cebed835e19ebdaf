// A reference implementation of the filter semantics (decisions section 4) in plain TypeScript over
// the loaded records, written for the tests only and independently of the SQL path.
import type { EventRecord } from '../../src/data/record.ts';
import type { EventQuery, ListQuery } from '../../src/query/types.ts';

const KIND_OF: Record<string, string> = { FISHING: 'fishing', ENCOUNTER: 'encounter', LOITERING: 'loitering', PORT_VISIT: 'port_visit', GAP: 'gap' };

function listed(values: string[], operator: string, value: string | null): boolean {
  const hit = value !== null && values.includes(value);
  return operator === 'INCLUDE' ? hit : !hit;
}

export function referenceMatches(r: EventRecord, q: EventQuery): boolean {
  if (!q.datasets.some((d) => d.kind === r.kind)) return false;
  if (q.vesselIds && !q.vesselIds.includes(r.vessel.id)) return false;
  if (q.eventIds && !q.eventIds.includes(r.id)) return false;
  if (q.types) {
    const hit = q.types.values.some((t) => (t === 'GAP_START' ? r.kind === 'gap' && r.endMs === null : KIND_OF[t] === r.kind));
    if (q.types.operator === 'INCLUDE' ? !hit : hit) return false;
  }
  if (q.flags && !listed(q.flags.values, q.flags.operator, r.vessel.flag)) return false;
  if (q.vesselTypes && !listed(q.vesselTypes.values, q.vesselTypes.operator, r.vessel.type)) return false;
  const { startMs, endMs, mode } = q.time;
  if (mode === 'OVERLAP') {
    if (startMs !== undefined && r.endMs !== null && r.endMs < startMs) return false;
    if (endMs !== undefined && r.startMs >= endMs) return false;
  } else {
    const t = mode === 'START-DATE' ? r.startMs : r.endMs;
    if (t === null) return false;
    if (startMs !== undefined && t < startMs) return false;
    if (endMs !== undefined && t >= endMs) return false;
  }
  return true;
}

export function referencePage(records: EventRecord[], q: ListQuery): { total: number; ids: string[] } {
  const matching = records.filter((r) => referenceMatches(r, q));
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
