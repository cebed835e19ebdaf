// PostgreSQL's dialect of the filter plan's SQL (src/store/render-plan.ts writes the rest): the
// column of each field (schema.ts), arrays through their GIN indexes (`@>`), polygons through
// PostGIS and the GiST index of the points.
import { REGION_MEMBERS, type RegionMember } from '../../domain/regions.ts';
import type { Condition } from '../../query/plan.ts';
import { renderCondition as render, type SqlDialect } from '../render-plan.ts';
import type { SqlBuilder } from '../sql.ts';
import { lineageOfRowSql, type VersionScope } from './lineage.ts';
import { FIELD_COLUMN, LIST_TYPE } from './schema.ts';

const REGION_COLUMN = Object.fromEntries(REGION_MEMBERS.map((m) => [m.member, m.column])) as Record<RegionMember, string>;

/** A UTC instant as a timestamp literal (the columns are UTC timestamps without a zone). */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23);
}

/** Milliseconds since the epoch of a timestamp expression, truncated as DuckDB's date_diff counts them. */
const epochMs = (ts: string) => `floor(extract(epoch FROM ${ts}) * 1000)`;

/** PostgreSQL's text holds any character but U+0000, so a value with one equals no stored text. */
export const storable = (value: string | number | boolean) => typeof value !== 'string' || !value.includes('\u0000');

/**
 * `column IN values` as one array parameter, however long the list: a statement binds at most 65,535
 * parameters, and a body of 1 MB can name more vessels than that. A value text cannot hold equals
 * nothing stored and is left out; a list of nothing else is never true, and its negation holds
 * wherever the column has a value.
 */
function inList(b: SqlBuilder, column: string, values: readonly (string | number | boolean)[], negated: boolean): string {
  const held = values.filter(storable);
  if (held.length === 0) return negated ? `${column} IS NOT NULL` : 'FALSE';
  const type = LIST_TYPE[column] ?? 'text';
  // One value as `=`: an index scan on `column = ANY(array)` does not come in the index's order, so
  // a page of one dataset version was a sort of the whole version rather than the first rows of
  // (version_id, start_ts, id) (docs/performance.md, "The PostgreSQL engine: pages").
  if (held.length === 1) return `${column} ${negated ? '<>' : '='} ${b.param(held[0])}::${type}`;
  return `${column} ${negated ? '<> ALL' : '= ANY'}(${b.param(held)}::${type}[])`;
}

/** The dialect over tables of rows per version, whose versions are found as `scope` says (lineage.ts). */
function dialect(scope: VersionScope): SqlDialect<unknown> {
  return {
    // A version of a partition that holds several versions' rows is its rows' condition there.
    inList: (b, column, values, negated) => {
      if (column !== FIELD_COLUMN.version || !values.some((v) => scope.isLayered(Number(v)))) return inList(b, column, values, negated);
      const held = `(${[...new Set(values)].map((v) => scope.rowsOf(b, Number(v))).join(' OR ')})`;
      return negated ? `NOT ${held}` : held;
    },
    column: FIELD_COLUMN,
    instant: (b, ms) => `${b.param(timestamp(ms))}::timestamp`,
    // `@>` is what the GIN index serves (`= ANY` is not).
    inRegion: (b, member, id) => (storable(id) ? `${REGION_COLUMN[member]} @> ARRAY[${b.param(id)}::text]` : 'FALSE'),
    // One MultiPolygon: PostGIS tests a point against each of its polygons (so overlaps are a union),
    // with each polygon's holes, on the plane of lon/lat as the DuckDB engine does.
    inPolygons: (b, polygons) => `ST_Intersects(position, ST_SetSRID(ST_GeomFromGeoJSON(${b.param(JSON.stringify({ type: 'MultiPolygon', coordinates: polygons }))}), 4326))`,
    lasts(b, c) {
      // An open event lasts until its version's last update; the rows of a version that shares its
      // partition are told by their lineage (lineage.ts).
      const openUntil = c.openUntil.map((v) => `WHEN ${b.param(scope.partitionOf(v.version))}::smallint THEN ${b.param(timestamp(v.ms))}::timestamp`);
      const end = `coalesce(end_ts, CASE ${lineageOfRowSql('version_id')} ${openUntil.join(' ')} END)`;
      return `${epochMs(end)} - ${epochMs('start_ts')} ${c.is === 'lastsAtLeast' ? '>=' : '<'} ${b.param(c.ms)}`;
    },
  };
}

/** A condition of the filter plan on a table of rows per version, its versions placed by `scope`. */
export function renderCondition(b: SqlBuilder, c: Condition, scope: VersionScope): string {
  return render(b, c, dialect(scope));
}
