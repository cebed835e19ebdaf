// Which point files (point-file-format.ts) a database has, and keeping them in step with it. Every file
// lives in `<database>.points/` under a name no other load uses, and is never changed once written:
// a load writes the files of the versions it adds and names them in the working copy's meta table,
// so they become the database's in the same rename that publishes the load. Files no published
// database names (a dropped version's, a failed load's) are removed by the next load's commit; a
// server still reading an older database keeps its open files readable until it closes them.
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import { blobColumnValues, float64Column, uint32Column } from './chunk-columns.ts';
import { chunkRead } from './chunk-memory.ts';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { POINT_RECORD_SQL, POINT_ROW_KEY_SQL, POINT_ROW_ORDER_SQL, PointFile, PointFileWriter } from './point-file-format.ts';
import { keyRanges, SORT_RANGE_ROWS, sortRanges } from './sort-ranges.ts';
import { readVersions } from './versions.ts';
import { tableExists } from './tables.ts';
import { readOnly } from './inspect.ts';

const META_PREFIX = 'point_file:';
const SUFFIX = '.points';

/** The folder beside a database that holds its point files. */
export function pointFolder(dbPath: string): string {
  return join(dirname(dbPath), `${basename(dbPath)}${SUFFIX}`);
}

/** The point file each version has, by version id (a database from before point files has none). */
export async function namedPointFiles(c: DuckDBConnection): Promise<Map<number, string>> {
  if (!(await tableExists(c, 'meta'))) return new Map();
  const rows = (await c.runAndReadAll(`SELECT key, value FROM meta WHERE starts_with(key, ?)`, [META_PREFIX])).getRowsJS() as [string, string][];
  return new Map(rows.map(([key, name]) => [Number(key.slice(META_PREFIX.length)), name]));
}

/** Events written into point files so far, of the total to write. */
export type PointFileProgress = (written: number, total: number) => void;

/**
 * Writes the point file of every version that has no usable one (the versions a load adds; all of
 * them in a database from before point files or with files of an older format) and names it in
 * meta. Resolves to the files written, for the writer to remove if the load is abandoned.
 */
export async function writeMissingPointFiles(c: DuckDBConnection, dbPath: string, onRows?: PointFileProgress, rangeRows = SORT_RANGE_ROWS): Promise<string[]> {
  const named = await namedPointFiles(c);
  const folder = pointFolder(dbPath);
  const missing: number[] = [];
  const rowsOf = new Map<number, number>();
  let total = 0;
  for (const { versionId, rowCount } of await readVersions(c)) {
    const name = named.get(versionId);
    if (name === undefined || !(await PointFile.usable(join(folder, name), versionId))) {
      missing.push(versionId);
      rowsOf.set(versionId, rowCount);
      total += rowCount;
    }
  }
  mkdirSync(folder, { recursive: true });
  const written: string[] = [];
  const writers = new Map<number, { name: string; writer: PointFileWriter }>();
  try {
    for (const versionId of missing) {
      const name = `${versionId}-${randomUUID().slice(0, 8)}${SUFFIX}`;
      written.push(join(folder, name));
      writers.set(versionId, { name, writer: await PointFileWriter.create(join(folder, name), versionId, rowsOf.get(versionId)) });
    }
    let done = 0;
    // Each version's events sorted by vessel, a version at a time and in ranges of the vessel key,
    // so a sort spills a range's entries, not every version's (sort-ranges.ts); the events are
    // stored by version, so each reads only its own row groups.
    const ranges = missing.flatMap((versionId) => {
      return keyRanges(POINT_ROW_KEY_SQL, sortRanges(rowsOf.get(versionId)!, rangeRows)).map((range) => ({ versionId, range }));
    });
    for (const { versionId, range } of ranges) {
      const { writer } = writers.get(versionId)!;
      const result = await c.stream(`SELECT ${POINT_RECORD_SQL} FROM events WHERE version_id = ${Number(versionId)} AND ${range} ORDER BY ${POINT_ROW_ORDER_SQL}`);
      for await (const chunk of chunksOf(result)) {
        // Typed arrays, not a getItem per value (src/store/duckdb/chunk-columns.ts); the end may be NULL.
        const [high, low, vesselHigh, vesselLow] = [0, 1, 2, 3].map((i) => uint32Column(chunk, i));
        const start = float64Column(chunk, 4);
        const end = chunk.getColumnVector(5) as unknown as { getItem(row: number): number | null };
        const [idBytes, vesselBytes] = [6, 7].map((i) => uint32Column(chunk, i));
        // The records' bytes copied out a run of adjacent values at a time, not one call and one
        // ArrayBuffer per row: about 205 rows a run here (docs/performance.md, "Rows made, read and
        // written without waste").
        const { pieces, counts, lengths } = blobColumnValues(chunk, 8);
        let row = 0;
        for (let p = 0; p < pieces.length; p++) {
          const piece = pieces[p]!;
          for (let at = 0, last = row + counts[p]!; row < last; at += lengths[row]!, row++) {
            const pending = writer.addRecord(
              high![row]!, low![row]!, vesselHigh![row]!, vesselLow![row]!, start[row]!, end.getItem(row),
              idBytes![row]!, vesselBytes![row]!, piece.subarray(at, at + lengths[row]!),
            );
            if (pending) await pending;
          }
        }
        onRows?.((done += start.length), total);
      }
    }
    for (const [versionId, { name, writer }] of writers) {
      writers.delete(versionId);
      await writer.finish();
      await c.run(`INSERT OR REPLACE INTO meta VALUES (?, ?)`, [`${META_PREFIX}${versionId}`, name]);
    }
  } catch (e) {
    await Promise.all([...writers.values()].map(({ writer }) => writer.close()));
    for (const path of written) rmSync(path, { force: true });
    throw e;
  }
  return written;
}

