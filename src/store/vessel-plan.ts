// When a table of events by vessel (DuckDB's vessel_events, src/store/duckdb/vessel-table.ts;
// PostgreSQL's, src/store/postgres/vessel-table.ts) answers a query: the rule both engines follow.
// Each table holds, per event, its vessel and the columns a vessel's history is filtered and sorted on.
import type { Field } from '../query/plan.ts';
import type { EventQuery } from '../query/types.ts';

/** The fields the tables have columns for. */
const VESSEL_TABLE_FIELDS: ReadonlySet<Field> = new Set<Field>(['version', 'vessel', 'id', 'kind', 'start', 'end']);

/**
 * Whether every condition of the query's plan reads only fields a table by vessel has (dataset
 * versions, vessels, ids, kinds, start and end: types, open gaps, durations, the time window), so
 * it can answer the query or count its vessels. Anything else (regions, positions, a new filter)
 * reads the events table.
 */
export function vesselTableAnswers(query: EventQuery): boolean {
  const { fields, other } = query.filters;
  return other.size === 0 && [...fields].every((f) => VESSEL_TABLE_FIELDS.has(f));
}

/** Whether a query is a vessel's history: vessels named, every filter answered by a table by vessel. */
export function servedByVesselTable(query: EventQuery): boolean {
  return (query.vesselIds?.length ?? 0) > 0 && vesselTableAnswers(query);
}
