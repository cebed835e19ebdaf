// A large page read by `COPY (page) TO STDOUT`: PostgreSQL sends the entries' bytes, one per line,
// and they are handed on as they arrive, with no JS string made of any entry, where a cursor makes
// one per row (pg's protocol reader decodes every field to a string). On the 10M catalogue, a
// million fishing entries: 3.6-4.0 s against 5.0-7.0 by cursor, and the server held some 450 MiB of
// those strings between collections while it wrote a Parquet export (docs/performance.md, "The
// PostgreSQL engine: large pages by COPY").
//
// COPY takes no bound parameters, so the page's parameters are written into it as literals, each
// escaped by pg's escapeLiteral: nowhere else does a request's value become SQL text.
import type pg from 'pg';
import { escapeLiteral } from 'pg';
import copyStreams from 'pg-copy-streams';
import type { Readable } from 'node:stream';
import type { PageStream } from '../store.ts';
import { EntryBytes, pageStream } from '../entry-bytes.ts';
import type { CompiledSql } from './compile.ts';

const NEWLINE = 0x0a;
/** Bytes gathered before whole entries are handed on: fewer, larger writes than the socket's reads. */
const RUN_BYTES = 256 * 1024;

/**
 * A literal the value's parameter would have been: untyped text ('5', '{"a","b"}'), which
 * PostgreSQL types from its place as it types a parameter. Undefined for a value of another kind.
 */
function literal(value: unknown): string | undefined {
  if (value === null) return 'NULL';
  if (typeof value === 'string') return escapeLiteral(value);
  if (typeof value === 'number' && Number.isFinite(value)) return escapeLiteral(String(value));
  if (typeof value === 'bigint' || typeof value === 'boolean') return escapeLiteral(String(value));
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  if (Array.isArray(value)) {
    const elements: string[] = [];
    for (const element of value) {
      if (element === null) elements.push('NULL');
      else if (typeof element === 'string' || (typeof element === 'number' && Number.isFinite(element)) || typeof element === 'bigint') {
        elements.push(`"${String(element).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
      } else return undefined;
    }
    return escapeLiteral(`{${elements.join(',')}}`);
  }
  return undefined;
}

/**
 * The COPY statement of a page whose one column is the entry, or undefined where a parameter has no
 * literal form. Each entry is one line: CSV with a delimiter and a quote that JSON text never holds
 * raw (control characters are escaped in JSON), so no entry is quoted or escaped.
 */
export function copyStatement(page: CompiledSql): string | undefined {
  const literals = page.params.map(literal);
  if (literals.some((l) => l === undefined)) return undefined;
  const sql = page.sql.replace(/\$(\d+)/g, (_, n: string) => literals[Number(n) - 1]!);
  return `COPY (${sql}) TO STDOUT WITH (FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')`;
}

type Copy = Readable & { rowCount: number; handleCommandComplete(message: unknown): void };

/**
 * The rows PostgreSQL says it sent. pg-copy-streams ends the stream at COPY's last data, and learns
 * the count from the message after it, which may come in a later read of the socket: it is awaited.
 */
function rowsSent(copy: Copy): Promise<number> {
  return new Promise((resolve) => {
    const handle = copy.handleCommandComplete.bind(copy);
    copy.handleCommandComplete = (message) => {
      handle(message);
      resolve(copy.rowCount);
    };
  });
}

/**
 * Starts the COPY on the connection and waits for its first bytes (or its end, or its error), so a
 * failing page fails before a response starts, as a cursor's first read does. `release` gives the
 * connection back; with an error the pool discards it (a COPY left unread cannot be stopped).
 */
export async function copyPage(c: pg.ClientBase, statement: string, translate: (e: unknown) => unknown, release: (err?: Error) => void): Promise<PageStream> {
  const copy = c.query(copyStreams.to(statement)) as unknown as Copy;
  const sent = rowsSent(copy);
  const reader = copy[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let first: IteratorResult<Buffer>;
  try {
    first = await reader.next();
  } catch (e) {
    release(e as Error);
    throw translate(e);
  }
  let done = false;
  const finish = (err?: Error) => {
    if (done) return;
    done = true;
    if (err) copy.destroy();
    release(err);
  };

  /** Runs of whole entries, each followed by a newline (its spare byte), in buffers of their own. */
  async function* runs(): AsyncGenerator<EntryBytes> {
    let pending: Buffer[] = [];
    let size = 0;
    let lines = 0;
    let ended = false;
    try {
      for (let next = first; !next.done; next = await reader.next()) {
        pending.push(next.value);
        size += next.value.length;
        if (size < RUN_BYTES) continue;
        const joined = Buffer.concat(pending, size);
        const cut = joined.lastIndexOf(NEWLINE) + 1;
        pending = cut < joined.length ? [joined.subarray(cut)] : [];
        size = joined.length - cut;
        if (cut === 0) continue;
        const run = EntryBytes.lines(joined.subarray(0, cut));
        lines += run.length;
        yield run;
      }
      if (size > 0) {
        const rest = Buffer.concat(pending, size);
        if (rest[rest.length - 1] !== NEWLINE) throw new Error('the COPY of a page ended inside an entry');
        const run = EntryBytes.lines(rest);
        lines += run.length;
        yield run;
      }
      // An entry holding a raw newline would have been split in two: the lines must be the rows.
      const rows = await sent;
      if (lines !== rows) throw new Error(`the COPY of a page sent ${lines} lines for ${rows} rows`);
      ended = true;
    } catch (e) {
      finish(e as Error);
      throw translate(e);
    } finally {
      // A reader that stops early (a client gone) leaves the COPY unread: the connection is dropped.
      finish(ended ? undefined : new Error('the page was not read to its end'));
    }
  }

  return pageStream(runs(), async () => finish(done ? undefined : new Error('the page was never read')));
}