/** Once every version has its point file, the id index of older files has no reader left: it took about 71 bytes per event. */
export async function dropIdIndex(c: DuckDBConnection): Promise<void> {
  await c.run(`DROP INDEX IF EXISTS events_id_idx`);
}

/** Forgets a dropped version's point file (the next commit removes the file). */
export async function forgetPointFile(c: DuckDBConnection, versionId: number): Promise<void> {
  await c.run(`DELETE FROM meta WHERE key = ?`, [`${META_PREFIX}${versionId}`]);
}

/** Removes the files in the database's point folder that `named` (the published database's) does not name. */
export function removeUnnamedPointFiles(dbPath: string, named: Iterable<string>): { path: string; bytes: number }[] {
  const keep = new Set(named);
  let files: string[];
  try {
    files = readdirSync(pointFolder(dbPath));
  } catch {
    return [];
  }
  const removed = files.filter((file) => !keep.has(file)).map((file) => join(pointFolder(dbPath), file)).map((path) => ({ path, bytes: statSync(path).size }));
  for (const { path } of removed) rmSync(path, { force: true });
  return removed;
}

/** The point files the database at a path names (opened read-only, as a server does). */
export function pointFilesNamedAt(dbPath: string): Promise<string[]> {
  return readOnly(dbPath, async (c) => [...(await namedPointFiles(c)).values()]);
}

/**
 * Opens the point files a database names. A version whose file cannot be used (missing, as in a
 * database copied or renamed without its `<db>.points/` folder; damaged; written for another
 * version) has none, and its lookups go to the events table: same answers, many times slower (at
 * 200,000 events, by id 17.1 ms against 0.72 p50, a vessel's history 126.9 against 2.7, in the
 * store, 200 of each in turns, 2026-11-26, load 5.0-5.6 beside a test run). `onProblem` gets the
 * version and what is wrong with its file.
 */
export async function openPointFiles(c: DuckDBConnection, dbPath: string, onProblem: (versionId: number, problem: string) => void): Promise<Map<number, PointFile>> {
  const open = new Map<number, PointFile>();
  for (const [versionId, name] of await namedPointFiles(c)) {
    const path = join(pointFolder(dbPath), name);
    try {
      open.set(versionId, await PointFile.open(path, versionId));
    } catch (e) {
      onProblem(versionId, (e as NodeJS.ErrnoException).code === 'ENOENT' ? `its point file ${path} is missing` : (e as Error).message);
    }
  }
  return open;
}

/** A result chunk by chunk, the next chunk read by DuckDB while the caller handles this one. */
async function* chunksOf(result: { fetchChunk(): Promise<DuckDBDataChunk | null> }): AsyncGenerator<DuckDBDataChunk> {
  let next = result.fetchChunk();
  for (;;) {
    const chunk = await next;
    if (!chunk || chunk.rowCount === 0) return;
    chunkRead();
    next = result.fetchChunk();
    yield chunk;
  }
}
