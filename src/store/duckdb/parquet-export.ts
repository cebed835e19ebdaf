// A page of entries as GeoParquet (`format=parquet`): DuckDB reads the entries, written as NDJSON in
// their stored form, with the column types of the entry layout, and writes one Parquet file. It is a
// job for the embedded engine whatever engine serves, as `generate`'s conversions are
// (convert-files.ts). docs/performance.md ("Parquet") gives what it costs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ENTRY_FIELDS, type FieldType, type TypedTree } from '../../domain/entry-paths.ts';
import { Overloaded } from '../../query/errors.ts';
import { OFFLINE_SETTINGS } from './offline.ts';
import { sqlText } from '../sql.ts';

export interface ParquetExport {
  /** NDJSON of stored entries (the `gfw` wire format: some numbers as decimal texts, an open end ""). */
  source: string;
  target: string;
  /** The columns, as the entry layout types them: the members the request keeps. */
  columns: TypedTree;
  /** Aborted when the client leaves: the conversion is interrupted. */
  signal?: AbortSignal;
}

/**
 * Row groups of 20,000 rows (the nested columns are buffered per row group): on a 927,273-entry page,
 * 3.9-4.9 s against 8.6-10.5 s with DuckDB's default of 122,880. Snappy, DuckDB's default codec:
 * zstd made the same COPY 20-40 % slower (docs/performance.md, "Parquet").
 */
const ROW_GROUP_SIZE = 20_000;
/** One conversion at a time, one thread each: the other core keeps answering queries. */
const RUNNING = 1;
const MAX_WAITING = 4;

/** The point column (GeoParquet 1.1): WKB from `position`, with a bounding-box covering column for readers that filter by it. */
const GEOMETRY = 'geometry';
const COVERING = 'bbox';
export const GEO_METADATA = {
  version: '1.1.0',
  primary_column: GEOMETRY,
  columns: {
    [GEOMETRY]: {
      encoding: 'WKB',
      geometry_types: ['Point'],
      covering: { bbox: Object.fromEntries(['xmin', 'ymin', 'xmax', 'ymax'].map((k) => [k, [COVERING, k]])) },
    },
  },
};

let running = 0;
const waiting: (() => void)[] = [];

async function turn(): Promise<() => void> {
  if (running >= RUNNING) {
    if (waiting.length >= MAX_WAITING) {
      throw new Overloaded([{ title: 'Service Unavailable', detail: `${running + waiting.length} Parquet exports are being written or waiting; retry in a moment` }], 2);
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

const quoteName = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** DuckDB's type for a value of the layout; `timestamp` is read as text and cast in the SELECT (an open end is ""). */
function sqlType(type: FieldType, topLevel = false): string {
  if (type === 'string') return 'VARCHAR';
  if (type === 'number') return 'DOUBLE';
  if (type === 'integer') return 'BIGINT';
  if (type === 'boolean') return 'BOOLEAN';
  if (type === 'timestamp') {
    if (!topLevel) throw new Error('a timestamp is only read as a top-level member');
    return 'VARCHAR';
  }
  if ('list' in type) return `${sqlType(type.list)}[]`;
  return `STRUCT(${Object.entries(type.fields).map(([k, t]) => `${quoteName(k)} ${sqlType(t)}`).join(', ')})`;
}

/** The SELECT over the NDJSON rows: the columns kept, the start and end as instants, the point and its covering box. */
export function exportSql({ source, target, columns }: Pick<ParquetExport, 'source' | 'target' | 'columns'>): string {
  // The point is read from the stored position even where `includes` leave it out of the columns.
  const read: TypedTree = { ...columns, position: ENTRY_FIELDS['position']! };
  const readColumns = `{${Object.entries(read).map(([k, t]) => `${sqlText(k)}: ${sqlText(sqlType(t, true))}`).join(', ')}}`;
  const rows = `read_json(${sqlText(source)}, format = 'newline_delimited', columns = ${readColumns}, maximum_object_size = 16777216)`;
  const kept = Object.entries(columns).map(([k, t]) => {
    if (t === 'timestamp') return `nullif(${quoteName(k)}, '')::TIMESTAMPTZ AS ${quoteName(k)}`;
    if (k === 'position' && typeof t === 'object' && 'fields' in t) return `{${Object.keys(t.fields).map((f) => `${quoteName(f)}: position.${quoteName(f)}`).join(', ')}} AS position`;
    return quoteName(k);
  });
  const point = `CASE WHEN position.lat IS NOT NULL AND position.lon IS NOT NULL THEN st_aswkb(('POINT (' || position.lon || ' ' || position.lat || ')')::GEOMETRY) END AS ${GEOMETRY}`;
  const box = `CASE WHEN position.lat IS NOT NULL AND position.lon IS NOT NULL THEN {xmin: position.lon, ymin: position.lat, xmax: position.lon, ymax: position.lat} END AS ${COVERING}`;
  const select = `SELECT ${[...kept, point, box].join(', ')} FROM ${rows}`;
  const options = `FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${ROW_GROUP_SIZE}, KV_METADATA {geo: ${sqlText(JSON.stringify(GEO_METADATA))}}`;
  return `COPY (${select}) TO ${sqlText(target)} (${options})`;
}

/**
 * One in-memory instance for the process, made on the first export and kept: a fresh instance per
 * export faults its memory in anew, and the first COPY in an instance took 6.6-7.4 s against
 * 3.9-4.8 s for the next ones on the same 927,273 entries. It spills, if it must, to a folder of its
 * own, removed when the process exits.
 */
let converter: Promise<DuckDBInstance> | undefined;

function converterInstance(): Promise<DuckDBInstance> {
  converter ??= (async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'vessel-events-parquet-scratch-'));
    process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
    const instance = await DuckDBInstance.create(':memory:', { ...OFFLINE_SETTINGS, threads: '1', memory_limit: '256MB', temp_directory: scratch });
    const c = await instance.connect();
    await c.run(`SET TimeZone = 'UTC'`);
    c.closeSync();
    return instance;
  })();
  converter.catch(() => { converter = undefined; });
  return converter;
}

/** Writes the Parquet file; refused with 503 while too many others are being written. */
export async function exportParquet(job: ParquetExport): Promise<void> {
  const done = await turn();
  let c: DuckDBConnection | undefined;
  const interrupt = () => c?.interrupt();
  try {
    job.signal?.throwIfAborted();
    c = await (await converterInstance()).connect();
    job.signal?.addEventListener('abort', interrupt, { once: true });
    await c.run(exportSql(job));
  } finally {
    job.signal?.removeEventListener('abort', interrupt);
    c?.closeSync();
    done();
  }
}
