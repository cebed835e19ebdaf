// The project's own files, for the suites that read them all (product words, doc citations):
// dependencies, caches and the benchmark's results left out.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const PROJECT_ROOT = join(import.meta.dirname, '../..');

const LEFT_OUT = ['node_modules', 'cache', 'results'];

function filesUnder(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((name) => (LEFT_OUT.includes(name) ? [] : filesUnder(join(path, name))));
}

/** The files under `roots` (paths from the project's root) whose names `extension` matches, as paths from the root. */
export function projectFiles(roots: readonly string[], extension: RegExp): string[] {
  return roots.flatMap((p) => filesUnder(join(PROJECT_ROOT, p))).filter((f) => extension.test(f)).map((f) => relative(PROJECT_ROOT, f));
}
