// Rows of a streamed result, converted to JavaScript a slice at a time with a turn of the event loop
// between slices. DuckDB hands over 2,048 rows at once; converting (and then writing) them in one go
// held the thread for tens of milliseconds, and /healthz and lookups by id waited behind every
// chunk of every big page.
import { JSDuckDBValueConverter, type DuckDBResult } from '@duckdb/node-api';

export const SLICE_ROWS = 256;

export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function* convertedSlices(result: DuckDBResult): AsyncGenerator<unknown[][]> {
  let first = true;
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    for (let start = 0; start < chunk.rowCount; start += SLICE_ROWS) {
      if (!first) await nextTurn();
      first = false;
      const rows: unknown[][] = [];
      for (let row = start; row < Math.min(start + SLICE_ROWS, chunk.rowCount); row++) rows.push(chunk.convertRowValues(row, JSDuckDBValueConverter));
      yield rows;
    }
  }
}
