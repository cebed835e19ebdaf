// The filter plan (src/query/plan.ts) in SQL: what both engines write alike (the logic, lists,
// missing values, vessel groups) is here, once; each engine's dialect says where a field is and how
// it writes instants, region lists, polygons and durations (src/store/duckdb/render-plan.ts,
// src/store/postgres/render-plan.ts). Every value is a bound parameter, never SQL text.
import type { RegionMember } from '../domain/regions.ts';
import type { Polygon } from '../geo/geojson.ts';
import type { Condition, Field } from '../query/plan.ts';
import type { SqlBuilder } from './sql.ts';

export type Lasts = Extract<Condition, { is: 'lastsAtLeast' | 'lastsLessThan' }>;

export interface SqlDialect<Value> {
  /** The column (or path) holding each field. */
  column: Readonly<Record<Field, string>>;
  /** A bound instant, comparable with the time columns. */
  instant(b: SqlBuilder<Value>, ms: number): string;
  /** The event's `regions` member lists the region. */
  inRegion(b: SqlBuilder<Value>, member: RegionMember, id: string): string;
  inPolygons(b: SqlBuilder<Value>, polygons: readonly Polygon[]): string;
  /** The whole comparison of an event's length with `c.ms`. */
  lasts(b: SqlBuilder<Value>, c: Lasts): string;
  /** `column IN (values)` (or NOT IN); by default one parameter per value. */
  inList?(b: SqlBuilder<Value>, column: string, values: readonly (string | number | boolean)[], negated: boolean): string;
}


export function renderCondition<Value>(b: SqlBuilder<Value>, c: Condition, d: SqlDialect<Value>): string {
  const inList = (column: string, xs: readonly (string | number | boolean)[], negated = false) =>
    d.inList ? d.inList(b, column, xs, negated) : `${column} ${negated ? 'NOT IN' : 'IN'} (${b.placeholders(xs as unknown as Value[])})`;
  switch (c.is) {
    case 'true': return 'TRUE';
    case 'false': return 'FALSE';
    case 'and': return `(${c.all.map((x) => renderCondition(b, x, d)).join(' AND ')})`;
    case 'or': return `(${c.any.map((x) => renderCondition(b, x, d)).join(' OR ')})`;
    case 'not':
      // The negations SQL has words for, so they read (and plan) as a person would write them.
      if (c.condition.is === 'oneOf') return inList(d.column[c.condition.field], c.condition.values, true);
      if (c.condition.is === 'missing') return `${d.column[c.condition.field]} IS NOT NULL`;
      return `NOT ${renderCondition(b, c.condition, d)}`;
    case 'oneOf': return inList(d.column[c.field], c.values);
    case 'missing': return `${d.column[c.field]} IS NULL`;
    case 'atOrAfter': return `${d.column[c.field]} >= ${d.instant(b, c.ms)}`;
    case 'before': return `${d.column[c.field]} < ${d.instant(b, c.ms)}`;
    case 'inVesselGroups': return `${d.column.vessel} IN (SELECT vessel_id FROM vessel_groups WHERE ${inList('group_id', c.groups)})`;
    case 'inRegion': return d.inRegion(b, c.member, c.id);
    case 'inPolygons': return d.inPolygons(b, c.polygons);
    case 'lastsAtLeast':
    case 'lastsLessThan': return d.lasts(b, c);
  }
}
