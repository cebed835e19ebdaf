// Vessel histories from the point files (point-file-format.ts): each version's file holds a vessel's
// records together, so a history is a few block reads, with no query to DuckDB. Two queries on
// vessel_events took 4-9 ms on 10M events; this takes about a millisecond (docs/performance.md,
// "Vessel histories from the point files"). The query's filter plan is evaluated in TypeScript
// (src/query/evaluate-plan.ts) on the fields a record carries, which are the fields vessel_events
// has: servedByVesselTable decides for both which queries they answer.
import type { Field } from '../../query/plan.ts';
import { evaluatePlan, type FieldValue } from '../../query/evaluate-plan.ts';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import type { SortValue } from '../../query/enumerations.ts';
import type { PointFile, VesselRecord } from './point-file-format.ts';
import { servedByVesselTable } from '../vessel-plan.ts';

/**
 * Runs (vessels times versions) above which a history is read from vessel_events instead: each
 * run costs at least one block's decompression (about 0.3 ms), a query on vessel_events about 5 ms
 * whatever the number of vessels.
 */
const MAX_RUNS = 64;

/** Whether the point files answer a query: a vessel's history, every version with a usable file. */
export function pointFilesAnswer(query: EventQuery, points: ReadonlyMap<number, PointFile>): boolean {
  if (!servedByVesselTable(query)) return false;
  const versions = new Set(query.datasets.map((d) => d.resolved.versionId));
  return [...versions].every((v) => points.has(v)) && versions.size * query.vesselIds!.length <= MAX_RUNS;
}

export interface HistoryMatch {
  record: VesselRecord;
  versionId: number;
}

/** The records of the query's vessels that meet every condition of its plan, version by version. */
export async function historyMatches(query: EventQuery, points: ReadonlyMap<number, PointFile>): Promise<HistoryMatch[]> {
  const plan = query.filters.conditions;
  // A version named twice (a dataset by its version and as latest) is read once, as SQL's IN does.
  const kinds = new Map(query.datasets.map((d) => [d.resolved.versionId, d.resolved.kind]));
  // Every (version, vessel) run's blocks are read at once: the reads overlap on libuv's threads.
  const runs = [...kinds].flatMap(([versionId, kind]) => query.vesselIds!.map((vessel) => ({ versionId, kind, vessel })));
  const read = await Promise.all(runs.map(({ versionId, vessel }) => points.get(versionId)!.vesselRecords(vessel)));
  const matches: HistoryMatch[] = [];
  for (const [k, { versionId, kind }] of runs.entries()) {
    for (const record of read[k]!) {
      const valueOf = (field: Field): FieldValue => {
        switch (field) {
          case 'version': return versionId;
          case 'id': return record.id;
          case 'vessel': return record.vessel;
          case 'kind': return kind;
          case 'start': return record.startUs / 1000;
          case 'end': return record.endUs === null ? null : record.endUs / 1000;
          default: throw new Error(`a vessel history does not read ${field}`);
        }
      };
      if (plan.every((c) => evaluatePlan(c, valueOf) === true)) matches.push({ record, versionId });
    }
  }
  return matches;
}

/** The page's stored entries: the matches in the list's order (sql.ts ORDER_BY), offset and limit applied. */
export function historyPage(matches: HistoryMatch[], query: ListQuery): string[] {
  return [...matches].sort(ORDER[query.sort]).slice(query.offset, query.offset + query.limit).map((m) => m.record.entry());
}

type Order = (a: HistoryMatch, b: HistoryMatch) => number;
const byId: Order = (a, b) => compareUtf8(a.record.id, b.record.id);
const byStart: Order = (a, b) => a.record.startUs - b.record.startUs;
// An open event has not ended: it sorts after every ended event on +end and before them on -end.
const byEnd: Order = (a, b) => (a.record.endUs ?? Infinity) - (b.record.endUs ?? Infinity) || 0;
const ORDER: Record<SortValue, Order> = {
  '+start': (a, b) => byStart(a, b) || byId(a, b),
  '-start': (a, b) => byStart(b, a) || byId(b, a),
  '+end': (a, b) => byEnd(a, b) || byId(a, b),
  '-end': (a, b) => byEnd(b, a) || byId(b, a),
};

/**
 * Strings in the order of their UTF-8 bytes, DuckDB's order for VARCHAR. JavaScript compares
 * UTF-16 code units, which differs only where a surrogate pair (a character above U+FFFF) meets a
 * unit from U+E000 to U+FFFF: surrogates are moved above that range.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

const codePointRank = (unit: number) => (unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit);
