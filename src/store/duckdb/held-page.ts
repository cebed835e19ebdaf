// How a page holds the engine: a page read on a connection of its own keeps it until the page is
// read to its end, its reader stops, or it is discarded unread; a page read whole holds nothing.
import type { DuckDBConnection } from '@duckdb/node-api';
import { pageStream, type EntryChunk } from '../entry-bytes.ts';
import type { PageStream } from '../store.ts';
import type { ConnectionPool } from './pool.ts';

/**
 * A page read on a connection of its own, which it holds until the page is read or discarded. The
 * costly part (the sort, or finding the page) and the first chunk run under the time limit.
 */
export async function heldPageOf<T extends { page: AsyncIterable<EntryChunk> }>(
  pool: ConnectionPool,
  find: (c: DuckDBConnection) => Promise<T>,
): Promise<Omit<T, 'page'> & { page: PageStream }> {
  const connection = await pool.acquire('heavy');
  try {
    const { rest, chunks, first } = await pool.timed(connection, async () => {
      const { page, ...rest } = await find(connection);
      const chunks = page[Symbol.asyncIterator]();
      return { rest, chunks, first: await chunks.next() };
    });
    return { ...rest, page: heldPage(first, chunks, () => pool.release(connection)) };
  } catch (e) {
    pool.release(connection);
    throw e;
  }
}

/** A page already read whole (it holds no engine). */
export function pageOf(entries: EntryChunk): PageStream {
  return pageStream({
    async *[Symbol.asyncIterator]() {
      if (entries.length > 0) yield entries;
    },
  }, async () => {});
}

/**
 * The page's chunks, the first already read; `release` runs once, when the last chunk is read, the
 * reader stops early, or the page is discarded unread.
 */
function heldPage(first: IteratorResult<EntryChunk>, rest: AsyncIterator<EntryChunk>, release: () => void): PageStream {
  let started = false;
  let released = false;
  const releaseOnce = () => {
    if (!released) {
      released = true;
      release();
    }
  };
  return pageStream({
    async *[Symbol.asyncIterator]() {
      started = true;
      let finished = first.done;
      try {
        if (first.done) return;
        yield first.value;
        for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
        finished = true;
      } finally {
        // A reader that stops early (a client gone mid-page) ends the engine's result before the
        // connection serves another query: a result left pending on it stalls the next one.
        if (!finished) await rest.return?.(undefined);
        releaseOnce();
      }
    },
  }, async () => {
    if (started) return;
    started = true;
    if (!first.done) await rest.return?.(undefined);
    releaseOnce();
  });
}
