// demo: generate the demo events and their reference data, and load them through the normal writer.
import { existsSync } from 'node:fs';
import { demoReferenceData, demoRows, DemoWorld } from '../data/demo/generate.ts';
import { defaultVersionTag, editDatabase } from '../data/load.ts';
import type { PublishedVersion } from '../store/duckdb/writer.ts';
import { progressReporter } from './progress.ts';

export async function createDemoDatabase(dbPath: string, events: number, seed: number): Promise<PublishedVersion[]> {
  if (existsSync(dbPath)) throw new Error(`${dbPath} exists; remove it or choose another --db`);
  const progress = progressReporter('demo', events);
  const world = new DemoWorld({ events, seed });
  try {
    return await editDatabase(dbPath, async (writer) => {
      let line = 0;
      const documents = function* () {
        for (const row of demoRows(world, { events, seed })) yield { line: ++line, doc: JSON.stringify(row) };
      };
      await writer.stageDocuments(0, `demo(seed ${seed})`, documents(), progress.update);
      const { published } = await writer.publish({ version: defaultVersionTag(), source: `demo --events ${events} --seed ${seed}` });
      // Read after the rows: the client examples join the fleet as rows are made.
      const reference = demoReferenceData(world);
      await writer.replaceGroups(reference.groups);
      await writer.upsertPorts(reference.ports);
      for (const [dataset, regions] of Object.entries(reference.regions)) await writer.replaceRegions(dataset, regions);
      return published;
    });
  } finally {
    progress.done();
  }
}
