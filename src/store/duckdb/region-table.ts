// region_events: for every event and every region it lies in (of the layers below), the columns a
// region query is commonly filtered on, sorted by (version, layer, region, start). Events are
// stored by time, so a region's total read every row of the time window and tested each one's list
// of regions; here a region's rows are one run of the table that its zone maps find, in the order
// of their start, so the window prunes within it too (docs/performance.md, "Regions: a table sorted
// by region"). The table answers the total; a page sorted by start is still read from events, from
// the start of its first row on, which the table gives. The loader writes it with events
// (writer.ts); a version is read from it once region_versions lists it. When it answers a query:
// src/store/region-plan.ts.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { REGION_TABLE_LAYERS, type RegionPlan } from '../region-plan.ts';
import type { ListQuery } from '../../query/types.ts';
import { SqlBuilder } from '../sql.ts';
import { renderCondition } from './render-plan.ts';
import type { PageStart } from './stored-order.ts';
import { deleteVersionRows, tableExists, versionsMissingFrom } from './tables.ts';
import { readRows } from './statements.ts';

export const CREATE_REGION_TABLES = [
  `CREATE TABLE IF NOT EXISTS region_events (
     version_id USMALLINT NOT NULL, member VARCHAR NOT NULL, region VARCHAR NOT NULL, kind VARCHAR NOT NULL,
     start_ts TIMESTAMP NOT NULL, end_ts TIMESTAMP, vessel_flag VARCHAR, vessel_type VARCHAR)`,
  // The versions whose rows are in region_events: a database written before the table has none.
  `CREATE TABLE IF NOT EXISTS region_versions (version_id USMALLINT PRIMARY KEY)`,
];

/** Copies the versions' rows from events, one per event and region, sorted by region, and lists the versions. */
async function insertRegionRows(c: DuckDBConnection, versionIds: readonly number[]): Promise<void> {
  if (versionIds.length === 0) return;
  const list = versionIds.map(Number).join(', ');
  // list_distinct: a region listed twice in an event's list is still one event in its total.
  const perLayer = REGION_TABLE_LAYERS.map((m) =>
    `SELECT version_id, '${m.member}' AS member, unnest(list_distinct(${m.column})) AS region, kind, start_ts, end_ts, vessel_flag, vessel_type
       FROM events WHERE version_id IN (${list})`);
  await c.run(`INSERT INTO region_events SELECT * FROM (${perLayer.join(' UNION ALL ')}) WHERE region IS NOT NULL ORDER BY version_id, member, region, start_ts`);
  await c.run(`INSERT INTO region_versions SELECT unnest([${list}])`);
}

/** Writes the rows of every version not yet in region_events (all of them in an older file); resolves to how many. */
export async function writeMissingRegionRows(c: DuckDBConnection): Promise<number> {
  const missing = await versionsMissingFrom(c, 'region_versions');
  await insertRegionRows(c, missing);
  return missing.length;
}

export function dropRegionRows(c: DuckDBConnection, versionId: number): Promise<void> {
  return deleteVersionRows(c, ['region_events', 'region_versions'], versionId);
}

/** The versions the server may read from region_events, read once when the database is opened. */
export async function readRegionVersions(c: DuckDBConnection): Promise<ReadonlySet<number>> {
  if (!(await tableExists(c, 'region_versions'))) return new Set();
  return new Set((await c.runAndReadAll(`SELECT version_id::INTEGER FROM region_versions`)).getRowsJS().map((r) => r[0] as number));
}

/** The region's rows that meet the other conditions: FROM and WHERE. */
function rowsOf(b: SqlBuilder<DuckDBValue>, plan: RegionPlan): string {
  const where = [`member = ${b.param(plan.region.member)}`, `region = ${b.param(plan.region.id)}`, ...plan.others.map((c) => renderCondition(b, c))];
  return `FROM region_events WHERE ${where.join(' AND ')}`;
}

export async function regionCount(c: DuckDBConnection, plan: RegionPlan): Promise<number> {
  const b = new SqlBuilder<DuckDBValue>();
  return (await readRows(c, `SELECT count(*)::DOUBLE ${rowsOf(b, plan)}`, b.params))[0]![0] as number;
}

/**
 * Pages ending past this many rows into the list are not placed by regionCountAndStart: its top-N of
 * starts would grow with the offset, where regionPageStart reads the run to the page.
 */
export const COUNTED_STARTS_LIMIT = 1000;

