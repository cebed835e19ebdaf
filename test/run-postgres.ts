// The API and store suites again, on the PostgreSQL engine: starts a cluster of its own in a
// temporary directory (test/helpers/postgres.ts), runs the suites with
// VESSEL_EVENTS_TEST_ENGINE=postgres (test/helpers/fixture.ts loads each fixture into PostgreSQL
// with the project's loader), and removes the cluster whatever happens. Arguments replace the
// default list of test files (the full tier's, test/tiers.ts). Where PostgreSQL is not installed,
// it says how to install it and fails under CI; elsewhere it reports the suites as not run.
import { spawnSync } from 'node:child_process';
import { postgresMissing, startCluster } from './helpers/postgres.ts';
import { tier } from './tiers.ts';

const files = process.argv.slice(2).length ? process.argv.slice(2) : tier(true).postgres;

const missing = postgresMissing();
if (missing) {
  console.error(`PostgreSQL suites not run: ${missing}`);
  process.exit(process.env.CI ? 1 : 0);
}

const cluster = await startCluster();
// Stopped however the run ends: an interrupted run (Ctrl-C, a CI timeout) left clusters running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => { cluster.stop(); process.exit(1); });
let status = 1;
try {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
    { stdio: 'inherit', env: { ...process.env, VESSEL_EVENTS_TEST_ENGINE: 'postgres', VESSEL_EVENTS_TEST_DATABASE_URL: cluster.url } },
  );
  status = result.status ?? 1;
} finally {
  cluster.stop();
}
process.exit(status);
