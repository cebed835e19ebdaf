// Loading published-events files into the database: stage every row, validate and publish in one
// step, make it visible atomically. NDJSON lines are staged from JS (so problems carry exact line
// numbers); CSV and Parquet are read by DuckDB itself.
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import type { EventKind } from '../domain/kinds.ts';
import { DuckDbWriter, type PublishResult } from '../store/duckdb/writer.ts';
import { LoadLock, removeStaleWork, type LockHolder } from '../store/duckdb/load-lock.ts';

export const FILE_FORMATS = ['ndjson', 'csv', 'parquet'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

export interface LoadOptions {
  dbPath: string;
  version: string;
  /** Named in the catalog: where the rows came from. */
  source: string;
  /** Every row belongs to this kind (rows without event_type take it). */
  kind?: EventKind;
  /** Load the valid rows and report the others, instead of stopping at the first. */
  skipInvalid?: boolean;
  onProgress?: (rows: number) => void;
  /** Told once when another load holds the database and this one waits for it. */
  onWait?: (holder: LockHolder) => void;
}

/** The format of a file, from its extension. */
export function formatOf(file: string): FileFormat | undefined {
  const ext = extname(file.replace(/\.gz$/, '')).toLowerCase();
  if (ext === '.ndjson' || ext === '.jsonl' || ext === '.json') return 'ndjson';
  if (ext === '.csv') return 'csv';
  if (ext === '.parquet') return 'parquet';
  return undefined;
}

async function* ndjsonLines(file: string): AsyncGenerator<{ line: number; doc: string }> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() !== '') yield { line, doc: text };
  }
}

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

function withWriter(options: LoadOptions, stage: (w: DuckDbWriter) => Promise<void>): Promise<PublishResult> {
  return editDatabase(
    options.dbPath,
    async (w) => {
      await stage(w);
      return w.publish(options);
    },
    options.kind,
    options.onWait,
  );
}

export function loadFiles(files: { path: string; format: FileFormat }[], options: LoadOptions): Promise<PublishResult> {
  return withWriter(options, async (w) => {
    let staged = 0;
    for (const [i, { path, format }] of files.entries()) {
      if (format === 'ndjson') {
        staged += await w.stageDocuments(i, path, ndjsonLines(path), (n) => options.onProgress?.(staged + n));
      } else if (format === 'csv') {
        // Line numbers count the header line; a value with an embedded newline shifts later ones.
        staged += await w.ingestTable(i, path, `read_csv(${sqlString(path)}, header = true, all_varchar = true)`, 'row_number() OVER () + 1');
      } else {
        staged += await w.ingestTable(i, path, `read_parquet(${sqlString(path)}, file_row_number = true)`, 'file_row_number + 1');
      }
      options.onProgress?.(staged);
    }
  });
}

/** Loads rows produced in memory (the demo generator) through the same validation. */
export function loadRows(rows: Iterable<Record<string, unknown>>, file: string, options: LoadOptions): Promise<PublishResult> {
  return withWriter(options, async (w) => {
    function* documents() {
      let line = 0;
      for (const row of rows) yield { line: ++line, doc: JSON.stringify(row) };
    }
    await w.stageDocuments(0, file, documents(), options.onProgress);
  });
}

/** Default version tag: the load's date, `vYYYYMMDD`. */
export function defaultVersionTag(now = new Date()): string {
  return `v${now.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/**
 * Applies one change (a load, reference data, a version drop) through a working copy, atomically,
 * after any other change to the same database has finished (src/store/duckdb/load-lock.ts).
 */
export async function editDatabase<T>(dbPath: string, change: (w: DuckDbWriter) => Promise<T>, kind?: EventKind, onWait?: (holder: LockHolder) => void): Promise<T> {
  const writer = await DuckDbWriter.open(dbPath, kind, onWait);
  try {
    const result = await change(writer);
    await writer.commit();
    return result;
  } catch (e) {
    await writer.abandon();
    throw e;
  }
}

/**
 * Rewrites a database of an older storage layout in this version's, keeping everything it holds;
 * the old file is replaced only once the new one is complete.
 */
export async function migrateDatabase(dbPath: string, onWait?: (holder: LockHolder) => void): Promise<{ from: number; rows: number }> {
  const { writer, from, rows } = await DuckDbWriter.migrating(dbPath, onWait);
  try {
    await writer.commit();
  } catch (e) {
    await writer.abandon();
    throw e;
  }
  return { from, rows };
}

/** Removes what killed loads left beside the database (every load also does this first). */
export async function cleanStaleWork(dbPath: string, onWait?: (holder: LockHolder) => void): Promise<{ path: string; bytes: number }[]> {
  const lock = await LoadLock.acquire(dbPath, onWait);
  try {
    return removeStaleWork(dbPath);
  } finally {
    lock.release();
  }
}
