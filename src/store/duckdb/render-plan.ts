// DuckDB's dialect of the filter plan's SQL (src/store/render-plan.ts writes the rest): the column
// of each field (the field registry), lists, timestamps, polygons over the stored lon/lat.
import { DuckDBTimestampValue, listValue, type DuckDBValue } from '@duckdb/node-api';
import { REGION_MEMBERS, type RegionMember } from '../../domain/regions.ts';
import type { Condition, Field } from '../../query/plan.ts';
import { renderCondition as render, type SqlDialect } from '../render-plan.ts';
import type { SqlBuilder } from './sql-builder.ts';
import { compilePolygons } from './polygon-sql.ts';

/** The column (or struct path) holding each field, in events and, for some fields, vessel_events. */
export const FIELD_COLUMN: Readonly<Record<Field, string>> = {
  version: 'version_id',
  id: 'id',
  vessel: 'vessel_id',
  kind: 'kind',
  vesselFlag: 'vessel_flag',
  vesselType: 'vessel_type',
  nextPort: 'next_port.id',
  portVisitConfidence: 'port_visit.confidence',
  portVisitAnchorage: 'port_visit.intermediate_anchorage.id',
  encounterType: 'encounter.type',
  gapIntentionalDisabling: 'gap.intentional_disabling',
  start: 'start_ts',
  end: 'end_ts',
};

const REGION_COLUMN = Object.fromEntries(REGION_MEMBERS.map((m) => [m.member, m.column])) as Record<RegionMember, string>;

export function timestamp(ms: number): DuckDBTimestampValue {
  return new DuckDBTimestampValue(BigInt(ms) * 1000n);
}

/**
 * Columns a bound JS number does not match in type: DuckDB would cast the column to the number's
 * type, and its zone maps would no longer skip row groups. Cast the values instead: a year of
 * encounters on 10M events counted in 4.9 ms against 9.7, one EEZ and flag in 38.7 against 55.5
 * (docs/performance.md, "Regions: a table sorted by region").
 */
const PARAMETER_TYPE: Readonly<Record<string, string>> = { version_id: 'USMALLINT' };

/** A bound value, cast to the column's type where it needs to be. */
export function typedParam(b: SqlBuilder, column: string, value: DuckDBValue): string {
  const type = PARAMETER_TYPE[column];
  return type ? `${b.param(value)}::${type}` : b.param(value);
}

/**
 * Past this many values a list is one bound list, not a parameter each: binding and planning
 * 70,000 parameters took 1.9 s for a count on 3,000 events, the bound list 0.2 s
 * (docs/performance.md, "Long lists"). Short lists stay parameters, which zone maps prune on.
 */
export const LONG_LIST = 1000;

function inList(b: SqlBuilder, column: string, values: readonly (string | number | boolean)[], negated: boolean): string {
  if (values.length > LONG_LIST && values.every((v) => typeof v === 'string')) {
    return `${negated ? 'NOT ' : ''}list_contains(${b.param(listValue(values as string[]))}::VARCHAR[], ${column})`;
  }
  return `${column} ${negated ? 'NOT IN' : 'IN'} (${values.map((v) => typedParam(b, column, v)).join(', ')})`;
}

const DUCKDB: SqlDialect<DuckDBValue> = {
  column: FIELD_COLUMN,
  inList,
  instant: (b, ms) => b.param(timestamp(ms)),
  inRegion: (b, member, id) => `list_contains(${REGION_COLUMN[member]}, ${b.param(id)})`,
  inPolygons: (b, polygons) => compilePolygons(b, polygons),
  lasts(b, c) {
    const openUntil = c.openUntil.map((v) => `WHEN ${b.param(v.version)} THEN ${b.param(timestamp(v.ms))}`);
    const length = `date_diff('millisecond', start_ts, coalesce(end_ts, CASE version_id ${openUntil.join(' ')} END))`;
    return `${length} ${c.is === 'lastsAtLeast' ? '>=' : '<'} ${b.param(c.ms)}`;
  },
};

export function renderCondition(b: SqlBuilder, c: Condition): string {
  return render(b, c, DUCKDB);
}
