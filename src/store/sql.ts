// SQL both engines write alike: numbered parameters and the list's order.
import { REGION_DATASETS } from '../domain/regions.ts';
import type { SortValue } from '../query/enumerations.ts';

/**
 * A text literal for SQL the project writes itself (file paths, kinds, metadata): never a user's
 * value, which is always a parameter (SqlBuilder).
 */
export const sqlText = (s: string): string => `'${s.replace(/'/g, "''")}'`;

// Bound parameters, numbered ($1, $2, ...) as both engines write them: a value bound once can be
// used several times, and callers can append more parameters after a WHERE clause. Every user
// value is a parameter, never SQL text.
export class SqlBuilder<Value = unknown> {
  readonly params: Value[] = [];
  placeholders(values: readonly Value[]): string {
    return values.map((v) => this.param(v)).join(', ');
  }
  param(value: Value): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

/**
 * What each sort orders by: a time column, its direction, and where events without a value go (an
 * open event has not ended: it sorts after every ended event on +end and before them on -end).
 * Both engines store these columns under these names.
 */
export const SORT_KEYS: Readonly<Record<SortValue, { column: 'start_ts' | 'end_ts'; ascending: boolean; openFirst: boolean }>> = {
  '+start': { column: 'start_ts', ascending: true, openFirst: false },
  '-start': { column: 'start_ts', ascending: false, openFirst: false },
  '+end': { column: 'end_ts', ascending: true, openFirst: false },
  '-end': { column: 'end_ts', ascending: false, openFirst: true },
};

// Ties are broken by id so pages are stable. Only end can be missing, so only end names its NULLs' place.
export const ORDER_BY: Readonly<Record<SortValue, string>> = Object.fromEntries(
  Object.entries(SORT_KEYS).map(([sort, { column, ascending, openFirst }]) => {
    const direction = ascending ? 'ASC' : 'DESC';
    const nulls = column === 'end_ts' ? (openFirst ? ' NULLS FIRST' : ' NULLS LAST') : '';
    return [sort, `${column} ${direction}${nulls}, id ${direction}`];
  }),
) as Record<SortValue, string>;

/**
 * `regions list`: region ids with names (from loaded geometries) and ids events carry without a
 * geometry; $1 a region dataset or ''. Rows: dataset, id, name. Names are matched in
 * engines.ts, the same way on both engines (regionNameMatches).
 */
export const REGION_LIST_SQL = `WITH datasets(dataset, member) AS (VALUES ${Object.entries(REGION_DATASETS).map(([d, m]) => `('${d}', '${m}')`).join(', ')})
  SELECT coalesce(g.dataset, d.dataset) AS dataset, coalesce(g.id, r.id) AS id, g.name
    FROM (region_ids r JOIN datasets d USING (member)) FULL JOIN region_geometries g ON g.dataset = d.dataset AND g.id = r.id
   WHERE ($1 = '' OR coalesce(g.dataset, d.dataset) = $1)
   ORDER BY 1, 3 NULLS LAST, 2`;

/** A row when region_geometries has the `iso3` column (files and databases written before it do not). */
export const ISO3_COLUMN_SQL = `SELECT 1 FROM information_schema.columns
  WHERE table_catalog = current_database() AND table_schema = current_schema() AND table_name = 'region_geometries' AND column_name = 'iso3'`;

/** region_geometries' rows for the catalog (addGeometries), with or without the later ISO3 column. */
export const regionGeometrySelect = (hasIso3: boolean) => `SELECT dataset, id, geometry, name, ${hasIso3 ? 'iso3' : 'NULL'} FROM region_geometries`;
