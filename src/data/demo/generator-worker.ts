// A demo generator thread (started by generator-pool.ts): it makes its shards in order, writes each
// row as a JSON document and posts them in batches (as documents, or joined per kind as NDJSON),
// each shard closed by a marker, while the main thread loads or writes them. It waits for credit
// before each batch, so a slow consumer bounds the rows in flight.
import { parentPort, workerData } from 'node:worker_threads';
import { demoReferenceData, demoShardRows, DemoWorld, serializeRow } from './generate.ts';
import type { GeneratorRequest, GeneratorMessage } from './generator-pool.ts';
import type { EventKind } from '../../domain/kinds.ts';

const port = parentPort!;
const { options, form, output, batchRows, credits: initialCredits, shards } = workerData as GeneratorRequest;
let credits = initialCredits;
let wake: (() => void) | undefined;
port.on('message', () => {
  credits++;
  wake?.();
  wake = undefined;
});
const post = (message: GeneratorMessage) => port.postMessage(message);

const world = new DemoWorld(options);
const encoder = new TextEncoder();
let rows = 0;
let kinds: string[] = [];
let docs: string[] = [];
let lines: Partial<Record<string, string>> = {};
let counts: Partial<Record<string, number>> = {};

function add(kind: string, doc: string): void {
  rows++;
  if (output === 'documents') {
    kinds.push(kind);
    docs.push(doc);
    return;
  }
  lines[kind] = `${lines[kind] ?? ''}${doc}\n`;
  counts[kind] = (counts[kind] ?? 0) + 1;
}

async function send(): Promise<void> {
  if (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  credits--;
  if (output === 'documents') {
    post({ type: 'documents', kinds: kinds as EventKind[], docs });
  } else {
    // Encoded here, each kind in a buffer of its own, and transferred rather than copied.
    const encoded = Object.fromEntries(Object.entries(lines).map(([kind, text]) => [kind, encoder.encode(text)]));
    port.postMessage({ type: 'ndjson', rows, counts, lines: encoded } satisfies GeneratorMessage, Object.values(encoded).map((bytes) => bytes.buffer));
  }
  rows = 0;
  kinds = [];
  docs = [];
  lines = {};
  counts = {};
}

for (const shard of shards) {
  for (const row of demoShardRows(world, options, shard)) {
    add(row['event_type'] as string, serializeRow(row, form));
    if (rows === batchRows) await send();
  }
  if (rows > 0) await send();
  post({ type: 'shard-end' });
}
// Read after the rows: the client examples join the fleet as rows are made. Every thread's world is
// the same by then, so only the thread of shard 0 builds and sends it (about 0.9 MB of ports and
// region geometries).
post({ type: 'done', reference: shards.includes(0) ? demoReferenceData(world) : undefined });
port.close();
