// `npm test`: the suites on DuckDB, three test files at a time, then the engine's suites again on
// PostgreSQL (test/run-postgres.ts). Two tiers (test/tiers.ts), chosen by test/helpers/size.ts:
//
// - quick (`npm test`): unit, store integration and API suites at their quick sizes; on
//   PostgreSQL, the differential API suites (filters, areas, statistics, updates).
// - full (`npm run test:full`, and CI): every suite at full size, adding the loader's and the
//   generator's own suites (test/data/), the service under bursts, dropped clients and shutdown
//   (test/reliability/), those that run the built command line as processes (test/cli/) and a
//   browser (test/browser/), and on PostgreSQL every API and reliability suite and the engine
//   through the command line.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { FULL } from './helpers/size.ts';
import { TEST_ROOT, tier } from './tiers.ts';

const suites = tier(FULL);

function run(args: string[]): number {
  return spawnSync(process.execPath, ['--import', 'tsx', ...args], { stdio: 'inherit' }).status ?? 1;
}

console.log(`${FULL ? 'full' : 'quick'} tier: ${suites.duckdb.length} suites on DuckDB, then ${suites.postgres.length} on PostgreSQL${FULL ? '' : ' ("npm run test:full" runs every suite at full size)'}`);
const duckdb = run(['--test', '--test-concurrency=3', '--test-reporter=spec', ...suites.duckdb]);
const postgres = run([join(TEST_ROOT, 'run-postgres.ts'), ...suites.postgres]);
process.exit(duckdb || postgres);
