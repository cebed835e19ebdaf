// Columns of a DuckDB result chunk as typed arrays, for loops over many rows. The driver's
// `getItem` costs 60-80 ns a value (a validity check and a call) and `chunk.rowCount` is a call into
// the driver each time it is read; a typed array costs neither (80,000 doubles summed in 0.1 ms
// against 4.7-7.2 with getItem; docs/performance.md, "Polygons: the exact test in TypeScript").
// For columns without NULLs only: a NULL's slot holds whatever the chunk holds there.
import { DuckDBBlobVector, DuckDBDoubleVector, DuckDBIntegerVector, DuckDBUIntegerVector, type DuckDBDataChunk } from '@duckdb/node-api';
import bindings from '@duckdb/node-bindings';

type NumberVector = DuckDBIntegerVector | DuckDBUIntegerVector | DuckDBDoubleVector;
type NumberArray = Int32Array | Uint32Array | Float64Array;

export function int32Column(chunk: DuckDBDataChunk, column: number): Int32Array {
  return heldArray(vectorOf(chunk, column, DuckDBIntegerVector, 'INTEGER'), Int32Array);
}

export function uint32Column(chunk: DuckDBDataChunk, column: number): Uint32Array {
  return heldArray(vectorOf(chunk, column, DuckDBUIntegerVector, 'UINTEGER'), Uint32Array);
}

export function float64Column(chunk: DuckDBDataChunk, column: number): Float64Array {
  return heldArray(vectorOf(chunk, column, DuckDBDoubleVector, 'DOUBLE'), Float64Array);
}

function vectorOf<V extends NumberVector>(chunk: DuckDBDataChunk, column: number, type: abstract new (...args: never[]) => V, name: string): V {
  const vector = chunk.getColumnVector(column);
  if (!(vector instanceof type)) throw new Error(`column ${column} is not of type ${name}`);
  return vector;
}

/**
 * A vector's values as the typed array the driver holds them in (its `items`, a view of the chunk).
 * The driver declares the field private, so a version without it falls back to `getItem`;
 * test/unit/chunk-columns.test.ts checks that the driver installed still has it.
 */
export function heldArray<A extends NumberArray>(vector: NumberVector, type: { new (length: number): A; from(values: Iterable<number>): A }): A {
  const items = (vector as unknown as { items?: unknown }).items;
  if (items instanceof type && items.length === vector.itemCount) return items as A;
  return type.from(Array.from({ length: vector.itemCount }, (_, i) => vector.getItem(i) ?? Number.NaN));
}

/** A BLOB column's values back to back in pieces, how many whole values each piece holds, and each value's length. */
export interface BlobValues {
  pieces: Uint8Array[];
  counts: number[];
  lengths: Uint32Array;
}

/**
 * The bytes of every value of a BLOB column without NULLs, copied out of the chunk. The driver
 * copies each value longer than 12 bytes with a call of its own (`getItemBytes`: about 0.8 µs and a
 * fresh ArrayBuffer for the GC to sweep per value; 99,999 stored entries cost about 80 ms of calls
 * and more of GC). DuckDB lays most of a chunk's values out back to back, so here one call copies
 * each run of adjacent values: 441 calls for those 99,999 entries (docs/performance.md, "The big
 * page in runs"). A value is 16 bytes in the vector: its length, then 12 bytes inline, or a 4-byte
 * prefix and a pointer. Every piece is a copy, the caller's to keep.
 */
export function blobColumnValues(chunk: DuckDBDataChunk, column: number): BlobValues {
  const vector = chunk.getColumnVector(column);
  if (!(vector instanceof DuckDBBlobVector)) throw new Error(`column ${column} is not of type BLOB`);
  const rows = vector.itemCount;
  const view = (vector as unknown as { dataView?: unknown }).dataView;
  if (!(view instanceof DataView) || view.byteLength < 16 * rows) {
    // The driver's short values are views of the chunk: copied, like every piece.
    const pieces = Array.from({ length: rows }, (_, i) => {
      const bytes = vector.getItemBytes(i)!;
      return bytes.byteLength <= 12 ? bytes.slice() : bytes;
    });
    return { pieces, counts: pieces.map(() => 1), lengths: Uint32Array.from(pieces, (piece) => piece.byteLength) };
  }
  const pieces: Uint8Array[] = [];
  const counts: number[] = [];
  const lengths = new Uint32Array(rows);
  let i = 0;
  while (i < rows) {
    const length = (lengths[i] = view.getUint32(16 * i, true));
    if (length <= 12) {
      // Held in the vector itself: copied, as runs are, so that no piece is a view of the chunk.
      pieces.push(new Uint8Array(view.buffer, view.byteOffset + 16 * i + 4, length).slice());
      counts.push(1);
      i++;
      continue;
    }
    // The run: values whose bytes start where the previous one's end (addresses below 2^53 are exact as doubles).
    const first = i;
    let runBytes = length;
    let end = pointerAt(view, first) + length;
    for (i++; i < rows; i++) {
      const next = view.getUint32(16 * i, true);
      if (next <= 12 || pointerAt(view, i) !== end) break;
      lengths[i] = next;
      runBytes += next;
      end += next;
    }
    pieces.push(bindings.get_data_from_pointer(view.buffer as ArrayBuffer, view.byteOffset + 16 * first + 8, runBytes));
    counts.push(i - first);
  }
  return { pieces, counts, lengths };
}

function pointerAt(view: DataView, row: number): number {
  return view.getUint32(16 * row + 12, true) * 2 ** 32 + view.getUint32(16 * row + 8, true);
}
