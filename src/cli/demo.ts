// demo: generate the demo events and load them through the normal loader.
import { existsSync } from 'node:fs';
import { generateDemoRows } from '../data/demo/generate.ts';
import { defaultVersionTag, loadRows } from '../data/load.ts';
import type { SourceRow } from '../data/ndjson.ts';
import type { PublishedVersion } from '../store/duckdb/writer.ts';
import { progressReporter } from './progress.ts';

export async function createDemoDatabase(dbPath: string, events: number, seed: number): Promise<PublishedVersion[]> {
  if (existsSync(dbPath)) throw new Error(`${dbPath} exists; remove it or choose another --db`);
  async function* rows(): AsyncGenerator<SourceRow> {
    let line = 0;
    for (const row of generateDemoRows({ events, seed })) yield { file: `demo(seed ${seed})`, line: ++line, row };
  }
  const progress = progressReporter('demo', events);
  try {
    return await loadRows(rows(), { dbPath, version: defaultVersionTag(), source: `demo --events ${events} --seed ${seed}`, onProgress: progress.update });
  } finally {
    progress.done();
  }
}
