// Statistics in PostgreSQL over the same WHERE as the list (compileWhere): counts, a time series
// bucketed by start in UTC, and groups, each ordered as the DuckDB engine orders them. Counts,
// series and distinct vessels over whole months are read from the rollups (stats-rollups.ts).
import { REGION_MEMBERS } from '../../domain/regions.ts';
import { GROUP_REGION_MEMBER, type StatsOptionsNormalized, type TimeseriesInterval } from '../../query/stats.ts';
import type { EventQuery } from '../../query/types.ts';
import type { EventStats } from '../store.ts';
import { compileWhere, type CompiledSql } from './compile.ts';
import { planMonthStats, type MonthStatsPlan } from '../month-stats-plan.ts';
import { SqlBuilder } from '../sql.ts';
import { renderCondition, timestamp } from './render-plan.ts';
import { OWN_PARTITIONS, type VersionScope } from './lineage.ts';

export type Rows = (sql: string, params: readonly unknown[]) => Promise<unknown[][]>;

const TRUNC: Record<TimeseriesInterval, string> = { HOUR: 'hour', DAY: 'day', MONTH: 'month', YEAR: 'year' };
const COLUMN_OF = Object.fromEntries(REGION_MEMBERS.map((m) => [m.member, m.column]));
const GROUP_COLUMN: Record<string, string> = { FLAG: 'vessel_flag', GEARTYPE: 'vessel_gear_type' };

/** The date of an instant (UTC). */
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The month of an instant, counted from 1970-01 as 0. */
const monthIndex = (ms: number) => (new Date(ms).getUTCFullYear() - 1970) * 12 + new Date(ms).getUTCMonth();

/**
 * The statements of a statistic answered by the rollups: `counts` gives rows of (vessel_flag,
 * month, n), `vessels` the rows of vessel_id, once or more per vessel; each reads the rollups for
 * the window's whole months and the events for its edges.
 */
export function rollupStatements(query: EventQuery, plan: MonthStatsPlan, scope: VersionScope): { counts: CompiledSql; vessels: CompiledSql } {
  const { firstWholeMs, afterWholeMs } = plan;
  // Each edge repeats the query's conditions on its own side of the whole months: its own SELECT,
  // so that each is a range of the (version_id, start_ts) index.
  const edges = (b: SqlBuilder) => {
    if (firstWholeMs === undefined && afterWholeMs === undefined) return [];
    const where = compileWhere(query, scope, b).sql;
    return [
      ...(firstWholeMs === undefined ? [] : [`${where} AND start_ts < ${b.param(timestamp(firstWholeMs))}::timestamp`]),
      ...(afterWholeMs === undefined ? [] : [`${where} AND start_ts >= ${b.param(timestamp(afterWholeMs))}::timestamp`]),
    ];
  };
  // The rollups keep every version's rows apart, whichever partition its events share.
  const rollupWhere = (b: SqlBuilder) => plan.rollupConditions.map((c) => renderCondition(b, c, OWN_PARTITIONS));

  const counts = new SqlBuilder();
  const countsWhere = [
    ...rollupWhere(counts),
    ...(firstWholeMs === undefined ? [] : [`month >= ${counts.param(day(firstWholeMs))}::date`]),
    ...(afterWholeMs === undefined ? [] : [`month < ${counts.param(day(afterWholeMs))}::date`]),
  ];
  const countsSql = [
    `SELECT vessel_flag, month, n FROM stats_flag_months WHERE ${countsWhere.join(' AND ')}`,
    ...edges(counts).map((edge) => `SELECT vessel_flag, date_trunc('month', start_ts)::date, count(*) FROM events WHERE ${edge} GROUP BY 1, 2`),
  ].join(' UNION ALL ');

  const vessels = new SqlBuilder();
  const vesselsWhere = rollupWhere(vessels);
  const first = firstWholeMs === undefined ? undefined : monthIndex(firstWholeMs);
  const after = afterWholeMs === undefined ? undefined : monthIndex(afterWholeMs);
  if (first !== undefined) vesselsWhere.push(`last_month >= ${vessels.param(first)}::integer`);
  if (after !== undefined) vesselsWhere.push(`first_month < ${vessels.param(after)}::integer`);
  if (first !== undefined && after !== undefined) {
    // A vessel whose months all lie in the window has an event in it; any other, where a bit of
    // the window's months is set.
    const [a, z] = [vessels.param(first), vessels.param(after)];
    vesselsWhere.push(`(first_month >= ${a}::integer AND last_month < ${z}::integer OR bit_count(substring(months FROM ${a}::integer - first_month + 1 FOR ${z}::integer - ${a}::integer)) > 0)`);
  }
  const vesselsSql = [
    `SELECT vessel_id FROM stats_vessel_months WHERE ${vesselsWhere.join(' AND ')}`,
    ...edges(vessels).map((edge) => `SELECT vessel_id FROM events WHERE ${edge}`),
  ].join(' UNION ALL ');
  return { counts: { sql: countsSql, params: counts.params }, vessels: { sql: vesselsSql, params: vessels.params } };
}

/** Where the counts come from: the events, or the rollups for the window's whole months (stats-rollups.ts). */
interface CountSource {
  /** Rows of (vessel_flag, n), a flag once or more. */
  byFlag: CompiledSql;
  /** Rows of (bucket, n) for the series, a bucket once or more. */
  buckets(interval: TimeseriesInterval): CompiledSql;
  /** One row: the number of distinct vessels. */
  vessels: CompiledSql;
}

