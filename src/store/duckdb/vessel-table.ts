// The lookup by vessel that never scans (docs/performance.md). Events are stored sorted by time, so
// one vessel's rows are spread over the whole table; vessel_events holds, for every event, the
// columns a vessel's history is filtered and sorted on and its entry, sorted by a 64-bit key of
// the vessel id, so the key's zone maps find a vessel's rows in one row group. The entries there
// are zstd-compressed: a vessel's rows lie together, so one decompression serves them all. The
// loader copies them from events (src/store/duckdb/writer.ts).
import { createHash } from 'node:crypto';
import type { EventQuery } from '../../query/types.ts';
import { fieldsRead, planFilters, type Field } from '../../query/plan.ts';

export const CREATE_VESSEL_TABLE = `CREATE TABLE IF NOT EXISTS vessel_events (
  vessel_key UBIGINT NOT NULL, version_id USMALLINT NOT NULL, vessel_id VARCHAR NOT NULL, id VARCHAR NOT NULL,
  kind VARCHAR NOT NULL, start_ts TIMESTAMP NOT NULL, end_ts TIMESTAMP, entry VARCHAR NOT NULL USING COMPRESSION zstd)`;

/** The key in SQL (what the loader writes)... */
export const VESSEL_KEY_SQL = (vesselId: string) => `md5_number_upper(${vesselId})`;

/** ...and in JS, so a query carries its keys as constants that the zone maps can test. */
export function vesselKey(vesselId: string): bigint {
  return createHash('md5').update(vesselId, 'utf8').digest().readBigUInt64LE(0);
}

/** The fields vessel_events has columns for (src/store/duckdb/render-plan.ts names them). */
const VESSEL_TABLE_FIELDS: ReadonlySet<Field> = new Set<Field>(['version', 'vessel', 'id', 'kind', 'start', 'end']);

/**
 * Whether every condition of the query's plan reads only fields vessel_events has (dataset
 * versions, vessels, ids, kinds, start and end: types, open gaps, durations, the time window), so
 * it can answer the query or count its vessels. Anything else (regions, positions, a new filter)
 * reads the events table.
 */
export function vesselTableAnswers(query: EventQuery): boolean {
  const { fields, other } = fieldsRead(planFilters(query));
  return other.size === 0 && [...fields].every((f) => VESSEL_TABLE_FIELDS.has(f));
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
