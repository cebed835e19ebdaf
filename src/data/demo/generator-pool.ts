// Runs the demo generator in worker threads, one per core. Making a row costs more CPU than loading
// or writing it, so the threads make shards (generate.ts) at once while the main thread takes them
// in order: the rows and their order are those of demoRows() for a seed, whatever the number of
// threads (docs/performance.md).
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../../workers/start.ts';
import type { EventKind } from '../../domain/kinds.ts';
import { demoShardCount, type DemoReferenceData, type DemoOptions, type RowForm } from './generate.ts';

/**
 * What a thread sends: each row's kind and document, or (for files) each kind's rows already
 * joined as NDJSON and encoded, handed over without a copy, so the main thread only writes them.
 */
export type GeneratorOutput = 'documents' | 'ndjson';

export interface GeneratorRequest {
  options: DemoOptions;
  form: RowForm;
  output: GeneratorOutput;
  batchRows: number;
  credits: number;
  /** The shards this thread makes, in ascending order. */
  shards: number[];
}
export interface DocumentBatch { kinds: EventKind[]; docs: string[] }
export interface NdjsonBatch { rows: number; counts: Partial<Record<EventKind, number>>; lines: Partial<Record<EventKind, Uint8Array>> }
export type GeneratorMessage =
  | ({ type: 'documents' } & DocumentBatch)
  | ({ type: 'ndjson' } & NdjsonBatch)
  | { type: 'shard-end' }
  | { type: 'done'; reference: DemoReferenceData | undefined };

/** Rows per message. */
const BATCH_ROWS = 1000;

/** One worker thread and the messages it sent that the pool has not taken yet. */
class GeneratorWorker {
  readonly queue: GeneratorMessage[] = [];
  failure: Error | undefined;
  finished = false;
  notify: (() => void) | undefined;

  constructor(readonly worker: Worker) {
    worker.on('message', (m: GeneratorMessage) => this.wake(() => this.queue.push(m)));
    worker.on('error', (e) => this.wake(() => (this.failure ??= e)));
    worker.on('exit', (code) => this.wake(() => {
      if (!this.finished && !this.queue.some((m) => m.type === 'done')) this.failure ??= new Error(`a demo generator thread stopped (exit code ${code})`);
    }));
  }

  private wake(change: () => void): void {
    change();
    this.notify?.();
    this.notify = undefined;
  }

  async next(): Promise<GeneratorMessage> {
    for (;;) {
      const message = this.queue.shift();
      if (message) return message;
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.notify = resolve));
    }
  }
}

export class GeneratorPool {
  private readonly workers: GeneratorWorker[];
  private readonly shards: number;
  private referenceData: DemoReferenceData | undefined;

  constructor(options: DemoOptions, form: RowForm, { threads = availableParallelism(), output = 'documents' }: { threads?: number; output?: GeneratorOutput } = {}) {
    // Only the generator's own options cross to the threads (callers may pass callbacks beside them).
    const { events, seed, fromMs, toMs, shardEvents } = options;
    const generatorOptions: DemoOptions = { events, seed, fromMs, toMs, shardEvents };
    this.shards = demoShardCount(generatorOptions);
    const count = Math.max(1, Math.min(threads, this.shards));
    // A thread may make a whole shard ahead while the main thread takes the one before it (from
    // another thread): that keeps every thread busy, and bounds the rows held to a shard per thread.
    const shardRows = Math.ceil(events / this.shards) + 100;
    const credits = Math.ceil(shardRows / BATCH_ROWS) + 8;
    this.workers = Array.from({ length: count }, (_, t) => {
      const shards = Array.from({ length: this.shards }, (_, s) => s).filter((s) => s % count === t);
      const request: GeneratorRequest = { options: generatorOptions, form, output, batchRows: BATCH_ROWS, credits, shards };
      return new GeneratorWorker(startWorker(siblingModule(import.meta.url, 'generator-worker'), request));
    });
  }

  /** The rows in generation order, a batch at a time: each row's kind and its JSON document. */
  async *batches(): AsyncGenerator<DocumentBatch> {
    for await (const message of this.messages()) {
      if (message.type !== 'documents') throw new Error('this generator was started for NDJSON batches');
      yield message;
    }
  }

  /** The rows in generation order, a batch at a time, as each kind's NDJSON lines. */
  async *ndjsonBatches(): AsyncGenerator<NdjsonBatch> {
    for await (const message of this.messages()) {
      if (message.type !== 'ndjson') throw new Error('this generator was started for documents');
      yield message;
    }
  }

  private async *messages(): AsyncGenerator<GeneratorMessage & { type: 'documents' | 'ndjson' }> {
    try {
      for (let shard = 0; shard < this.shards; shard++) {
        const worker = this.workers[shard % this.workers.length]!;
        for (;;) {
          const message = await worker.next();
          if (message.type === 'shard-end') break;
          if (message.type === 'done') throw new Error(`a demo generator thread ended before shard ${shard}`);
          worker.worker.postMessage('credit');
          yield message;
        }
      }
      // The thread of shard 0 (the first) sends the reference data; the others end.
      for (const worker of this.workers) {
        const message = await worker.next();
        if (message.type !== 'done') throw new Error('a demo generator thread sent rows after its last shard');
        worker.finished = true;
        this.referenceData ??= message.reference;
      }
    } finally {
      await this.close();
    }
  }

  /** Stops the threads still running (a consumer that stopped early, or never started). */
  async close(): Promise<void> {
    await Promise.all(this.workers.filter((w) => !w.finished).map((w) => w.worker.terminate()));
  }

  /** The demo's groups, ports and regions; known once every batch has been read. */
  reference(): DemoReferenceData {
    if (!this.referenceData) throw new Error('the demo reference data comes after the last row');
    return this.referenceData;
  }
}
