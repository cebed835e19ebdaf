// Every suite belongs to a tier of test/run.ts, and the quick tier starts no command-line process:
// a suite that runs the built command line belongs in test/cli/, which the full tier runs.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { QUICK_ON_POSTGRES, FULL_ONLY_FOLDERS, LONGEST, QUICK_FOLDERS, suitesIn, TEST_ROOT, tier } from '../tiers.ts';

test('every folder holding suites is run by a tier, and the full tier runs every suite', () => {
  const folders = readdirSync(TEST_ROOT, { withFileTypes: true }).filter((d) => d.isDirectory() && suitesIn(d.name).length > 0).map((d) => d.name);
  assert.deepEqual(folders.sort(), [...QUICK_FOLDERS, ...FULL_ONLY_FOLDERS].sort());
  assert.deepEqual([...tier(true).duckdb].sort(), folders.flatMap(suitesIn).sort());
  for (const file of LONGEST) assert.ok(existsSync(file), `${file}, named to start first, is missing`);
});

test('the quick tier runs no suite that starts the built command line', () => {
  // The command line and a served process are started through test/helpers/server.ts.
  const starters = tier(false).duckdb.filter((file) => /^import \{[^}]*\b(BIN|startServer)\b[^}]*\} from '\.\.\/helpers\/server\.ts'/m.test(readFileSync(file, 'utf8')));
  assert.deepEqual(starters.map((f) => f.slice(TEST_ROOT.length + 1)), []);
});

test('the suites the quick tier runs on PostgreSQL exist and are API suites', () => {
  for (const file of QUICK_ON_POSTGRES) assert.ok(existsSync(file) && file.startsWith(join(TEST_ROOT, 'api')), file);
  assert.ok(tier(false).postgres.every((f) => tier(true).postgres.includes(f)));
});
