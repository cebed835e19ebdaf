// Where a run writes its results: bench/results/<name>.json (and .md), or <name>-2, -3... when a
// run of the same name is there already, so a second run never overwrites the first.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const RESULTS_DIR = join(import.meta.dirname, 'results');

/** The first free results stem for `name` (no extension): its .json and .md are both unused. */
export function freeResultsStem(name: string): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  for (let n = 1; ; n++) {
    const stem = join(RESULTS_DIR, n === 1 ? name : `${name}-${n}`);
    if (!existsSync(`${stem}.json`) && !existsSync(`${stem}.md`)) return stem;
  }
}
