// The list response written as a stream: entries are serialised chunk by chunk as the engine
// produces them, so `limit=99999` never holds the page in memory. If the engine fails mid-way the
// generator throws and the HTTP layer aborts the response: a client never receives a truncated
// page that parses as complete.
import type { EntryShape } from '../query/types.ts';
import { entryTextShaper } from './shaping.ts';
import { EVENT_KINDS, type EventKind } from '../domain/kinds.ts';
import type { WireFormat } from './wire.ts';

export interface ListFooter {
  total: number;
  limit: number;
  offset: number;
  metadata: Record<string, unknown>;
}

/**
 * `pages` holds whole entries as stored JSON texts (`gfw`): the body is their concatenation. The
 * `spec` wire format is rewritten in those bytes (spec-bytes.ts); only a request that asks for
 * another form (summary, includes, include-regions=false) parses and reshapes each entry.
 */
export async function* streamListBody(pages: EntryPages, footer: ListFooter, wire: WireFormat, shape: EntryShape, kinds: readonly EventKind[] = EVENT_KINDS): AsyncGenerator<string | Buffer> {
  const shaped = entryTextShaper(shape, wire, kinds);
  yield '{"entries":[';
  if ((!shaped || shaped.bytes) && joinable(pages)) {
    // Written as stored: the engine's bytes, with no string made of any entry; in the spec wire
    // format rewritten in them.
    for await (const bytes of pages.joined(',')) if (bytes.length > 0) yield shaped?.bytes ? shaped.bytes(bytes) : bytes;
  } else {
    let first = true;
    for await (const entries of pages) {
      // The store hands over small chunks with a turn of the event loop between them (PageStream),
      // so writing one never holds other requests for long.
      if (entries.length === 0) continue;
      const texts = shaped ? entries.map(shaped.text) : entries;
      yield (first ? '' : ',') + texts.join(',');
      first = false;
    }
  }
  yield `],${footerMembers(footer)}}`;
}

/** A page's chunks of stored texts; the store's pages (PageStream) can also be read as joined bytes. */
export type EntryPages = AsyncIterable<string[]> | Iterable<string[]> | JoinablePages;
interface JoinablePages extends AsyncIterable<string[]> {
  /** The page's entries joined by the separator, in buffers whose concatenation is the whole. */
  joined(separator: ',' | '\n'): AsyncIterable<Buffer>;
}

export function joinable(pages: EntryPages): pages is JoinablePages {
  return typeof (pages as Partial<JoinablePages>).joined === 'function';
}

/** The offset of the next page; null on the last page: gfwr loops for ever on a non-null one. */
export function nextOffsetOf(footer: ListFooter): number | null {
  const next = footer.offset + footer.limit;
  return next < footer.total ? next : null;
}

/** `"total":...,"limit":...,"offset":...,"nextOffset":...,"metadata":{...}`: the members after the entries. */
export function footerMembers(footer: ListFooter): string {
  return `"total":${footer.total},"limit":${footer.limit},"offset":${footer.offset},"nextOffset":${nextOffsetOf(footer)},"metadata":${JSON.stringify(footer.metadata)}`;
}
