// demo: generate the demo events and load them through the normal loader.
import { existsSync } from 'node:fs';
import { generateDemoRows } from '../data/demo/generate.ts';
import { defaultVersionTag, loadRows } from '../data/load.ts';
import type { PublishedVersion } from '../store/duckdb/writer.ts';
import { progressReporter } from './progress.ts';

export async function createDemoDatabase(dbPath: string, events: number, seed: number): Promise<PublishedVersion[]> {
  if (existsSync(dbPath)) throw new Error(`${dbPath} exists; remove it or choose another --db`);
  const progress = progressReporter('demo', events);
  try {
    const result = await loadRows(generateDemoRows({ events, seed }), `demo(seed ${seed})`, {
      dbPath,
      version: defaultVersionTag(),
      source: `demo --events ${events} --seed ${seed}`,
      onProgress: progress.update,
    });
    return result.published;
  } finally {
    progress.done();
  }
}