/**
 * The total, and where an ascending page of one dataset version begins, in one pass over the
 * region's rows: the count and the starts of its first offset + limit rows (a top-N by start). The
 * count, then the page's starts, took 3.0 and 2.0 ms p50 on one EEZ, flag and year of 10M events;
 * the two at once 3.6 (docs/performance.md, "A region's total and page start in one pass"). `from`
 * is undefined when the page is past the end of the list.
 */
export async function regionCountAndStart(c: DuckDBConnection, plan: RegionPlan, query: ListQuery): Promise<{ total: number; from?: PageStart }> {
  if (query.datasets.length !== 1 || query.sort === '-start') throw new Error('an ascending page of one dataset version is placed with its total');
  const wanted = query.offset + query.limit;
  if (wanted > COUNTED_STARTS_LIMIT) throw new Error(`a page ending past row ${COUNTED_STARTS_LIMIT} is placed by regionPageStart`);
  const b = new SqlBuilder<DuckDBValue>();
  const [total, found] = (await readRows(
    c,
    `SELECT count(*)::DOUBLE, min_by(epoch_us(start_ts)::DOUBLE, start_ts, ${wanted}) ${rowsOf(b, plan)}`,
    b.params,
  ))[0] as [number, number[] | null];
  if (query.offset >= total) return { total };
  const starts = [...(found ?? [])].sort((x, y) => x - y);
  const last = Math.min(total, wanted) - 1;
  if (starts.length !== last + 1) throw new Error(`region_events gave ${starts.length} starts of the first ${last + 1} of ${total} rows`);
  const startUs = starts[query.offset]!;
  // Every row that starts before the page's first is among the first offset rows.
  let before = 0;
  while (before < query.offset && starts[before]! < startUs) before++;
  return { total, from: { startUs, before, lastUs: starts[last]! } };
}

/**
 * Where a page of one dataset version sorted by start begins: the start (µs) of its earliest row,
 * and how many of the query's rows start earlier. Undefined when the page is past the end of the
 * list. The events table then finds the page from that start on, and the rows before it are not
 * read again. A version's rows of one region are stored in the order of their start, so the page's
 * first row and the one before it are read in storage order, without a sort (6 ms where DuckDB's
 * top-N took 15-30 for one EEZ and flag on 10M events); only when both start at the same instant
 * are the earlier rows counted. For an ascending page the starts of its rows are read too, and the
 * last one bounds the window the events table reads.
 *
 * An ascending page needs no total (`undefined`): it is then found while the total is counted on
 * another connection, and `rows` says how many rows it has, for the caller to check against the
 * count.
 */
export async function regionPageStart(c: DuckDBConnection, plan: RegionPlan, query: ListQuery, total: number | undefined): Promise<(PageStart & { rows: number }) | undefined> {
  if (query.datasets.length !== 1) throw new Error('a page in storage order reads one dataset version');
  const descending = query.sort === '-start';
  if (descending && total === undefined) throw new Error('a descending page is placed by the total');
  const first = descending ? Math.max(0, total! - query.offset - query.limit) : query.offset;
  if (total !== undefined && (first >= total || (descending && query.offset >= total))) return undefined;
  // The row before the page, and the page's rows (an ascending page's last start bounds its window).
  const last = descending ? first : Math.min(total ?? Infinity, first + query.limit) - 1;
  const b = new SqlBuilder<DuckDBValue>();
  // The OFFSET outside: on the scan itself an OFFSET (even 0) made DuckDB read the whole run before
  // answering (24 ms against 5 for the first row of one EEZ and flag on 10M events).
  const starts = (await readRows(
    c,
    `SELECT start_us FROM (SELECT epoch_us(start_ts)::DOUBLE AS start_us ${rowsOf(b, plan)} LIMIT ${last + 1}) OFFSET ${Math.max(0, first - 1)}`,
    b.params,
  )).map((r) => r[0] as number);
  const rows = starts.length - (first === 0 ? 0 : 1);
  if (total !== undefined && starts.length !== last + 1 - Math.max(0, first - 1)) throw new Error(`region_events holds fewer than the ${total} rows it counted`);
  if (rows <= 0) return undefined;
  const startUs = starts[first === 0 ? 0 : 1]!;
  const lastUs = descending ? undefined : starts[starts.length - 1]!;
  const found = (before: number) => (lastUs === undefined ? { startUs, before, rows } : { startUs, before, lastUs, rows });
  if (first === 0 || starts[0]! < startUs) return found(first);
  const earlier = new SqlBuilder<DuckDBValue>();
  const before = (await readRows(c, `SELECT count(*)::DOUBLE ${rowsOf(earlier, plan)} AND start_ts < make_timestamp(${earlier.param(BigInt(startUs))}::BIGINT)`, earlier.params))[0]![0] as number;
  return found(before);
}
