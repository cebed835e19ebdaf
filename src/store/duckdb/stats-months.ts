// stats_months: per dataset version, month of start (UTC), flag and vessel, how many events. The
// statistics of a time window read its whole months here and only the partial months at its edges
// from events: a count by flag, a monthly or yearly series and the distinct vessels of 8 years of
// fishing on the 10M catalogue read 1.6M rows rather than 7.2M (flags 17.2 ms against 55.3, distinct
// vessels 16.2 against 88.6; docs/performance.md, "Statistics"). The loader writes it with the
// version; a version is read from it once stats_month_versions lists it.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { fieldsRead, type Condition, type Field } from '../../query/plan.ts';
import type { StatsOptionsNormalized } from '../../query/stats.ts';
import type { EventQuery } from '../../query/types.ts';
import { SqlBuilder } from '../sql.ts';
import { compileWhere, type CompiledSql } from './compile.ts';
import { renderCondition } from './render-plan.ts';
import { deleteVersionRows, tableExists, versionsMissingFrom } from './tables.ts';
import { VESSEL_KEY_SQL, vesselTableAnswers } from './vessel-table.ts';

export const CREATE_STATS_MONTH_TABLES = [
  `CREATE TABLE IF NOT EXISTS stats_months (
     version_id USMALLINT NOT NULL, month DATE NOT NULL, vessel_flag VARCHAR, vessel_key UBIGINT NOT NULL, n UINTEGER NOT NULL)`,
  // The versions whose rows are in stats_months: a database written before the table has none.
  `CREATE TABLE IF NOT EXISTS stats_month_versions (version_id USMALLINT PRIMARY KEY)`,
];

/** Writes the rows of every version not yet in stats_months (all of them in an older file); resolves to how many. */
export async function writeMissingStatsMonthRows(c: DuckDBConnection): Promise<number> {
  const missing = await versionsMissingFrom(c, 'stats_month_versions');
  if (missing.length === 0) return 0;
  const list = missing.map(Number).join(', ');
  await c.run(
    `INSERT INTO stats_months SELECT version_id, date_trunc('month', start_ts)::DATE AS month, vessel_flag, ${VESSEL_KEY_SQL('vessel_id')} AS vessel_key, count(*)::UINTEGER
       FROM events WHERE version_id IN (${list}) GROUP BY ALL ORDER BY version_id, month`,
  );
  await c.run(`INSERT INTO stats_month_versions SELECT unnest([${list}])`);
  return missing.length;
}

export function dropStatsMonthRows(c: DuckDBConnection, versionId: number): Promise<void> {
  return deleteVersionRows(c, ['stats_months', 'stats_month_versions'], versionId);
}

/** The versions the server may read from stats_months, read once when the database is opened. */
export async function readStatsMonthVersions(c: DuckDBConnection): Promise<ReadonlySet<number>> {
  if (!(await tableExists(c, 'stats_month_versions'))) return new Set();
  return new Set((await c.runAndReadAll(`SELECT version_id::INTEGER FROM stats_month_versions`)).getRowsJS().map((r) => r[0] as number));
}

/** The fields the table has columns for; the time window's are answered by its whole months. */
const TABLE_FIELDS: ReadonlySet<Field> = new Set<Field>(['version', 'vesselFlag']);
const TIME_FIELDS: ReadonlySet<Field> = new Set<Field>(['start', 'end']);

/**
 * The rows a statistic counts, as (vessel_flag, month, n) or (vessel_key): the whole months from
 * stats_months, each partial month at the window's edges from events (or vessel_events, for keys).
 */
export interface MonthRows {
  counts: CompiledSql;
  vesselKeys: CompiledSql;
  /**
   * With layers' signed rows (layers.ts correctionsFrom): counts may be negative, and vesselKeys
   * are (vessel_key, n), a vessel counted where its n add up to more than 0.
   */
  signed?: boolean;
}

const monthStart = (ms: number, next: boolean): number => {
  const d = new Date(ms);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return next && start < ms ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) : start;
};

/**
 * The month rows of a statistics query, or undefined when the table cannot answer it: a condition
 * on anything but the versions, the flag and the time window; a window whose events are not
 * placed by their start (END-DATE); buckets finer than a month; a grouping but by flag; a version
 * the table lacks; or no whole month in the window.
 */
