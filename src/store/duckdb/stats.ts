// Statistics over the same WHERE as the list (compileWhere): counts, a time series bucketed by start
// in UTC, and groups. Distinct vessels are counted on 64-bit hashes of their ids (compact keys;
// a collision among millions of ids is vanishingly unlikely).
import type { DuckDBConnection } from '@duckdb/node-api';
import { REGION_MEMBERS } from '../../domain/regions.ts';
import { GROUP_REGION_MEMBER, type GroupBy, type StatsOptionsNormalized, type TimeseriesInterval } from '../../query/stats.ts';
import type { EventQuery } from '../../query/types.ts';
import type { EventStats } from '../store.ts';
import { compileWhere, type CompiledSql } from './compile.ts';
import { vesselTableAnswers } from '../vessel-plan.ts';
import { readRows } from './statements.ts';
import type { MonthRows } from './stats-months.ts';

const TRUNC: Record<TimeseriesInterval, string> = { HOUR: 'hour', DAY: 'day', MONTH: 'month', YEAR: 'year' };
const COLUMN_OF = Object.fromEntries(REGION_MEMBERS.map((m) => [m.member, m.column]));

/** The grouped value and the rows it comes from, per groupBy. */
function groupSource(groupBy: GroupBy, events: string): { name: string; from: string } {
  const member = GROUP_REGION_MEMBER[groupBy];
  // An entry in several regions of the layer counts in each; entries in none are not counted.
  if (member) return { name: 'g.region_id', from: `${events}, unnest(events.${COLUMN_OF[member]}) AS g(region_id)` };
  const column: Record<string, string> = { FLAG: 'vessel_flag', GEARTYPE: 'vessel_gear_type', NEXT_PORT_ID: 'next_port.id' };
  return { name: column[groupBy]!, from: events };
}

/**
 * Where the counts come from: the events table, or stats_months for its whole months and events for
 * the window's edges (stats-months.ts). Each gives its rows as (vessel_flag, bucket, n) and its
 * vessels' keys.
 */
interface CountSource {
  /** Rows of (vessel_flag, n): each a group of events. */
  byFlag: CompiledSql;
  /** Rows of (b, n) for the series, b the day (or hour) of start, or its month where only months are known. */
  buckets(interval: TimeseriesInterval): CompiledSql;
  vessels: CompiledSql;
}

function eventSource(query: EventQuery, where: CompiledSql, events: string): CountSource {
  return {
    byFlag: { sql: `SELECT vessel_flag, count(*)::DOUBLE AS n FROM ${events} WHERE ${where.sql} GROUP BY 1`, params: where.params },
    // Days are found by a cast (an integer division), then gathered into months or years:
    // date_trunc on every row cost 236 ms over 5M rows, the cast and the regrouping 91 ms.
    buckets: (interval) => ({
      sql: `SELECT ${interval === 'HOUR' ? `date_trunc('hour', start_ts)` : 'start_ts::DATE'} AS b, count(*) AS n FROM ${events} WHERE ${where.sql} GROUP BY b`,
      params: where.params,
    }),
    vessels: vesselsOf(query, where, events),
  };
}

function monthSource(months: MonthRows): CountSource {
  return {
    // A layered version's signed rows (months.signed) may leave a flag or a month with none.
    byFlag: { sql: `SELECT vessel_flag, sum(n)::DOUBLE AS n FROM (${months.counts.sql}) GROUP BY 1 HAVING sum(n) <> 0`, params: months.counts.params },
    buckets: () => ({ sql: `SELECT month AS b, sum(n) AS n FROM (${months.counts.sql}) GROUP BY b HAVING sum(n) <> 0`, params: months.counts.params }),
    vessels: months.vesselCount ?? (months.signed
      ? { sql: `SELECT count(*)::DOUBLE FROM (SELECT vessel_key FROM (${months.vesselKeys.sql}) GROUP BY vessel_key HAVING sum(n) > 0)`, params: months.vesselKeys.params }
      : { sql: `SELECT count(DISTINCT vessel_key)::DOUBLE FROM (${months.vesselKeys.sql})`, params: months.vesselKeys.params }),
  };
}

/**
 * The statistics; `months` when stats_months answers the query (stats-months.ts, monthRows), and
 * `events` the FROM of a query over layered versions (layers.ts eventsFrom).
 */
