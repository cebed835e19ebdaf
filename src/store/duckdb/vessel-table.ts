// The lookup by vessel that never scans (docs/performance.md). Events are stored sorted by time, so
// one vessel's rows are spread over the whole table; vessel_events holds, for every event, the
// columns a vessel's history is filtered and sorted on and its entry, sorted by a 64-bit key of
// the vessel id, so the key's zone maps find a vessel's rows in one row group. The entries there
// are zstd-compressed: a vessel's rows lie together, so one decompression serves them all. The
// loader copies them from events (src/store/duckdb/writer.ts).
import { createHash } from 'node:crypto';
import type { EventQuery } from '../../query/types.ts';

export const CREATE_VESSEL_TABLE = `CREATE TABLE IF NOT EXISTS vessel_events (
  vessel_key UBIGINT NOT NULL, version_id USMALLINT NOT NULL, vessel_id VARCHAR NOT NULL, id VARCHAR NOT NULL,
  kind VARCHAR NOT NULL, start_ts TIMESTAMP NOT NULL, end_ts TIMESTAMP, entry VARCHAR NOT NULL USING COMPRESSION zstd)`;

/** The key in SQL (what the loader writes)... */
export const VESSEL_KEY_SQL = (vesselId: string) => `md5_number_upper(${vesselId})`;

/** ...and in JS, so a query carries its keys as constants that the zone maps can test. */
export function vesselKey(vesselId: string): bigint {
  return createHash('md5').update(vesselId, 'utf8').digest().readBigUInt64LE(0);
}

/**
 * The members of a query vessel_events can answer: the filters on its columns (dataset versions,
 * vessels, ids, types and open gaps on kind and end, durations and the time window) and paging.
 * A query with anything else (a new filter too) reads the events table.
 */
const ANSWERED: ReadonlySet<string> = new Set(['datasets', 'vesselIds', 'eventIds', 'types', 'gapClosed', 'duration', 'time', 'sort', 'limit', 'offset', 'shape']);

/** Whether every filter of the query is on vessel_events' columns (so it can count the query's vessels). */
export function vesselTableAnswers(query: EventQuery): boolean {
  return Object.entries(query).every(([key, value]) => value === undefined || ANSWERED.has(key));
}

/** Whether a query is a vessel's history: vessels named, every filter answered by vessel_events. */
export function servedByVesselTable(query: EventQuery): boolean {
  return (query.vesselIds?.length ?? 0) > 0 && vesselTableAnswers(query);
}

/** The FROM and the extra condition of a query on vessel_events. */
export function vesselSource(query: EventQuery): { from: string; prune: string } {
  const keys = [...new Set(query.vesselIds!.map(vesselKey))];
  return { from: 'vessel_events', prune: `vessel_key IN (${keys.map((k) => `${k}::UBIGINT`).join(', ')})` };
}
