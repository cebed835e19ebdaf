// A streamed result of stored entries, handed over a DuckDB chunk at a time with a turn of the
// event loop between chunks. Reading a chunk's 2,048 stored entries (about 2 MB) takes a few
// milliseconds (a CPU profile of the big page: about 4 ms, most of it the driver's call per value),
// so /healthz and lookups by id never wait long behind a big page.
import type { DuckDBBlobVector, DuckDBResult } from '@duckdb/node-api';
import { EntryBytes } from '../entry-chunks.ts';

export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The stored entry as a BLOB of its UTF-8 bytes, for entryChunks: `encode`, not a cast, which
 * would read `\x..` in the text as escapes.
 */
export const ENTRY_BYTES_SQL = 'encode(entry)';

/** A result whose one column is ENTRY_BYTES_SQL, as chunks of entries' bytes (copied out of DuckDB's chunk). */
export async function* entryChunks(result: DuckDBResult): AsyncGenerator<EntryBytes> {
  let first = true;
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    if (!first) await nextTurn();
    first = false;
    yield entryBytesOf(chunk.getColumnVector(0) as DuckDBBlobVector, chunk.rowCount);
  }
}

/** A whole result of ENTRY_BYTES_SQL as one EntryBytes, its rows in reverse order (a descending page's batch). */
export async function readEntryBytesReversed(result: DuckDBResult): Promise<EntryBytes> {
  const parts: Uint8Array[] = [];
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const vector = chunk.getColumnVector(0) as DuckDBBlobVector;
    // Short values are views of the chunk's memory: copied before the next chunk is read.
    for (let i = 0; i < chunk.rowCount; i++) parts.push(Buffer.from(vector.getItemBytes(i)!));
  }
  return EntryBytes.copy(parts.reverse());
}

function entryBytesOf(vector: DuckDBBlobVector, rows: number): EntryBytes {
  const parts: Uint8Array[] = new Array(rows);
  for (let i = 0; i < rows; i++) parts[i] = vector.getItemBytes(i)!;
  return EntryBytes.copy(parts);
}