function eventSource(where: CompiledSql): CountSource {
  return {
    byFlag: { sql: `SELECT vessel_flag, count(*) FROM events WHERE ${where.sql} GROUP BY 1`, params: where.params },
    buckets: (interval) => ({ sql: `SELECT date_trunc('${TRUNC[interval]}', start_ts), count(*) FROM events WHERE ${where.sql} GROUP BY 1`, params: where.params }),
    vessels: { sql: `SELECT count(DISTINCT vessel_id)::float8 FROM events WHERE ${where.sql}`, params: where.params },
  };
}

function rollupSource(query: EventQuery, plan: MonthStatsPlan, scope: VersionScope): CountSource {
  const { counts, vessels } = rollupStatements(query, plan, scope);
  return {
    byFlag: { sql: `SELECT vessel_flag, n FROM (${counts.sql}) c(vessel_flag, month, n)`, params: counts.params },
    buckets: (interval) => ({ sql: `SELECT date_trunc('${TRUNC[interval]}', month::timestamp), n FROM (${counts.sql}) c(vessel_flag, month, n)`, params: counts.params }),
    vessels: { sql: `SELECT count(DISTINCT vessel_id)::float8 FROM (${vessels.sql}) v(vessel_id)`, params: vessels.params },
  };
}

/** The statistics; from the rollups where `rollupVersions` (the versions with rollups) and the query allow it (src/store/month-stats-plan.ts). */
export async function computeStats(rows: Rows, query: EventQuery, options: StatsOptionsNormalized, scope: VersionScope, rollupVersions: ReadonlySet<number> = new Set()): Promise<EventStats> {
  const where = compileWhere(query, scope);
  const plan = planMonthStats(query, options, rollupVersions);
  const source = plan ? rollupSource(query, plan, scope) : eventSource(where);
  const stats: EventStats = {};
  const groupBy = options.includes.has('EVENTS_GROUPED') ? options.groupBy : undefined;
  // One grouping by flag gives the total, the flags and (grouped by FLAG) the groups.
  const byFlag = options.includes.has('TOTAL_COUNT') || groupBy === 'FLAG'
    ? (await rows(`SELECT vessel_flag, sum(n)::float8 AS n FROM (${source.byFlag.sql}) f(vessel_flag, n) GROUP BY 1 ORDER BY n DESC, vessel_flag`, source.byFlag.params))
        .map(([name, value]) => ({ name: name as string | null, value: value as number }))
    : undefined;
  if (options.includes.has('TOTAL_COUNT')) {
    const flags = byFlag!.filter((g) => g.name !== null).map((g) => g.name!).sort(compareBytes);
    const numEvents = byFlag!.reduce((sum, g) => sum + g.value, 0);
    const [[numVessels]] = (await rows(source.vessels.sql, source.vessels.params)) as [[number]];
    Object.assign(stats, { numEvents, numFlags: flags.length, numVessels, flags });
  }
  if (options.includes.has('TIME_SERIES')) {
    const buckets = source.buckets(options.interval);
    const series = await rows(
      `SELECT to_char(bucket, 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"'), n FROM (
         SELECT bucket, sum(n)::float8 AS n FROM (${buckets.sql}) b(bucket, n) GROUP BY 1) b
       ORDER BY bucket`,
      buckets.params,
    );
    stats.timeseries = series.map(([date, value]) => ({ date: date as string, value: value as number }));
  }
  if (groupBy === 'FLAG') {
    // Entries without a flag are not counted.
    stats.groups = byFlag!.filter((g) => g.name !== null).map(({ name, value }) => ({ name: name!, value }));
  } else if (groupBy === 'NEXT_PORT_ID') {
    // Next ports carry the port's name and country; the ports table has the canonical ones.
    const groups = await rows(
      `SELECT g.name, coalesce(p.name, g.label), coalesce(p.flag, g.flag), g.value FROM (
         SELECT next_port_id AS name, min(next_port_name) AS label, min(next_port_flag) AS flag, count(*)::float8 AS value
           FROM events WHERE ${where.sql} AND next_port_id IS NOT NULL GROUP BY 1) g
       LEFT JOIN ports p ON p.id = g.name ORDER BY g.value DESC, g.name`,
      where.params,
    );
    stats.groups = groups.map(([name, label, flag, value]) => ({ name: name as string, label: label as string | null, flag: flag as string | null, value: value as number }));
  } else if (groupBy) {
    const member = GROUP_REGION_MEMBER[groupBy];
    // An entry in several regions of the layer counts in each; entries in none are not counted.
    const [name, from] = member
      ? ['g.region_id', `events CROSS JOIN LATERAL unnest(events.${COLUMN_OF[member]}) AS g(region_id)`]
      : [GROUP_COLUMN[groupBy]!, 'events'];
    const groups = await rows(`SELECT ${name} AS name, count(*)::float8 AS value FROM ${from} WHERE ${where.sql} AND ${name} IS NOT NULL GROUP BY 1 ORDER BY value DESC, name`, where.params);
    stats.groups = groups.map(([n, value]) => ({ name: n as string, value: value as number }));
  }
  return stats;
}

/** The order of the "C" collation (and of DuckDB): by UTF-8 bytes. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
