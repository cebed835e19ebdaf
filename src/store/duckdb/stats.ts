// Statistics over the same WHERE as the list (compileWhere): counts, a time series bucketed by start
// in UTC, and groups. Distinct vessels are counted on 64-bit hashes of their ids (compact keys;
// a collision among millions of ids is vanishingly unlikely).
import type { DuckDBConnection } from '@duckdb/node-api';
import { REGION_MEMBERS } from '../../data/record.ts';
import { GROUP_REGION_MEMBER, type GroupBy, type StatsOptionsNormalized, type TimeseriesInterval } from '../../query/stats.ts';
import type { EventQuery } from '../../query/types.ts';
import type { EventStats } from '../store.ts';
import { compileWhere } from './compile.ts';

const TRUNC: Record<TimeseriesInterval, string> = { HOUR: 'hour', DAY: 'day', MONTH: 'month', YEAR: 'year' };
const COLUMN_OF = Object.fromEntries(REGION_MEMBERS.map((m) => [m.member, m.column]));

/** The grouped value and the rows it comes from, per groupBy. */
function groupSource(groupBy: GroupBy): { name: string; from: string } {
  const member = GROUP_REGION_MEMBER[groupBy];
  // An entry in several regions of the layer counts in each; entries in none are not counted.
  if (member) return { name: 'g.region_id', from: `events, unnest(events.${COLUMN_OF[member]}) AS g(region_id)` };
  const column: Record<string, string> = { FLAG: 'vessel_flag', GEARTYPE: 'vessel_gear_type', NEXT_PORT_ID: 'next_port.id' };
  return { name: column[groupBy]!, from: 'events' };
}

export async function computeStats(c: DuckDBConnection, query: EventQuery, options: StatsOptionsNormalized): Promise<EventStats> {
  const where = compileWhere(query);
  const stats: EventStats = {};
  if (options.includes.has('TOTAL_COUNT')) {
    const [row] = (await c.runAndReadAll(
      `SELECT count(*)::DOUBLE, count(DISTINCT hash(vessel_id))::DOUBLE, list(DISTINCT vessel_flag ORDER BY vessel_flag) FILTER (WHERE vessel_flag IS NOT NULL)
         FROM events WHERE ${where.sql}`,
      where.params,
    )).getRowsJS();
    const flags = (row![2] as string[] | null) ?? [];
    Object.assign(stats, { numEvents: row![0] as number, numFlags: flags.length, numVessels: row![1] as number, flags });
  }
  if (options.includes.has('TIME_SERIES')) {
    // Grouped on the truncated instant, formatted once per bucket rather than once per row.
    const rows = (await c.runAndReadAll(
      `SELECT strftime(bucket, '%Y-%m-%dT%H:%M:%S.000Z'), n FROM (
         SELECT date_trunc('${TRUNC[options.interval]}', start_ts) AS bucket, count(*)::DOUBLE AS n FROM events WHERE ${where.sql} GROUP BY bucket)
       ORDER BY bucket`,
      where.params,
    )).getRowsJS();
    stats.timeseries = rows.map(([date, value]) => ({ date: date as string, value: value as number }));
  }
  if (options.includes.has('EVENTS_GROUPED') && options.groupBy) {
    const source = groupSource(options.groupBy);
    // Entries without a value for the grouping are not counted.
    const rowsOf = `FROM ${source.from} WHERE ${where.sql} AND ${source.name} IS NOT NULL`;
    if (options.groupBy === 'NEXT_PORT_ID') {
      // Next ports carry the port's name and country; the ports table has the canonical ones.
      const rows = (await c.runAndReadAll(
        `SELECT g.name, coalesce(p.name, g.label), coalesce(p.flag, g.flag), g.value FROM (
           SELECT next_port.id AS name, any_value(next_port.name) AS label, any_value(next_port.flag) AS flag, count(*)::DOUBLE AS value
             ${rowsOf} GROUP BY 1) g
         LEFT JOIN ports p ON p.id = g.name ORDER BY g.value DESC, g.name`,
        where.params,
      )).getRowsJS();
      stats.groups = rows.map(([name, label, flag, value]) => ({ name: name as string, label: label as string | null, flag: flag as string | null, value: value as number }));
    } else {
      const rows = (await c.runAndReadAll(
        `SELECT ${source.name} AS name, count(*)::DOUBLE AS value ${rowsOf} GROUP BY 1 ORDER BY value DESC, name`,
        where.params,
      )).getRowsJS();
      stats.groups = rows.map(([name, value]) => ({ name: name as string, value: value as number }));
    }
  }
  return stats;
}
