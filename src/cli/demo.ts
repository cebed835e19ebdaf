// demo: generate the demo events and their reference data (in a worker thread), and load them
// through the normal writer.
import { existsSync } from 'node:fs';
import { GeneratorThread } from '../data/demo/generator-thread.ts';
import { defaultVersionTag, editDatabase } from '../data/load.ts';
import type { PublishedVersion } from '../store/duckdb/writer.ts';
import { progressReporter } from './progress.ts';

export async function createDemoDatabase(dbPath: string, events: number, seed: number): Promise<PublishedVersion[]> {
  if (existsSync(dbPath)) throw new Error(`${dbPath} exists; remove it or choose another --db`);
  const progress = progressReporter('demo', events);
  const generator = new GeneratorThread({ events, seed }, 'row');
  try {
    return await editDatabase(dbPath, async (writer) => {
      let line = 0;
      const documents = async function* () {
        for await (const batch of generator.batches()) for (const doc of batch.docs) yield { line: ++line, doc };
      };
      await writer.stageDocuments(0, `demo(seed ${seed})`, documents(), progress.update);
      const { published } = await writer.publish({ version: defaultVersionTag(), source: `demo --events ${events} --seed ${seed}` });
      const reference = generator.reference();
      await writer.replaceGroups(reference.groups);
      await writer.upsertPorts(reference.ports);
      for (const [dataset, regions] of Object.entries(reference.regions)) await writer.replaceRegions(dataset, regions);
      return published;
    });
  } finally {
    await generator.close();
    progress.done();
  }
}
