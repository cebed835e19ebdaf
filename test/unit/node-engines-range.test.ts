// Node 20 is the machine's (and the README's) runtime: every package the lockfile installs must
// declare it supported, or `npm ci` warns and the package may use what Node 20 lacks.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import semver from 'semver';

function* packageDirs(modules: string): Generator<string> {
  if (!existsSync(modules)) return;
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const dirs = name.startsWith('@') ? readdirSync(join(modules, name)).map((n) => join(modules, name, n)) : [join(modules, name)];
    for (const dir of dirs) {
      if (existsSync(join(dir, 'package.json'))) yield dir;
      yield* packageDirs(join(dir, 'node_modules'));
    }
  }
}

test(`every installed package supports this Node (${process.version})`, () => {
  const unsupported: string[] = [];
  let checked = 0;
  for (const dir of packageDirs(join(import.meta.dirname, '../../node_modules'))) {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string; engines?: { node?: string } };
    checked++;
    const range = pkg.engines?.node;
    if (range && semver.validRange(range) && !semver.satisfies(process.version, range)) unsupported.push(`${pkg.name}@${pkg.version} wants node ${range}`);
  }
  assert.ok(checked > 100, `only ${checked} packages found`);
  assert.deepEqual(unsupported, []);
});
