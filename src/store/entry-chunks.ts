// A page's entries as an engine hands them over: JSON texts, or their UTF-8 bytes. A page written
// as stored (no `includes` to apply) needs bytes only: read from DuckDB as bytes and written to the
// socket as they are, 99,999 entries took about 235 ms against 330 for a JS string per entry, the
// page joined as a string and encoded again for the socket (docs/performance.md, "The big page as
// bytes"). Texts remain for the pages that are shaped entry by entry.
import type { PageStream, Separator } from './store.ts';

/** Entries' UTF-8 bytes in one buffer, each followed by one spare byte where a separator goes. */
export class EntryBytes {
  private constructor(
    private readonly bytes: Buffer,
    /** Where each entry ends (its spare byte). */
    private readonly ends: Uint32Array,
  ) {}

  /** Copies the entries' bytes: an engine's buffers may belong to a chunk it frees. */
  static copy(parts: readonly Uint8Array[]): EntryBytes {
    let size = 0;
    for (const part of parts) size += part.byteLength + 1;
    const bytes = Buffer.allocUnsafe(size);
    const ends = new Uint32Array(parts.length);
    let at = 0;
    parts.forEach((part, i) => {
      bytes.set(part, at);
      at += part.byteLength;
      ends[i] = at++;
    });
    return new EntryBytes(bytes, ends);
  }

  /** Copies values laid out back to back in pieces (each piece whole values), as a driver hands them over in runs. */
  static copyValues({ pieces, counts, lengths }: { pieces: readonly Uint8Array[]; counts: readonly number[]; lengths: Uint32Array }): EntryBytes {
    let size = lengths.length;
    for (const length of lengths) size += length;
    const bytes = Buffer.allocUnsafe(size);
    const ends = new Uint32Array(lengths.length);
    let at = 0;
    let value = 0;
    pieces.forEach((piece, p) => {
      const source = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
      let from = 0;
      for (const last = value + counts[p]!; value < last; value++) {
        const to = from + lengths[value]!;
        source.copy(bytes, at, from, to);
        at += to - from;
        ends[value] = at++;
        from = to;
      }
      if (from !== piece.byteLength) throw new Error(`a piece of ${piece.byteLength} bytes held ${from} bytes of values`);
    });
    if (value !== lengths.length) throw new Error(`pieces held ${value} of ${lengths.length} values`);
    return new EntryBytes(bytes, ends);
  }

  /** The entries of several, last entry first (a descending page read in ascending order). */
  static reversed(parts: readonly EntryBytes[]): EntryBytes {
    const values: Uint8Array[] = [];
    for (let p = parts.length - 1; p >= 0; p--) {
      const { bytes, ends } = parts[p]!;
      for (let i = ends.length - 1; i >= 0; i--) values.push(bytes.subarray(i === 0 ? 0 : ends[i - 1]! + 1, ends[i]));
    }
    return EntryBytes.copy(values);
  }

  get length(): number {
    return this.ends.length;
  }

  texts(): string[] {
    let from = 0;
    return Array.from(this.ends, (end) => {
      const text = this.bytes.toString('utf8', from, end);
      from = end + 1;
      return text;
    });
  }

  /** The entries joined by a one-byte separator, in place (a chunk is read one way, once). */
  joined(separator: number): Buffer {
    const last = this.ends.length - 1;
    for (let i = 0; i < last; i++) this.bytes[this.ends[i]!] = separator;
    return this.bytes.subarray(0, last < 0 ? 0 : this.ends[last]!);
  }
}

export type EntryChunk = readonly string[] | EntryBytes;

/**
 * A PageStream over an engine's chunks, read as texts or as joined bytes (one of the two, once).
 * `discard` gives the engine back when the page is never read.
 */
export function pageStream(chunks: AsyncIterable<EntryChunk>, discard: () => Promise<void>): PageStream {
  return {
    async *[Symbol.asyncIterator]() {
      for await (const chunk of chunks) yield chunk instanceof EntryBytes ? chunk.texts() : [...chunk];
    },
    async *joined(separator: Separator) {
      const code = separator.charCodeAt(0);
      for await (const chunk of chunks) yield chunk instanceof EntryBytes ? chunk.joined(code) : Buffer.from(chunk.join(separator), 'utf8');
    },
    discard,
  };
}
