// How large a sort a load lets DuckDB spill: a version's rows are sorted in ranges of about
// SORT_RANGE_ROWS, each range a scan of the version's rows and a sort of its own, written one after
// another (docs/performance.md, "How the loader stays within disk").

/**
 * Rows a sort takes at most, about: spilled, a row with its entry took about 1.2 KB, so a version
 * sorted whole took 8.6 GB of disk beside the database at 10M events (five times that at 50M), and
 * a range 2.4 GB at most.
 */
export const SORT_RANGE_ROWS = 2_000_000;

/** How many ranges a version of `rows` is sorted in. */
export function sortRanges(rows: number, rangeRows = SORT_RANGE_ROWS): number {
  return Math.max(1, Math.ceil(rows / rangeRows));
}

const KEYS = 2n ** 64n;

/**
 * The condition of range `i` of `ranges` equal ranges of an unsigned 64-bit key (a hash, spread
 * evenly): its lower bound included, its upper bound excluded, the last one open.
 */
export function keyRange(key: string, i: number, ranges: number): string {
  const bound = (j: number) => `${(KEYS * BigInt(j)) / BigInt(ranges)}::UBIGINT`;
  const conditions = [i > 0 ? `${key} >= ${bound(i)}` : undefined, i < ranges - 1 ? `${key} < ${bound(i + 1)}` : undefined].filter(Boolean);
  return conditions.length > 0 ? conditions.join(' AND ') : 'true';
}
