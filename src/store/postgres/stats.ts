// Statistics in PostgreSQL over the same WHERE as the list (compileWhere): counts, a time series
// bucketed by start in UTC, and groups, each ordered as the DuckDB engine orders them.
import { REGION_MEMBERS } from '../../domain/regions.ts';
import { GROUP_REGION_MEMBER, type StatsOptionsNormalized, type TimeseriesInterval } from '../../query/stats.ts';
import type { EventQuery } from '../../query/types.ts';
import type { EventStats } from '../store.ts';
import { compileWhere } from './compile.ts';

export type Rows = (sql: string, params: readonly unknown[]) => Promise<unknown[][]>;

const TRUNC: Record<TimeseriesInterval, string> = { HOUR: 'hour', DAY: 'day', MONTH: 'month', YEAR: 'year' };
const COLUMN_OF = Object.fromEntries(REGION_MEMBERS.map((m) => [m.member, m.column]));
const GROUP_COLUMN: Record<string, string> = { FLAG: 'vessel_flag', GEARTYPE: 'vessel_gear_type' };

export async function computeStats(rows: Rows, query: EventQuery, options: StatsOptionsNormalized): Promise<EventStats> {
  const where = compileWhere(query);
  const stats: EventStats = {};
  const groupBy = options.includes.has('EVENTS_GROUPED') ? options.groupBy : undefined;
  // One grouping by flag gives the total, the flags and (grouped by FLAG) the groups.
  const byFlag = options.includes.has('TOTAL_COUNT') || groupBy === 'FLAG'
    ? (await rows(`SELECT vessel_flag, count(*)::float8 AS n FROM events WHERE ${where.sql} GROUP BY 1 ORDER BY n DESC, vessel_flag`, where.params))
        .map(([name, value]) => ({ name: name as string | null, value: value as number }))
    : undefined;
  if (options.includes.has('TOTAL_COUNT')) {
    const flags = byFlag!.filter((g) => g.name !== null).map((g) => g.name!).sort(compareBytes);
    const numEvents = byFlag!.reduce((sum, g) => sum + g.value, 0);
    const [[numVessels]] = (await rows(`SELECT count(DISTINCT vessel_id)::float8 FROM events WHERE ${where.sql}`, where.params)) as [[number]];
    Object.assign(stats, { numEvents, numFlags: flags.length, numVessels, flags });
  }
  if (options.includes.has('TIME_SERIES')) {
    const series = await rows(
      `SELECT to_char(bucket, 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"'), n FROM (
         SELECT date_trunc('${TRUNC[options.interval]}', start_ts) AS bucket, count(*)::float8 AS n FROM events WHERE ${where.sql} GROUP BY 1) b
       ORDER BY bucket`,
      where.params,
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
