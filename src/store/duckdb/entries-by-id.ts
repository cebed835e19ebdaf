// A page's entries read by (version, id, start): from the events table by windows of starts, or
// from the version's point file, whichever a measured cost says is cheaper. Pages found in a table
// that holds no entries (spatial_events) read their entries here.
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { EventQuery } from '../../query/types.ts';
import { SqlBuilder } from '../sql.ts';
import type { PointFile } from './point-file-format.ts';
import { typedParam } from './render-plan.ts';
import { streamRows } from './statements.ts';
import { ENTRY_BYTES_SQL } from './entry-stream.ts';
import { blobColumnValues, int32Column } from './chunk-columns.ts';
import { EntryBytes } from '../entry-bytes.ts';
import type { PathContext } from './paths.ts';

/** Where a page's entries may be read besides a window of events: what the store knows of each version. */
export interface EntrySources {
  /** The version's point file, when it has one: an entry by id without a statement. */
  pointFile(versionId: number): PointFile | undefined;
  /** The version's events per microsecond of start, on average. */
  density(versionId: number): Promise<number>;
  /** The table that holds the version's rows, where it is not events (a layer's, layers.ts). */
  table?(versionId: number): string;
}

/** What the store knows of the query's versions, read on the connection the page holds. */
export function entrySourcesOn(ctx: PathContext, c: DuckDBConnection, query: EventQuery): EntrySources {
  return {
    pointFile: (versionId) => ctx.points.get(versionId),
    density: async (versionId) => {
      const range = await ctx.startRangeOf(c, versionId);
      const rows = query.datasets.find((d) => d.resolved.versionId === versionId)?.resolved.rowCount ?? 0;
      return rows / Math.max(1, range.lastUs - range.firstUs);
    },
  };
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
/** A window of at most this many events per row asked for is read without naming the rows' ids. */
const DENSE_WINDOW = 2;

/**
 * The stored entries of (version, id, start in µs) rows, in their order, as bytes. The rows are grouped in
 * clusters of starts: a gap holding more events than a statement's cost splits them. A cluster is
 * read from events as a window of starts (events are sorted by version and start, so its zone maps
 * find it) or, when that would cost more, entry by entry from the version's point file. A dense
 * page (a busy area) is one window; a sparse one, whose 100 events spread over a year, took 35-68
 * ms as one window and is read from the point files.
 */
export async function entriesOf(c: DuckDBConnection, page: [number, string, number][], sources: EntrySources): Promise<EntryBytes> {
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
  const entries = new Map<string, Uint8Array>();
  const key = (version: number, id: string) => `${version}\u0000${id}`;
  const b = new SqlBuilder<DuckDBValue>();
  const windows: string[] = [];
  const lookups: Promise<void>[] = [];
  for (const cluster of clusters) {
    const file = sources.pointFile(cluster.version);
    if (file && cluster.rows.length * POINT_ENTRY_MS < STATEMENT_MS + cluster.events * WINDOW_EVENT_MS) {
      for (const [version, id] of cluster.rows) {
        lookups.push(file.entry(id).then((entry) => void (entry !== undefined && entries.set(key(version, id), Buffer.from(entry)))));
      }
      continue;
    }
    const [first, last] = [cluster.rows[0]![2], cluster.rows[cluster.rows.length - 1]![2]];
    const window = `SELECT version_id::INTEGER, id, ${ENTRY_BYTES_SQL} FROM ${sources.table?.(cluster.version) ?? 'events'} WHERE version_id = ${typedParam(b, 'version_id', cluster.version)} AND start_ts BETWEEN make_timestamp(${b.param(BigInt(first))}::BIGINT) AND make_timestamp(${b.param(BigInt(last))}::BIGINT)`;
    // A window that holds little besides the cluster is read whole, the rows not asked for left
    // unread: naming 3,041 ids in it took 26-30 ms, the window alone 11 (in process, 10M, 2026-11-27).
    windows.push(cluster.events <= DENSE_WINDOW * cluster.rows.length ? window : `${window} AND id IN (${b.placeholders(cluster.rows.map((row) => row[1]))})`);
  }
  if (windows.length) {
    // Entries are read as bytes, not texts: making JS strings of 99,999 entries took 360-400 ms
    // of a 550 ms read (in process, 10M, 2026-11-27).
    const result = await streamRows(c, windows.join(' UNION ALL '), b.params);
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const versions = int32Column(chunk, 0);
      const ids = chunk.getColumnVector(1);
      const { pieces, counts, lengths } = blobColumnValues(chunk, 2);
      let row = 0;
      pieces.forEach((piece, p) => {
        for (let k = 0, at = 0; k < counts[p]!; k++, row++) {
          // Each value ends with its spare byte (ENTRY_BYTES_SQL), left out here.
          entries.set(key(versions[row]!, String(ids.getItem(row))), piece.subarray(at, at + lengths[row]! - 1));
          at += lengths[row]!;
        }
      });
    }
  }
  await Promise.all(lookups);
  return EntryBytes.copy(page.map(([version, id]) => {
    const entry = entries.get(key(version, id));
    if (entry === undefined) throw new Error(`event ${id} of version ${version} was found for a page but is not in events`);
    return entry;
  }));
}
