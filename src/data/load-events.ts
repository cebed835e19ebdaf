// Loading published-events files into the database: stage every row, validate and publish in one
// step, make it visible atomically. NDJSON lines are staged from JS (so problems carry exact line
// numbers); CSV and Parquet are read by the engine's loader itself.
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import type { EventKind } from '../domain/kinds.ts';
import { editDatabase, type Database, type LockHolder } from '../store/engines.ts';
import { LoadRefused, type DatabaseWriter, type LoadPhase, type PublishResult, type Removals, type UpdateRequest, type EntryCompression } from '../store/writer.ts';
import { gfwEntryDocuments } from './parse-gfw-json.ts';

/** Published-events rows in three formats; `gfw-json`: GFW Events API entries (src/data/parse-gfw-json.ts). */
export const FILE_FORMATS = ['ndjson', 'csv', 'parquet', 'gfw-json'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

export interface LoadOptions {
  database: Database;
  version: string;
  /** Named in the catalog: where the rows came from. */
  source: string;
  /** Every row belongs to this kind (rows without event_type take it). */
  kind?: EventKind;
  /** Load the valid rows and report the others, instead of stopping at the first. */
  skipInvalid?: boolean;
  onProgress?: (rows: number) => void;
  /** Told as each step after reading starts (validating, sorting, indexing, copying, publishing). */
  onPhase?: (phase: LoadPhase) => void;
  /** Told once when another load holds the database and this one waits for it. */
  onWait?: (holder: LockHolder) => void;
  /** The memory the load's engine may use (default DEFAULT_LOAD_MEMORY_LIMIT). */
  memoryLimit?: string;
  /** Rows a sort of the load takes at most (WriterOptions.sortRangeRows). */
  sortRangeRows?: number;
  /** How a new DuckDB file stores each entry (WriterOptions.entryCompression). */
  entryCompression?: EntryCompression;
  /** Apply the rows by event id to each dataset's latest version, and remove these ids, as a new version. */
  update?: UpdateRequest;
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

function withWriter(options: LoadOptions, stage: (w: DatabaseWriter) => Promise<void>): Promise<PublishResult> {
  return editDatabase(
    options.database,
    async (w) => {
      await stage(w);
      const result = await w.publish(options);
      // The commit follows: DuckDB's checkpoint and the file's swap, or PostgreSQL's COMMIT and VACUUM.
      options.onPhase?.('publishing');
      return result;
    },
    { ...(options.kind ? { kind: options.kind } : {}), ...(options.update ? { update: true } : {}), ...(options.onWait ? { onWait: options.onWait } : {}), ...(options.memoryLimit ? { memoryLimit: options.memoryLimit } : {}), ...(options.sortRangeRows ? { sortRangeRows: options.sortRangeRows } : {}), ...(options.entryCompression ? { entryCompression: options.entryCompression } : {}) },
  );
}

export function loadFiles(files: { path: string; format: FileFormat }[], options: LoadOptions): Promise<PublishResult> {
  return withWriter(options, async (w) => {
    let staged = 0;
    for (const [i, { path, format }] of files.entries()) {
      if (format === 'ndjson' || format === 'gfw-json') {
        const documents = format === 'ndjson' ? ndjsonLines(path) : gfwEntryDocuments(path);
        staged += await w.stageDocuments(i, path, documents, (n) => options.onProgress?.(staged + n));
      } else {
        staged += await w.ingestFile(i, path, format);
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

/**
 * The event ids of a removal file (`load --update --remove FILE`): one per line, as the API serves
 * them (an encounter's with its .1 or .2); blank lines are skipped. A line that cannot be an id
 * (spaces, quotes, commas, braces: a row or a CSV given by mistake) refuses the whole file.
 */
export async function readRemovals(file: string, kind: EventKind): Promise<Removals> {
  const ids: Removals['ids'] = [];
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    const id = text.trim();
    if (id === '') continue;
    if (/[\s",{}[\]]/.test(id)) throw new LoadRefused(`${file}:${line}: not an event id ("${id.length > 40 ? `${id.slice(0, 40)}...` : id}"); a removal file lists one event id per line`);
    ids.push({ line, id });
  }
  return { kind, file, ids };
}

/** Default version tag: the load's date, `vYYYYMMDD`. */
export function defaultVersionTag(now = new Date()): string {
  return `v${now.toISOString().slice(0, 10).replace(/-/g, '')}`;
}
