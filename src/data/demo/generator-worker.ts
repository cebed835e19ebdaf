// A demo generator thread (started by generator-pool.ts): it makes its shards in order, writes each
// row as a JSON document and posts them in batches, each shard closed by a marker, while the main
// thread loads or writes them. It waits for credit before each batch, so a slow consumer bounds
// the rows in flight.
import { parentPort, workerData } from 'node:worker_threads';
import { demoReferenceData, demoShardRows, DemoWorld, serializeRow } from './generate.ts';
import type { GeneratorRequest, GeneratorMessage } from './generator-pool.ts';

const port = parentPort!;
const { options, form, batchRows, credits: initialCredits, shards } = workerData as GeneratorRequest;
let credits = initialCredits;
let wake: (() => void) | undefined;
port.on('message', () => {
  credits++;
  wake?.();
  wake = undefined;
});
const post = (message: GeneratorMessage) => port.postMessage(message);

const world = new DemoWorld(options);
let kinds: string[] = [];
let docs: string[] = [];
async function send(): Promise<void> {
  if (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  credits--;
  post({ type: 'batch', kinds, docs });
  kinds = [];
  docs = [];
}
for (const shard of shards) {
  for (const row of demoShardRows(world, options, shard)) {
    kinds.push(row['event_type'] as string);
    docs.push(serializeRow(row, form));
    if (docs.length === batchRows) await send();
  }
  if (docs.length > 0) await send();
  post({ type: 'shard-end' });
}
// Read after the rows: the client examples join the fleet as rows are made.
post({ type: 'done', reference: demoReferenceData(world) });
port.close();
