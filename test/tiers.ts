// Which suites each tier runs (test/run.ts), kept apart so that test/unit/test-tiers.test.ts can
// check that every suite belongs to a tier and that the quick tier starts no command-line process.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const TEST_ROOT = import.meta.dirname;

/** The folders of the quick tier: in-process API, store integration and unit suites. */
export const QUICK_FOLDERS = ['api', 'integration', 'unit'];
/**
 * The folders only the full tier adds: the loader, the generator and migrate on generated files
 * (every quick run loads its fixtures through the loader too), the service under bursts, clients
 * that leave and shutdown, the built command line run as processes, and a browser.
 */
export const FULL_ONLY_FOLDERS = ['data', 'reliability', 'cli', 'browser'];

/** The reliability suites that hold on either engine (closing is the embedded engine's pool). */
const RELIABILITY_ON_BOTH = ['busy-engine', 'dropped-pages'].map((name) => join(TEST_ROOT, 'reliability', `${name}.test.ts`));

/**
 * The API suites the quick tier runs on PostgreSQL: the differential ones, which compare the
 * engine's answers to every filter, area, statistic and update with a reference over seeded random
 * queries. The other API suites check what the HTTP layer decides before or after the store
 * (parameters, errors, limits, documents, the clients' spellings, the formats an entry is written
 * in), or fixed answers (events, exact values, context layers, vessels, insights) that the full tier
 * and CI check on PostgreSQL too; the quick tier runs them on DuckDB alone.
 */
export const QUICK_ON_POSTGRES = [
  // The longest first, so that two files at a time end together.
  'area-differential', 'updates', 'filters-differential', 'stats', 'update-versions',
].map((name) => join(TEST_ROOT, 'api', `${name}.test.ts`));

export function suitesIn(folder: string): string[] {
  return readdirSync(join(TEST_ROOT, folder)).filter((f) => f.endsWith('.test.ts')).sort().map((f) => join(TEST_ROOT, folder, f));
}

/**
 * The suites that take longest on DuckDB (measured with `npm test`'s spec reporter), started first
 * so that the files running at once end together instead of one long suite running alone at the end.
 */
export const LONGEST = [
  'api/updates', 'api/filters-differential', 'integration/store', 'api/stats', 'api/area-differential',
  'integration/point-files', 'integration/region-table', 'integration/stored-order',
].map((name) => join(TEST_ROOT, `${name}.test.ts`));

const longestFirst = (files: string[]) => [...LONGEST.filter((f) => files.includes(f)), ...files.filter((f) => !LONGEST.includes(f))];

/** The suites a tier runs on DuckDB, then on PostgreSQL. */
export function tier(full: boolean): { duckdb: string[]; postgres: string[] } {
  const folders = full ? [...QUICK_FOLDERS, ...FULL_ONLY_FOLDERS] : QUICK_FOLDERS;
  return {
    duckdb: longestFirst(folders.flatMap(suitesIn)),
    postgres: full ? [...suitesIn('api'), ...RELIABILITY_ON_BOTH, join(TEST_ROOT, 'cli', 'postgres-engine.test.ts'), join(TEST_ROOT, 'integration', 'postgres-serving-tables.test.ts'), join(TEST_ROOT, 'integration', 'postgres-copy-pages.test.ts')] : QUICK_ON_POSTGRES,
  };
}
