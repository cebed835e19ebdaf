// A page's entries as an engine hands them over: UTF-8 bytes in the driver's own buffers, each
// entry with a spare byte for its separator, written to the socket as they are when the page is
// served as stored; or JSON texts, for pages shaped entry by entry (docs/performance.md, "The big
// page in runs").
import type { PageStream, Separator } from './store.ts';

const NEWLINE = 0x0a;

/**
 * Entries' UTF-8 bytes in buffers (pieces) of whole entries, each entry followed by one spare byte
 * where a separator goes. An engine that reads each entry with a byte appended hands its pieces
 * over as they are (`spared`); otherwise they are copied into one (`copy`).
 */
export class EntryBytes {
  private constructor(
    private readonly pieces: readonly Buffer[],
    /** Where each entry of each piece ends (its spare byte). */
    private readonly ends: readonly Uint32Array[],
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
    return new EntryBytes([bytes], [ends]);
  }

  /**
   * Values that already end with their spare byte, laid out back to back in pieces of whole values
   * that belong to the caller (a driver's copies of its runs, src/store/duckdb/chunk-columns.ts): kept as
   * they are, not copied.
   */
  static spared({ pieces, counts, lengths }: { pieces: readonly Uint8Array[]; counts: readonly number[]; lengths: Uint32Array }): EntryBytes {
    const kept: Buffer[] = [];
    const ends: Uint32Array[] = [];
    let value = 0;
    pieces.forEach((piece, p) => {
      const pieceEnds = new Uint32Array(counts[p]!);
      let at = 0;
      for (let k = 0; k < pieceEnds.length; k++, value++) {
        if (lengths[value]! < 1) throw new Error(`value ${value} has no spare byte`);
        at += lengths[value]!;
        pieceEnds[k] = at - 1;
      }
      if (at !== piece.byteLength) throw new Error(`a piece of ${piece.byteLength} bytes held ${at} bytes of values`);
      if (pieceEnds.length === 0) return;
      kept.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
      ends.push(pieceEnds);
    });
    if (value !== lengths.length) throw new Error(`pieces held ${value} of ${lengths.length} values`);
    return new EntryBytes(kept, ends);
  }

  /**
   * Entries each followed by a newline, their spare byte, back to back in a buffer that belongs to
   * the caller (a run of a COPY's lines, src/store/postgres/copy-page.ts): kept as it is.
   */
  static lines(run: Buffer): EntryBytes {
    const ends: number[] = [];
    for (let at = run.indexOf(NEWLINE); at >= 0; at = run.indexOf(NEWLINE, at + 1)) ends.push(at);
    if (ends.length > 0 && ends[ends.length - 1] !== run.length - 1) throw new Error('a run of lines ended inside an entry');
    return new EntryBytes([run], [Uint32Array.from(ends)]);
  }

  /** The entries of several, last entry first (a descending page read in ascending order), copied into one. */
  static reversed(parts: readonly EntryBytes[]): EntryBytes {
    const values: Uint8Array[] = [];
    for (let p = parts.length - 1; p >= 0; p--) {
      const { pieces, ends } = parts[p]!;
      for (let q = pieces.length - 1; q >= 0; q--) {
        const pieceEnds = ends[q]!;
        for (let i = pieceEnds.length - 1; i >= 0; i--) values.push(pieces[q]!.subarray(i === 0 ? 0 : pieceEnds[i - 1]! + 1, pieceEnds[i]));
      }
    }
    return EntryBytes.copy(values);
  }

  get length(): number {
    let n = 0;
    for (const pieceEnds of this.ends) n += pieceEnds.length;
    return n;
  }

  texts(): string[] {
    const out: string[] = [];
    this.pieces.forEach((piece, p) => {
      let from = 0;
      for (const end of this.ends[p]!) {
        out.push(piece.toString('utf8', from, end));
        from = end + 1;
      }
    });
    return out;
  }

  /**
   * The pieces with every entry's spare byte set to the separator, in place (a chunk is read one
   * way, once): their concatenation is the entries, each followed by the separator.
   */
  separated(separator: number): Buffer[] {
    this.pieces.forEach((piece, p) => {
      for (const end of this.ends[p]!) piece[end] = separator;
    });
    return this.pieces.filter((_, p) => this.ends[p]!.length > 0);
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
      // Every entry is followed by the separator, the page's last one too: that one is cut off, so
      // the last buffer is held until the next one (or the end) shows whether it is the last.
      const code = separator.charCodeAt(0);
      let held: Buffer | undefined;
      for await (const chunk of chunks) {
        const buffers = chunk instanceof EntryBytes ? chunk.separated(code) : chunk.length > 0 ? [Buffer.from(chunk.join(separator) + separator, 'utf8')] : [];
        for (const buffer of buffers) {
          if (held) yield held;
          held = buffer;
        }
      }
      if (held) yield held.subarray(0, held.length - 1);
    },
    discard,
  };
}
