// A streamed result of stored entries, handed over a DuckDB chunk at a time with a turn of the
// event loop between chunks. Reading a chunk's 2,048 stored entries (about 2 MB) takes a few
// milliseconds (copied in runs of adjacent values, src/store/duckdb/chunk-columns.ts), so /healthz and
// lookups by id never wait long behind a big page.
import type { DuckDBResult } from '@duckdb/node-api';
import { EntryBytes } from '../entry-bytes.ts';
import { blobColumnValues } from './chunk-columns.ts';

export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The stored entry as a BLOB of its UTF-8 bytes and one spare byte (a space), for entryChunks: the
 * driver's copies of a chunk's runs are then the page's bytes as they are sent, each separator
 * written over a spare byte (EntryBytes.spared). `encode`, not a cast, which would read `\x..` in
 * the text as escapes.
 */
export const ENTRY_BYTES_SQL = `encode(entry || ' ')`;

/**
 * A result whose one column is ENTRY_BYTES_SQL, as chunks of entries' bytes (copied out of DuckDB's
 * chunk). The next chunk is asked for as soon as this one is copied, so DuckDB reads and decodes it
 * on its threads while this one is written to the socket.
 */
export async function* entryChunks(result: DuckDBResult): AsyncGenerator<EntryBytes> {
  const fetchNext = () => {
    const fetching = result.fetchChunk();
    // Handled here, thrown where it is awaited: a fetch that fails while the reader is elsewhere is
    // not an unhandled rejection.
    fetching.catch(() => undefined);
    return fetching;
  };
  let next = fetchNext();
  try {
    for (let first = true; ; first = false) {
      const chunk = await next;
      if (!chunk || chunk.rowCount === 0) return;
      const bytes = EntryBytes.spared(blobColumnValues(chunk, 0));
      next = fetchNext();
      if (!first) await nextTurn();
      yield bytes;
    }
  } finally {
    // A reader that stops early leaves a fetch running: the connection is given back once it ends.
    await next.catch(() => undefined);
  }
}

/** A whole result of ENTRY_BYTES_SQL as one EntryBytes, its rows in reverse order (a descending page's batch). */
export async function readEntryBytesReversed(result: DuckDBResult): Promise<EntryBytes> {
  const chunks: EntryBytes[] = [];
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) chunks.push(EntryBytes.spared(blobColumnValues(chunk, 0)));
  return EntryBytes.reversed(chunks);
}
