// stats_months: per dataset version, month of start (UTC), flag and vessel, how many events. The
// statistics of a time window read its whole months here and only the partial months at its edges
// from events: a count by flag, a monthly or yearly series and the distinct vessels of 8 years of
// fishing on the 10M catalogue read 1.6M rows rather than 7.2M (flags 17.2 ms against 55.3, distinct
// vessels 16.2 against 88.6; docs/performance.md, "Statistics"). The loader writes it with the
// version; a version is read from it once stats_month_versions lists it.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { StatsOptionsNormalized } from '../../query/stats.ts';
import type { EventQuery } from '../../query/types.ts';
import { SqlBuilder } from '../sql.ts';
import { planMonthStats } from '../month-stats-plan.ts';
import { compileWhere, type CompiledSql } from './compile.ts';
import { renderCondition } from './render-plan.ts';
import { deleteVersionRows, tableExists, versionsMissingFrom } from './tables.ts';
import { VESSEL_KEY_SQL } from './vessel-table.ts';
import { vesselTableAnswers } from '../vessel-plan.ts';
import { monthMask, type MonthSpan } from './month-summaries.ts';
import { fieldsRead } from '../../query/plan.ts';

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

/**
 * The rows a statistic counts, as (vessel_flag, month, n) or (vessel_key): the whole months from
 * stats_months, each partial month at the window's edges from events (or vessel_events, for keys).
 */
export interface MonthRows {
  counts: CompiledSql;
  vesselKeys: CompiledSql;
  /** The distinct vessels counted outright, where the months' bits answer (month-summaries.ts). */
  vesselCount?: CompiledSql;
  /**
   * With layers' signed rows (layers.ts correctionsFrom): counts may be negative, and vesselKeys
   * are (vessel_key, n), a vessel counted where its n add up to more than 0.
   */
  signed?: boolean;
}

/** What the statistics may read: the versions stats_months holds, and those its summaries hold (month-summaries.ts). */
export interface MonthTables {
  versions: ReadonlySet<number>;
  summaries: ReadonlyMap<number, MonthSpan>;
}

/** The month rows of a statistics query, or undefined when stats_months cannot answer it (src/store/month-stats-plan.ts). */
export function monthRows(query: EventQuery, options: StatsOptionsNormalized, tables: MonthTables, corrections?: string): MonthRows | undefined {
  const plan = planMonthStats(query, options, tables.versions);
  if (!plan) return undefined;
  const { rollupConditions, firstWholeMs: firstWhole, afterWholeMs: afterWhole } = plan;

  // One builder for the whole statement: the table's part, then each edge, which repeats the
  // query's conditions on its own side of the whole months (each edge its own SELECT, so that the
  // zone maps on start prune it: an OR of ranges is not pruned).
  const b = new SqlBuilder<DuckDBValue>();
  const month = (ms: number) => `make_date(${b.param(new Date(ms).getUTCFullYear())}::INTEGER, ${b.param(new Date(ms).getUTCMonth() + 1)}::INTEGER, 1)`;
  const whole = [
    ...rollupConditions.map((c) => renderCondition(b, c)),
    ...(firstWhole === undefined ? [] : [`month >= ${month(firstWhole)}`]),
    ...(afterWhole === undefined ? [] : [`month < ${month(afterWhole)}`]),
  ].join(' AND ');
  // The window's partial months, each with every condition of the query, rendered in a builder.
  const edgesIn = (builder: SqlBuilder<DuckDBValue>): string[] => {
    if (firstWhole === undefined && afterWhole === undefined) return [];
    const where = compileWhere(query, builder).sql;
    const instant = (ms: number) => `make_timestamp(${builder.param(BigInt(ms) * 1000n)}::BIGINT)`;
    return [
      ...(firstWhole === undefined ? [] : [`${where} AND start_ts < ${instant(firstWhole)}`]),
      ...(afterWhole === undefined ? [] : [`${where} AND start_ts >= ${instant(afterWhole)}`]),
    ];
  };
  const edges = edgesIn(b);
  // A layered version's rows are its stored version's (this query's, rebased) plus its layers'
  // signed rows, counted with every condition of the query.
  const changed = corrections === undefined ? undefined : compileWhere(query, b).sql;
  // Whole months' counts by flag read flag_months where every version has it (month-summaries.ts):
  // its columns and conditions are stats_months' own.
  const versionIds = [...new Set(query.datasets.map((d) => d.resolved.versionId))];
  const summarized = corrections === undefined && versionIds.every((v) => tables.summaries.has(v));
  const union = (tableSelect: string, edgeSelect: string, edgeFrom: string, changeSelect?: string, table = 'stats_months'): CompiledSql => ({
    sql: `SELECT ${tableSelect} FROM ${table} WHERE ${whole}${edges.map((edge) => ` UNION ALL SELECT ${edgeSelect} FROM ${edgeFrom} WHERE ${edge}`).join('')}${
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
  const counts = union('vessel_flag, month, n', `vessel_flag, date_trunc('month', start_ts)::DATE, 1`, 'events', undefined, summarized ? 'flag_months' : 'stats_months');
  const vesselKeys = union('vessel_key', keysFrom.select, keysFrom.from);
  // The bits have no flag: a query on flags counts its vessels from stats_months.
  if (!summarized || fieldsRead(rollupConditions).fields.has('vesselFlag')) return { counts, vesselKeys };
  // A vessel is counted where its bits meet the whole months, or where it has an event at an edge
  // (every vessel of a version has its row of bits). One row per vessel and version: a count of
  // the rows for one version, of their distinct keys for several. Its own builder: a statement is
  // bound with exactly the parameters it has.
  const vb = new SqlBuilder<DuckDBValue>();
  // Each version's bits have their own length, and its mask with them: CASE, unlike AND, never
  // applies one version's mask to another's bits.
  const masked = `CASE version_id ${versionIds.map((v) => `WHEN ${Number(v)} THEN bit_count(months & ${vb.param(monthMask(tables.summaries.get(v)!, firstWhole, afterWhole))}::BIT)`).join(' ')} END > 0`;
  const atEdges = edgesIn(vb).map((edge) => `SELECT ${keysFrom.select} FROM ${keysFrom.from} WHERE ${edge}`);
  const counted = versionIds.length === 1 ? 'count(*)' : 'count(DISTINCT vessel_key)';
  // The query's conditions on the versions, as the rollups render them (no flag is left among them).
  const versions = rollupConditions.map((c) => renderCondition(vb, c));
  const vesselCount = {
    sql: `SELECT ${counted}::DOUBLE FROM vessel_month_bits WHERE ${[...versions, `(${masked}${atEdges.length > 0 ? ` OR vessel_key IN (${atEdges.join(' UNION ALL ')})` : ''})`].join(' AND ')}`,
    params: vb.params,
  };
  return { counts, vesselKeys, vesselCount };
}