export function monthRows(query: EventQuery, options: StatsOptionsNormalized, versions: ReadonlySet<number>, corrections?: string): MonthRows | undefined {
  // Each condition is on the table's columns (versions, flags) or on the time window alone.
  const tableConditions: Condition[] = [];
  for (const condition of query.filters.conditions) {
    const { fields, other } = fieldsRead([condition]);
    if (other.size > 0) return undefined;
    if ([...fields].every((f) => TABLE_FIELDS.has(f))) tableConditions.push(condition);
    else if (![...fields].every((f) => TIME_FIELDS.has(f))) return undefined;
  }
  if (query.time.mode !== 'START-DATE' && query.time.mode !== 'OVERLAP') return undefined;
  if (options.includes.has('TIME_SERIES') && options.interval !== 'MONTH' && options.interval !== 'YEAR') return undefined;
  if (options.includes.has('EVENTS_GROUPED') && options.groupBy !== undefined && options.groupBy !== 'FLAG') return undefined;
  if (!query.datasets.every((d) => versions.has(d.resolved.versionId))) return undefined;
  // In either mode every event starting inside the window is counted (its end is at or after its
  // start); OVERLAP adds those starting before it, read from events with the window's conditions.
  const firstWhole = query.time.startMs === undefined ? undefined : monthStart(query.time.startMs, true);
  const afterWhole = query.time.endMs === undefined ? undefined : monthStart(query.time.endMs, false);
  if (firstWhole !== undefined && afterWhole !== undefined && firstWhole >= afterWhole) return undefined;

  // One builder for the whole statement: the table's part, then each edge, which repeats the
  // query's conditions on its own side of the whole months (each edge its own SELECT, so that the
  // zone maps on start prune it: an OR of ranges is not pruned).
  const b = new SqlBuilder<DuckDBValue>();
  const month = (ms: number) => `make_date(${b.param(new Date(ms).getUTCFullYear())}::INTEGER, ${b.param(new Date(ms).getUTCMonth() + 1)}::INTEGER, 1)`;
  const whole = [
    ...tableConditions.map((c) => renderCondition(b, c)),
    ...(firstWhole === undefined ? [] : [`month >= ${month(firstWhole)}`]),
    ...(afterWhole === undefined ? [] : [`month < ${month(afterWhole)}`]),
  ].join(' AND ');
  const edges: string[] = [];
  if (firstWhole !== undefined || afterWhole !== undefined) {
    const where = compileWhere(query, b).sql;
    const instant = (ms: number) => `make_timestamp(${b.param(BigInt(ms) * 1000n)}::BIGINT)`;
    if (firstWhole !== undefined) edges.push(`${where} AND start_ts < ${instant(firstWhole)}`);
    if (afterWhole !== undefined) edges.push(`${where} AND start_ts >= ${instant(afterWhole)}`);
  }
  // A layered version's rows are its stored version's (this query's, rebased) plus its layers'
  // signed rows, counted with every condition of the query.
  const changed = corrections === undefined ? undefined : compileWhere(query, b).sql;
  const union = (tableSelect: string, edgeSelect: string, edgeFrom: string, changeSelect?: string): CompiledSql => ({
    sql: `SELECT ${tableSelect} FROM stats_months WHERE ${whole}${edges.map((edge) => ` UNION ALL SELECT ${edgeSelect} FROM ${edgeFrom} WHERE ${edge}`).join('')}${
      changeSelect === undefined ? '' : ` UNION ALL SELECT ${changeSelect} FROM ${corrections} WHERE ${changed}`}`,
    params: b.params,
  });
  // A vessel's key at the edges: vessel_events holds it where it answers every condition, so that
  // no id is hashed (an edge month of fishing, 245,294 events: 115-214 ms hashed in events).
  const keysFrom = vesselTableAnswers(query) ? { select: 'vessel_key', from: 'vessel_events' } : { select: VESSEL_KEY_SQL('vessel_id'), from: 'events' };
  if (changed !== undefined) {
    return {
      counts: union('vessel_flag, month, n', `vessel_flag, date_trunc('month', start_ts)::DATE, 1`, 'events', `vessel_flag, date_trunc('month', start_ts)::DATE, sign`),
      vesselKeys: union('vessel_key, n', `${keysFrom.select}, 1`, keysFrom.from, `${VESSEL_KEY_SQL('vessel_id')}, sign`),
      signed: true,
    };
  }
  return {
    counts: union('vessel_flag, month, n', `vessel_flag, date_trunc('month', start_ts)::DATE, 1`, 'events'),
    vesselKeys: union('vessel_key', keysFrom.select, keysFrom.from),
  };
}
