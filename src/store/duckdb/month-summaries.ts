// Two summaries of stats_months (stats-months.ts), per dataset version, for the statistics of long
// windows. stats_months has a row per month, flag and vessel: 8.1M rows for the 50M catalogue's
// 36M fishing events, which 8 years of statistics read twice, for the counts by flag and month
// (61-93 ms) and for the distinct vessels (151-220 ms). Here:
// * flag_months: events per month and flag (7,672 rows for the five versions at 50M), which the
//   counts and the series read;
// * vessel_month_bits: per vessel, the months it has events in, one bit each from the version's
//   first month (BIT, DuckDB's bit string). The distinct vessels of any window of whole months are
//   the rows whose bits meet the window's mask: 31 ms for 665,316 vessels at 50M, for one year or
//   eight (docs/performance.md, "Statistics").
// Both are written from stats_months with it; a version is read from them once
// month_summary_versions lists it, with its first month and how many months its bits hold.
import type { DuckDBConnection } from '@duckdb/node-api';
import { deleteVersionRows, tableExists, versionsMissingFrom } from './tables.ts';

export const CREATE_MONTH_SUMMARY_TABLES = [
  `CREATE TABLE IF NOT EXISTS flag_months (version_id USMALLINT NOT NULL, month DATE NOT NULL, vessel_flag VARCHAR, n UBIGINT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS vessel_month_bits (version_id USMALLINT NOT NULL, vessel_key UBIGINT NOT NULL, months BIT NOT NULL)`,
  // first_month: months since January 1970 of the version's first month; months: the bits' length (0: no events).
  `CREATE TABLE IF NOT EXISTS month_summary_versions (version_id USMALLINT PRIMARY KEY, first_month INTEGER NOT NULL, months INTEGER NOT NULL)`,
];

/** Where a version's bits start, and how many months they hold. */
export interface MonthSpan {
  firstMonth: number;
  months: number;
}

/** Months since January 1970, of a DATE in SQL and of an instant in JS. */
const MONTH_INDEX_SQL = (date: string) => `(12 * (year(${date}) - 1970) + month(${date}) - 1)::INTEGER`;
export function monthIndex(ms: number): number {
  const d = new Date(ms);
  return 12 * (d.getUTCFullYear() - 1970) + d.getUTCMonth();
}

/**
 * Writes the summaries of every version stats_months holds and they do not (all of them in a file
 * written before them); resolves to how many.
 */
export async function writeMissingMonthSummaries(c: DuckDBConnection): Promise<number> {
  const missing = await versionsMissingFrom(c, 'month_summary_versions');
  const held = new Set((await c.runAndReadAll(`SELECT version_id::INTEGER FROM stats_month_versions`)).getRowsJS().map((r) => r[0] as number));
  let written = 0;
  for (const versionId of missing.filter((v) => held.has(v))) {
    const [first, last] = (await c.runAndReadAll(
      `SELECT min(${MONTH_INDEX_SQL('month')}), max(${MONTH_INDEX_SQL('month')}) FROM stats_months WHERE version_id = ${versionId}`,
    )).getRowsJS()[0] as [number | null, number | null];
    await c.run(`INSERT INTO flag_months SELECT version_id, month, vessel_flag, sum(n)::UBIGINT FROM stats_months WHERE version_id = ${versionId} GROUP BY ALL ORDER BY month`);
    if (first !== null && last !== null) {
      await c.run(
        `INSERT INTO vessel_month_bits SELECT version_id, vessel_key, bitstring_agg(${MONTH_INDEX_SQL('month')}, ${first}, ${last})
           FROM stats_months WHERE version_id = ${versionId} GROUP BY ALL ORDER BY vessel_key`,
      );
    }
    await c.run(`INSERT INTO month_summary_versions VALUES (${versionId}, ${first ?? 0}, ${first === null ? 0 : last! - first + 1})`);
    written++;
  }
  return written;
}

export function dropMonthSummaryRows(c: DuckDBConnection, versionId: number): Promise<void> {
  return deleteVersionRows(c, ['flag_months', 'vessel_month_bits', 'month_summary_versions'], versionId);
}

/** The versions the server may read from the summaries, with their spans; read once when the database is opened. */
export async function readMonthSummaries(c: DuckDBConnection): Promise<ReadonlyMap<number, MonthSpan>> {
  if (!(await tableExists(c, 'month_summary_versions'))) return new Map();
  const rows = (await c.runAndReadAll(`SELECT version_id::INTEGER, first_month, months FROM month_summary_versions`)).getRowsJS() as [number, number, number][];
  return new Map(rows.map(([v, firstMonth, months]) => [v, { firstMonth, months }]));
}

/**
 * The mask of a window's whole months, [firstWhole, afterWhole) (epoch ms of month starts; open
 * when undefined), over a version's bits: '1' for each month inside it, as a BIT literal's text.
 */
export function monthMask(span: MonthSpan, firstWholeMs: number | undefined, afterWholeMs: number | undefined): string {
  const from = firstWholeMs === undefined ? 0 : monthIndex(firstWholeMs) - span.firstMonth;
  const to = afterWholeMs === undefined ? span.months : monthIndex(afterWholeMs) - span.firstMonth;
  let mask = '';
  for (let i = 0; i < span.months; i++) mask += i >= from && i < to ? '1' : '0';
  return mask;
}
