// The filter plan (src/query/plan.ts) in DuckDB's SQL. The plan says what each filter means; this
// file only says how DuckDB writes it: the column of each field (the field registry), lists and
// struct paths, timestamps, lambdas. Every value is a bound parameter, never SQL text.
import { DuckDBTimestampValue } from '@duckdb/node-api';
import { REGION_MEMBERS, type RegionMember } from '../../domain/regions.ts';
import type { Condition, Field } from '../../query/plan.ts';
import type { SqlBuilder } from './compile.ts';
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

export function renderCondition(b: SqlBuilder, c: Condition): string {
  switch (c.is) {
    case 'true': return 'TRUE';
    case 'false': return 'FALSE';
    case 'and': return `(${c.all.map((x) => renderCondition(b, x)).join(' AND ')})`;
    case 'or': return `(${c.any.map((x) => renderCondition(b, x)).join(' OR ')})`;
    case 'not':
      // The negations DuckDB has words for, so they read (and plan) as before the plan existed.
      if (c.condition.is === 'oneOf') return `${FIELD_COLUMN[c.condition.field]} NOT IN (${b.placeholders(c.condition.values)})`;
      if (c.condition.is === 'missing') return `${FIELD_COLUMN[c.condition.field]} IS NOT NULL`;
      return `NOT ${renderCondition(b, c.condition)}`;
    case 'oneOf': return `${FIELD_COLUMN[c.field]} IN (${b.placeholders(c.values)})`;
    case 'missing': return `${FIELD_COLUMN[c.field]} IS NULL`;
    case 'atOrAfter': return `${FIELD_COLUMN[c.field]} >= ${b.param(timestamp(c.ms))}`;
    case 'before': return `${FIELD_COLUMN[c.field]} < ${b.param(timestamp(c.ms))}`;
    case 'inVesselGroups': return `vessel_id IN (SELECT vessel_id FROM vessel_groups WHERE group_id IN (${b.placeholders(c.groups)}))`;
    case 'inRegion': return `list_contains(${REGION_COLUMN[c.member]}, ${b.param(c.id)})`;
    case 'inPolygons': return compilePolygons(b, c.polygons);
    case 'lastsAtLeast':
    case 'lastsLessThan': {
      const openUntil = c.openUntil.map((v) => `WHEN ${b.param(v.version)} THEN ${b.param(timestamp(v.ms))}`);
      const length = `date_diff('millisecond', start_ts, coalesce(end_ts, CASE version_id ${openUntil.join(' ')} END))`;
      return `${length} ${c.is === 'lastsAtLeast' ? '>=' : '<'} ${b.param(c.ms)}`;
    }
  }
}
