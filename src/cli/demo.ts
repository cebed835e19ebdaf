// demo: generate the demo events and their reference data (in worker threads), and load them
// through the normal writer.
import { GeneratorPool } from '../data/demo/generator-pool.ts';
import { defaultVersionTag } from '../data/load-events.ts';
import { databaseHoldsData, describeDatabase, editDatabase, type Database } from '../store/engines.ts';
import type { PublishedVersion } from '../store/writer.ts';
import { progressReporter } from './progress.ts';

export async function createDemoDatabase(database: Database, events: number, seed: number, memoryLimit?: string): Promise<PublishedVersion[]> {
  if (await databaseHoldsData(database)) {
    throw new Error(`${describeDatabase(database)} ${database.engine === 'duckdb' ? 'exists; remove it or choose another --db' : 'holds events already; choose another database'}`);
  }
  const progress = progressReporter('demo', events, 'generating');
  const generator = new GeneratorPool({ events, seed }, 'row');
  try {
    return await editDatabase(database, async (writer) => {
      let line = 0;
      const documents = async function* () {
        for await (const batch of generator.batches()) for (const doc of batch.docs) yield { line: ++line, doc };
      };
      await writer.stageDocuments(0, `demo(seed ${seed})`, documents(), progress.update);
      const { published } = await writer.publish({ version: defaultVersionTag(), source: `demo --events ${events} --seed ${seed}`, onPhase: progress.phase });
      progress.phase('reference data');
      const reference = generator.reference();
      await writer.replaceGroups(reference.groups);
      await writer.upsertPorts(reference.ports);
      for (const [dataset, regions] of Object.entries(reference.regions)) await writer.replaceRegions(dataset, regions);
      await writer.replaceIuuList(reference.iuu);
      await writer.replaceRegistry(reference.registry);
      progress.phase('publishing');
      return published;
    }, memoryLimit ? { memoryLimit } : {});
  } finally {
    await generator.close();
    progress.done();
  }
}