export async function computeStats(c: DuckDBConnection, query: EventQuery, options: StatsOptionsNormalized, months?: MonthRows, events = 'events'): Promise<EventStats> {
  const where = compileWhere(query);
  const source = months ? monthSource(months) : eventSource(query, where, events);
  const stats: EventStats = {};
  // One grouping by flag gives the total, the flags and (grouped by FLAG) the groups: cheaper than
  // a count and a distinct list apart (115 against 380 ms over 5M rows, docs/performance.md).
  const byFlag = options.includes.has('TOTAL_COUNT') || (options.includes.has('EVENTS_GROUPED') && options.groupBy === 'FLAG') ? await countsByFlag(c, source.byFlag) : undefined;
  if (options.includes.has('TOTAL_COUNT')) {
    const flags = byFlag!.filter((g) => g.name !== null).sort((a, b) => a.nameRank - b.nameRank).map((g) => g.name!);
    const numEvents = byFlag!.reduce((sum, g) => sum + g.value, 0);
    const numVessels = (await readRows(c, source.vessels.sql, source.vessels.params))[0]![0] as number;
    Object.assign(stats, { numEvents, numFlags: flags.length, numVessels, flags });
  }
  if (options.includes.has('TIME_SERIES')) {
    // Grouped on the bucket, formatted once per bucket rather than once per row.
    const outer = options.interval === 'HOUR' || options.interval === 'DAY' ? 'b' : `date_trunc('${TRUNC[options.interval]}', b)`;
    const buckets = source.buckets(options.interval);
    const rows = await readRows(c,
      `SELECT strftime(bucket, '%Y-%m-%dT%H:%M:%S.000Z'), n FROM (
         SELECT ${outer} AS bucket, sum(n)::DOUBLE AS n FROM (${buckets.sql})
         GROUP BY bucket)
       ORDER BY bucket`,
      buckets.params,
    );
    stats.timeseries = rows.map(([date, value]) => ({ date: date as string, value: value as number }));
  }
  if (options.includes.has('EVENTS_GROUPED') && options.groupBy === 'FLAG') {
    // Entries without a flag are not counted.
    stats.groups = byFlag!.filter((g) => g.name !== null).map(({ name, value }) => ({ name: name!, value }));
  } else if (options.includes.has('EVENTS_GROUPED') && options.groupBy) {
    const source = groupSource(options.groupBy, events);
    // Entries without a value for the grouping are not counted.
    const rowsOf = `FROM ${source.from} WHERE ${where.sql} AND ${source.name} IS NOT NULL`;
    if (options.groupBy === 'NEXT_PORT_ID') {
      // Next ports carry the port's name and country; the ports table has the canonical ones.
      const rows = await readRows(c,
        `SELECT g.name, coalesce(p.name, g.label), coalesce(p.flag, g.flag), g.value FROM (
           SELECT next_port.id AS name, any_value(next_port.name) AS label, any_value(next_port.flag) AS flag, count(*)::DOUBLE AS value
             ${rowsOf} GROUP BY 1) g
         LEFT JOIN ports p ON p.id = g.name ORDER BY g.value DESC, g.name`,
        where.params,
      );
      stats.groups = rows.map(([name, label, flag, value]) => ({ name: name as string, label: label as string | null, flag: flag as string | null, value: value as number }));
    } else {
      const rows = await readRows(c,
        `SELECT ${source.name} AS name, count(*)::DOUBLE AS value ${rowsOf} GROUP BY 1 ORDER BY value DESC, name`,
        where.params,
      );
      stats.groups = rows.map(([name, value]) => ({ name: name as string, value: value as number }));
    }
  }
  return stats;
}

interface FlagCount {
  name: string | null;
  value: number;
  /** Its place among the flags in the engine's order of names. */
  nameRank: number;
}

/** Entries per flag (null: no flag), by count descending and then name, as groups are ordered. */
async function countsByFlag(c: DuckDBConnection, byFlag: CompiledSql): Promise<FlagCount[]> {
  const rows = await readRows(c,
    `SELECT vessel_flag, n, row_number() OVER (ORDER BY vessel_flag)::DOUBLE FROM (${byFlag.sql}) ORDER BY n DESC, vessel_flag`,
    byFlag.params,
  );
  return rows.map(([name, value, nameRank]) => ({ name: name as string | null, value: value as number, nameRank: nameRank as number }));
}

/**
 * Distinct vessels. When every filter is on vessel_events' columns, its precomputed 64-bit vessel
 * keys are counted (103 ms over 5M rows); otherwise a hash of the ids in events (258-337 ms, the
 * ids' texts are decompressed for every row).
 */
function vesselsOf(query: EventQuery, where: CompiledSql, events: string): CompiledSql {
  // vessel_events holds stored versions only.
  const sql = vesselTableAnswers(query) && events === 'events'
    ? `SELECT count(DISTINCT vessel_key)::DOUBLE FROM vessel_events WHERE ${where.sql}`
    : `SELECT count(DISTINCT hash(vessel_id))::DOUBLE FROM ${events} WHERE ${where.sql}`;
  return { sql, params: where.params };
}
