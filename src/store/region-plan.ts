// When a table of events by region (DuckDB's region_events, src/store/duckdb/region-table.ts;
// PostgreSQL's, src/store/postgres/region-table.ts) answers a query: the rule both engines follow.
// Each table holds, per event and region it lies in, the columns a region query is commonly
// filtered on, in the order of (version, layer, region, start).
import { REGION_MEMBERS, type RegionMember } from '../domain/regions.ts';
import { fieldsRead, type Condition, type Field } from '../query/plan.ts';
import type { EventQuery } from '../query/types.ts';

/**
 * The layers the table holds. RFMOs are left out: an event lies in 6.1 of them on average (1M
 * demo), so they would have taken 70 of the table's 117 bytes per event and most of its load time,
 * and an RFMO spans an ocean, where the table prunes least.
 */
export const REGION_TABLE_LAYERS = REGION_MEMBERS.filter((m) => m.member !== 'rfmo');
export const REGION_TABLE_MEMBERS: readonly RegionMember[] = REGION_TABLE_LAYERS.map((m) => m.member);

/** The fields region_events has columns for, besides the region (render-plan.ts's column names). */
const REGION_TABLE_FIELDS: ReadonlySet<Field> = new Set<Field>(['version', 'kind', 'start', 'end', 'vesselFlag', 'vesselType']);

/** A query the table counts: its one region and its other conditions. */
export interface RegionPlan {
  region: { member: RegionMember; id: string };
  others: Condition[];
}

/**
 * The plan when region_events answers the query's total: every dataset version is in it, its area
 * is one region of a layer the table holds (an event in two of several regions would be two
 * rows), and every other condition reads only fields the table has (versions, kinds, start and end,
 * flags and vessel types: the time window, types, durations, open gaps).
 */
export function regionPlan(query: EventQuery, versions: ReadonlySet<number>): RegionPlan | undefined {
  if (query.area?.type !== 'regions' || !query.datasets.every((d) => versions.has(d.resolved.versionId))) return undefined;
  const conditions = query.filters.conditions;
  const regions = conditions.filter((c): c is Extract<Condition, { is: 'inRegion' }> => c.is === 'inRegion');
  if (regions.length !== 1 || !REGION_TABLE_MEMBERS.includes(regions[0]!.member)) return undefined;
  const others = conditions.filter((c) => c.is !== 'inRegion');
  const { fields, other } = fieldsRead(others);
  if (other.size > 0 || ![...fields].every((f) => REGION_TABLE_FIELDS.has(f))) return undefined;
  return { region: { member: regions[0]!.member, id: regions[0]!.id }, others };
}

