// Statistics rollups on PostgreSQL, written per dataset version by the writer: events counted per
// month of start and flag (stats_flag_months), and each vessel's months with events, per flag, as a
// bit string (stats_vessel_months), so that the distinct vessels of a window are counted exactly on
// one row per vessel rather than on its events. A statistics query over whole months reads these
// (src/store/month-stats-plan.ts says when; stats.ts reads them), and the partial months at its
// edges from the events: 8 years of fishing, monthly by flag, on the 1M demo read 13,326 vessel
// rows rather than 722,012 events, 12.4 ms against 1,222 (docs/performance.md, "The PostgreSQL
// engine: statistics"). A version written before the tables has no rows in them, is not listed in
// stats_month_versions, and is counted on its events until `migrate` or the next write adds them.
import type pg from 'pg';
import { versionsMissingFrom, versionsListedIn } from './version-tables.ts';
import { partitionName } from './bare-tables.ts';

export const CREATE_STATS_ROLLUPS = [
  `CREATE TABLE IF NOT EXISTS stats_flag_months (version_id smallint NOT NULL, month date NOT NULL, vessel_flag text COLLATE "C", n bigint NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS stats_flag_months_version ON stats_flag_months (version_id, month)',
  // months: bit i set when the vessel has an event starting in month first_month + i (months
  // counted from 1970-01 as 0), so a window's months are one substring of it.
  `CREATE TABLE IF NOT EXISTS stats_vessel_months (
     version_id smallint NOT NULL, vessel_id text COLLATE "C" NOT NULL, vessel_flag text COLLATE "C",
     first_month integer NOT NULL, last_month integer NOT NULL, months bit varying NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS stats_vessel_months_version ON stats_vessel_months (version_id)',
  'CREATE TABLE IF NOT EXISTS stats_month_versions (version_id smallint PRIMARY KEY)',
];

/** The month of a timestamp expression, counted from 1970-01 as 0. */
const monthIndexOf = (ts: string) => `((extract(year FROM ${ts})::integer - 1970) * 12 + extract(month FROM ${ts})::integer - 1)`;

/**
 * Writes the rollups of every version not yet in stats_month_versions (the versions a load or an
 * update adds, and on its first write, those of a database written before the tables); resolves to
 * how many. The events are read once, from each version's partition (a load's, bare, is not yet
 * attached: bare-tables.ts), grouped per vessel, flag and month, and both tables are
 * written from those groups.
 */
export async function writeMissingStatsRollups(c: pg.ClientBase): Promise<number> {
  const missing = await versionsMissingFrom(c, 'stats_month_versions');
  if (missing.length === 0) return 0;
  await c.query(
    `CREATE TEMP TABLE stats_vessel_month_counts ON COMMIT DROP AS
     SELECT version_id, vessel_id, vessel_flag, ${monthIndexOf('start_ts')} AS month, count(*) AS n
       FROM (${missing.map((v) => `SELECT version_id, vessel_id, vessel_flag, start_ts FROM ${partitionName('events', v)} WHERE version_id = ${Number(v)}`).join(' UNION ALL ')}) e GROUP BY 1, 2, 3, 4`,
  );
  await c.query(
    `INSERT INTO stats_flag_months
     SELECT version_id, make_date(1970 + month / 12, month % 12 + 1, 1), vessel_flag, sum(n) FROM stats_vessel_month_counts GROUP BY 1, 2, 3`,
  );
  // Each month a '1' after as many '0's as months without events since the vessel's previous one.
  await c.query(
    `INSERT INTO stats_vessel_months
     SELECT version_id, vessel_id, vessel_flag, min(month), max(month), string_agg(lpad('1', month - previous, '0'), '' ORDER BY month)::varbit
       FROM (SELECT version_id, vessel_id, vessel_flag, month,
                    coalesce(lag(month) OVER (PARTITION BY version_id, vessel_id, vessel_flag ORDER BY month), month - 1) AS previous
               FROM stats_vessel_month_counts) m
      GROUP BY 1, 2, 3`,
  );
  await c.query('DROP TABLE stats_vessel_month_counts');
  await c.query('INSERT INTO stats_month_versions SELECT unnest($1::smallint[])', [missing]);
  return missing.length;
}

export async function dropStatsRollups(c: pg.ClientBase, versionId: number): Promise<void> {
  for (const table of ['stats_flag_months', 'stats_vessel_months', 'stats_month_versions']) await c.query(`DELETE FROM ${table} WHERE version_id = $1`, [versionId]);
}

/** The versions with rollups, read with the catalog (none in a database written before the tables). */
export async function readStatsRollupVersions(c: pg.ClientBase): Promise<Set<number>> {
  return versionsListedIn(c, 'stats_month_versions');
}
