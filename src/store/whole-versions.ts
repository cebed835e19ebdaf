// The total of a query that reads whole stored versions (no condition but the versions), from the
// catalog's row counts rather than from the engine: DuckDB counts such a query from its statistics
// only when the versions asked for are all it holds (once a compaction and drops left version ids
// 1, 3, 4, 5 and 36, five datasets' count scanned the version column, 39 ms against 0.8), and
// PostgreSQL reads a whole partition's index (the 10M fishing version: 7.2M entries, about 500 ms;
// docs/performance.md, "Updates" and "The PostgreSQL engine at 10M").
import type { EventQuery } from '../query/types.ts';

/**
 * The rows of the query's versions when it reads them whole, or undefined when it has another
 * condition or a version's rows are not known (`storedRows` answers undefined).
 */
export function wholeVersionsCount(query: EventQuery, storedRows: (versionId: number) => number | undefined): number | undefined {
  const [only, ...others] = query.filters.conditions;
  if (others.length > 0 || only?.is !== 'oneOf' || only.field !== 'version') return undefined;
  let rows = 0;
  for (const versionId of new Set(only.values)) {
    const held = storedRows(Number(versionId));
    if (held === undefined) return undefined;
    rows += held;
  }
  return rows;
}
