// Columns of a DuckDB result chunk as typed arrays, for loops over many rows. The driver's
// `getItem` costs 60-80 ns a value (a validity check and a call) and `chunk.rowCount` is a call into
// the driver each time it is read; a typed array costs neither (80,000 doubles summed in 0.1 ms
// against 4.7-7.2 with getItem; docs/performance.md, "Polygons: the exact test in TypeScript").
// For columns without NULLs only: a NULL's slot holds whatever the chunk holds there.
import { DuckDBDoubleVector, DuckDBIntegerVector, DuckDBUIntegerVector, type DuckDBDataChunk } from '@duckdb/node-api';

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
 * test/unit/vectors.test.ts checks that the driver installed still has it.
 */
export function heldArray<A extends NumberArray>(vector: NumberVector, type: { new (length: number): A; from(values: Iterable<number>): A }): A {
  const items = (vector as unknown as { items?: unknown }).items;
  if (items instanceof type && items.length === vector.itemCount) return items as A;
  return type.from(Array.from({ length: vector.itemCount }, (_, i) => vector.getItem(i) ?? Number.NaN));
}
