// A page's entries read by (version, id, start): from the events table by windows of starts, or
// from the version's point file, whichever a measured cost says is cheaper. Pages found in a table
// that holds no entries (spatial_events) read their entries here.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { SqlBuilder } from '../sql.ts';
import type { PointFile } from './point-file-format.ts';
import { typedParam } from './render-plan.ts';
import { readRows } from './statements.ts';

/** Where a page's entries may be read besides a window of events: what the store knows of each version. */
export interface EntrySources {
  /** The version's point file, when it has one: an entry by id without a statement. */
  pointFile(versionId: number): PointFile | undefined;
  /** The version's events per microsecond of start, on average. */
  density(versionId: number): Promise<number>;
}

// Costs measured on the 10M demo (2026-11-25, .exp/entries.mts, .exp/entries2.mts and
// .exp/ptent.mts, load 0.4-1.0): a statement on events costs about 1.5 ms however few rows it finds
// (100 exact lookups, one statement each or one UNION ALL: 100-200 ms), plus about 0.65 µs per
// event of its window of starts, whose entries DuckDB reads whatever the ids asked (100 ids in a
// window of 61,552 events: 40-60 ms, 10 ids 37 ms, the window's ids alone 6-12 ms); an entry read
// from a point file about 0.1 ms (100 at once: 7-17 ms on 32 KB blocks, 11-23 on 64 KB; DuckDB's
// `rowid = x` took 2.2 ms each).
const STATEMENT_MS = 1.5;
const WINDOW_EVENT_MS = 0.00065;
const POINT_ENTRY_MS = 0.1;

/**
 * The stored entries of (version, id, start in µs) rows, in their order. The rows are grouped in
 * clusters of starts: a gap holding more events than a statement's cost splits them. A cluster is
 * read from events as a window of starts (events are sorted by version and start, so its zone maps
 * find it) or, when that would cost more, entry by entry from the version's point file. A dense
 * page (a busy area) is one window; a sparse one, whose 100 events spread over a year, took 35-68
 * ms as one window and is read from the point files.
 */
export async function entriesOf(c: DuckDBConnection, page: [number, string, number][], sources: EntrySources): Promise<string[]> {
  const rows = [...page].sort((x, y) => x[0] - y[0] || x[2] - y[2]);
  const clusters: { version: number; rows: [number, string, number][]; events: number }[] = [];
  const densities = new Map<number, number>();
  for (const version of new Set(rows.map((row) => row[0]))) densities.set(version, await sources.density(version));
  for (const row of rows) {
    const last = clusters[clusters.length - 1];
    const gap = last && last.version === row[0] ? (row[2] - last.rows[last.rows.length - 1]![2]) * densities.get(row[0])! : Infinity;
    if (last && gap * WINDOW_EVENT_MS <= STATEMENT_MS) {
      last.rows.push(row);
      last.events += gap;
    } else clusters.push({ version: row[0], rows: [row], events: 1 });
  }
  const entries = new Map<string, string>();
  const key = (version: number, id: string) => `${version}\u0000${id}`;
  const b = new SqlBuilder<DuckDBValue>();
  const windows: string[] = [];
  const lookups: Promise<void>[] = [];
  for (const cluster of clusters) {
    const file = sources.pointFile(cluster.version);
    if (file && cluster.rows.length * POINT_ENTRY_MS < STATEMENT_MS + cluster.events * WINDOW_EVENT_MS) {
      for (const [version, id] of cluster.rows) {
        lookups.push(file.entry(id).then((entry) => void (entry !== undefined && entries.set(key(version, id), entry))));
      }
      continue;
    }
    const [first, last] = [cluster.rows[0]![2], cluster.rows[cluster.rows.length - 1]![2]];
    windows.push(`SELECT version_id::INTEGER, id, entry FROM events WHERE version_id = ${typedParam(b, 'version_id', cluster.version)} AND start_ts BETWEEN make_timestamp(${b.param(BigInt(first))}::BIGINT) AND make_timestamp(${b.param(BigInt(last))}::BIGINT) AND id IN (${b.placeholders(cluster.rows.map((row) => row[1]))})`);
  }
  if (windows.length) {
    for (const [version, id, entry] of (await readRows(c, windows.join(' UNION ALL '), b.params)) as [number, string, string][]) entries.set(key(version, id), entry);
  }
  await Promise.all(lookups);
  return page.map(([version, id]) => {
    const entry = entries.get(key(version, id));
    if (entry === undefined) throw new Error(`event ${id} of version ${version} is in spatial_events but not in events`);
    return entry;
  });
}
