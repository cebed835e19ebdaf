// How large a sort a load lets DuckDB spill: a version's rows are sorted in ranges of about
// SORT_RANGE_ROWS, each range a scan of the version's rows and a sort of its own, written one after
// another (docs/performance.md, "How the loader stays within disk").

/**
 * Rows a sort takes at most, about: spilled, a row with its entry took about 1.2 KB, so a version
 * sorted whole took 8.4 GiB of disk beside the database at 10M events (five times that at 50M), and
 * a range about 2.3 GiB at most.
 */
export const SORT_RANGE_ROWS = 2_000_000;

/** How many ranges a version of `rows` is sorted in. */
export function sortRanges(rows: number, rangeRows = SORT_RANGE_ROWS): number {
  return Math.max(1, Math.ceil(rows / rangeRows));
}

/**
 * The conditions of the ranges a column's ascending `bounds` (SQL literals) cut it into, in order:
 * [-, b1), [b1, b2), ... [bn, -], each lower bound included; rows where the column is NULL sort last,
 * so they go with the last range.
 */
export function rangeConditions(column: string, bounds: readonly string[]): string[] {
  return [...bounds, undefined].map((upper, i) => {
    const lower = i > 0 ? `${column} >= ${bounds[i - 1]}` : undefined;
    if (upper === undefined) return lower ? `(${lower} OR ${column} IS NULL)` : 'true';
    return [lower, `${column} < ${upper}`].filter(Boolean).join(' AND ');
  });
}

const KEYS = 2n ** 64n;

/** The conditions of `ranges` equal ranges of an unsigned 64-bit key (a hash, spread evenly). */
export function keyRanges(key: string, ranges: number): string[] {
  return rangeConditions(key, Array.from({ length: ranges - 1 }, (_, j) => `${(KEYS * BigInt(j + 1)) / BigInt(ranges)}::UBIGINT`));
}
