// Newline-delimited JSON, one published-events row per line, read as a stream (files may be large).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface SourceRow {
  file: string;
  line: number;
  /** The parsed row, or the parse error's message. */
  row: unknown;
  parseError?: string;
}

export async function* readNdjson(file: string): AsyncGenerator<SourceRow> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    try {
      yield { file, line, row: JSON.parse(text) };
    } catch (e) {
      yield { file, line, row: undefined, parseError: `not valid JSON (${(e as Error).message})` };
    }
  }
}
