// When statistics can be read from monthly rollups rather than from every event, and how: the
// rule both engines follow (DuckDB's stats_months, src/store/duckdb/stats-months.ts; PostgreSQL's
// stats_flag_months and stats_vessel_months, src/store/postgres/stats-rollups.ts). A rollup has
// columns for the version and the flag and counts events by the month they start in, so it answers
// a query whose other conditions are on the time window alone, for the window's whole months; the
// partial months at its edges are read from the events, with every condition of the query.
import { fieldsRead, type Condition, type Field } from '../query/plan.ts';
import type { StatsOptionsNormalized } from '../query/stats.ts';
import type { EventQuery } from '../query/types.ts';
import { wholeMonthsOf, type WholeMonthSpan } from './whole-months.ts';

/** The fields a rollup has columns for; the time window's are answered by its whole months. */
const ROLLUP_FIELDS: ReadonlySet<Field> = new Set<Field>(['version', 'vesselFlag']);
const TIME_FIELDS: ReadonlySet<Field> = new Set<Field>(['start', 'end']);

export interface MonthStatsPlan extends WholeMonthSpan {
  /** The query's conditions on the rollup's columns (versions, flags), rendered on the rollup. */
  rollupConditions: Condition[];
}

/**
 * How the rollups answer a statistics query, or undefined when they cannot: a condition on anything
 * but the versions, the flag and the time window; a window whose events are not placed by their
 * start (END-DATE); buckets finer than a month; a grouping but by flag; a version without rollups
 * (`versions` lists those with); or no whole month in the window.
 */
export function planMonthStats(query: EventQuery, options: StatsOptionsNormalized, versions: ReadonlySet<number>): MonthStatsPlan | undefined {
  const rollupConditions: Condition[] = [];
  for (const condition of query.filters.conditions) {
    const { fields, other } = fieldsRead([condition]);
    if (other.size > 0) return undefined;
    if ([...fields].every((f) => ROLLUP_FIELDS.has(f))) rollupConditions.push(condition);
    else if (![...fields].every((f) => TIME_FIELDS.has(f))) return undefined;
  }
  if (query.time.mode !== 'START-DATE' && query.time.mode !== 'OVERLAP') return undefined;
  if (options.includes.has('TIME_SERIES') && options.interval !== 'MONTH' && options.interval !== 'YEAR') return undefined;
  if (options.includes.has('EVENTS_GROUPED') && options.groupBy !== undefined && options.groupBy !== 'FLAG') return undefined;
  if (!query.datasets.every((d) => versions.has(d.resolved.versionId))) return undefined;
  // In either mode every event starting inside the window is counted (its end is at or after its
  // start); OVERLAP adds those starting before it, which the edge before the whole months reads
  // from the events with the window's conditions.
  const months = wholeMonthsOf(query.time.startMs, query.time.endMs);
  return months && { rollupConditions, ...months };
}
