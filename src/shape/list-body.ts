// The list response written as a stream: entries are serialised chunk by chunk as the engine
// produces them, so `limit=99999` never holds the page in memory. If the engine fails mid-way the
// generator throws and the HTTP layer aborts the response: a client never receives a truncated
// page that parses as complete.
import type { EventRecord } from '../data/record.ts';
import type { EntryShape } from '../query/types.ts';
import { toEntry } from './entry.ts';
import { entryShaper } from './shaping.ts';
import type { WireFormat } from './wire.ts';

export interface ListFooter {
  total: number;
  limit: number;
  offset: number;
  metadata: Record<string, unknown>;
}

export async function* streamListBody(
  pages: AsyncIterable<EventRecord[]> | Iterable<EventRecord[]>,
  footer: ListFooter,
  wire: WireFormat,
  shape: EntryShape,
): AsyncGenerator<string> {
  const shaped = entryShaper(shape);
  yield '{"entries":[';
  let first = true;
  for await (const records of pages) {
    // The store hands over small chunks with a turn of the event loop between them (PageStream),
    // so writing one never holds other requests for long.
    let chunk = '';
    for (const r of records) {
      chunk += (first ? '' : ',') + JSON.stringify(shaped(toEntry(r, wire)));
      first = false;
    }
    if (chunk) yield chunk;
  }
  // nextOffset is null on the last page: gfwr loops for ever on a non-null one.
  const next = footer.offset + footer.limit;
  const nextOffset = next < footer.total ? next : null;
  yield `],"total":${footer.total},"limit":${footer.limit},"offset":${footer.offset},"nextOffset":${nextOffset},"metadata":${JSON.stringify(footer.metadata)}}`;
}
