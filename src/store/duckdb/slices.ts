// A streamed result of one text column (stored entries), handed over a DuckDB chunk at a time with
// a turn of the event loop between chunks. Reading a chunk's 2,048 stored texts takes well under a
// millisecond, so /healthz and lookups by id never wait long behind a big page.
import type { DuckDBResult } from '@duckdb/node-api';

export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function* textChunks(result: DuckDBResult): AsyncGenerator<string[]> {
  let first = true;
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    if (!first) await nextTurn();
    first = false;
    yield chunk.getColumnValues(0) as string[];
  }
}
