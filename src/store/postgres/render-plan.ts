// The filter plan (src/query/plan.ts) in PostgreSQL's SQL: the column of each field (schema.ts),
// arrays through their GIN indexes (`@>`), polygons through PostGIS and the GiST index of the
// points. Every value is a bound parameter, never SQL text.
import { REGION_MEMBERS, type RegionMember } from '../../domain/regions.ts';
import type { Condition } from '../../query/plan.ts';
import type { SqlBuilder } from '../sql.ts';
import { FIELD_COLUMN } from './schema.ts';

const REGION_COLUMN = Object.fromEntries(REGION_MEMBERS.map((m) => [m.member, m.column])) as Record<RegionMember, string>;

/** A UTC instant as a timestamp literal (the columns are UTC timestamps without a zone). */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23);
}

/** Milliseconds since the epoch of a timestamp expression, truncated as DuckDB's date_diff counts them. */
const epochMs = (ts: string) => `floor(extract(epoch FROM ${ts}) * 1000)`;

export function renderCondition(b: SqlBuilder, c: Condition): string {
  switch (c.is) {
    case 'true': return 'TRUE';
    case 'false': return 'FALSE';
    case 'and': return `(${c.all.map((x) => renderCondition(b, x)).join(' AND ')})`;
    case 'or': return `(${c.any.map((x) => renderCondition(b, x)).join(' OR ')})`;
    case 'not':
      if (c.condition.is === 'oneOf') return `${FIELD_COLUMN[c.condition.field]} NOT IN (${b.placeholders(c.condition.values)})`;
      if (c.condition.is === 'missing') return `${FIELD_COLUMN[c.condition.field]} IS NOT NULL`;
      return `NOT ${renderCondition(b, c.condition)}`;
    case 'oneOf': return `${FIELD_COLUMN[c.field]} IN (${b.placeholders(c.values)})`;
    case 'missing': return `${FIELD_COLUMN[c.field]} IS NULL`;
    case 'atOrAfter': return `${FIELD_COLUMN[c.field]} >= ${b.param(timestamp(c.ms))}::timestamp`;
    case 'before': return `${FIELD_COLUMN[c.field]} < ${b.param(timestamp(c.ms))}::timestamp`;
    case 'inVesselGroups': return `vessel_id IN (SELECT vessel_id FROM vessel_groups WHERE group_id IN (${b.placeholders(c.groups)}))`;
    case 'inRegion': return `${REGION_COLUMN[c.member]} @> ARRAY[${b.param(c.id)}::text]`;
    case 'inPolygons': {
      // One MultiPolygon: PostGIS tests a point against each of its polygons (so overlaps are a
      // union), with each polygon's holes, on the plane of lon/lat as the DuckDB engine does.
      const shape = JSON.stringify({ type: 'MultiPolygon', coordinates: c.polygons });
      return `ST_Intersects(position, ST_SetSRID(ST_GeomFromGeoJSON(${b.param(shape)}), 4326))`;
    }
    case 'lastsAtLeast':
    case 'lastsLessThan': {
      const openUntil = c.openUntil.map((v) => `WHEN ${b.param(v.version)}::smallint THEN ${b.param(timestamp(v.ms))}::timestamp`);
      const end = `coalesce(end_ts, CASE version_id ${openUntil.join(' ')} END)`;
      return `${epochMs(end)} - ${epochMs('start_ts')} ${c.is === 'lastsAtLeast' ? '>=' : '<'} ${b.param(c.ms)}`;
    }
  }
}
