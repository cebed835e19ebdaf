// Runs the demo generator in a worker thread. Making a row costs more CPU than loading or writing
// it, and the loader's SQL runs on DuckDB's own threads, so generating beside the main thread
// keeps both cores busy (docs/performance.md). The rows and their order are the same as
// demoRows(): one generator, in one thread, for a seed.
import type { Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../../workers/start.ts';
import type { EventKind } from '../../domain/kinds.ts';
import type { DemoReferenceData, DemoOptions, RowForm } from './generate.ts';

export interface GeneratorRequest {
  options: DemoOptions;
  form: RowForm;
  batchRows: number;
  credits: number;
}
export type GeneratorMessage =
  | { type: 'batch'; kinds: string[]; docs: string[] }
  | { type: 'done'; reference: DemoReferenceData };

/** Rows per message, and messages the worker may have in flight before it waits. */
const BATCH_ROWS = 1000;
const CREDITS = 8;

export class GeneratorThread {
  private readonly worker: Worker;
  private readonly queue: GeneratorMessage[] = [];
  private failure: Error | undefined;
  private notify: (() => void) | undefined;
  private referenceData: DemoReferenceData | undefined;

  constructor(options: DemoOptions, form: RowForm) {
    // Only the generator's own options cross to the thread (callers may pass callbacks beside them).
    const { events, seed, fromMs, toMs } = options;
    const request: GeneratorRequest = { options: { events, seed, fromMs, toMs }, form, batchRows: BATCH_ROWS, credits: CREDITS };
    this.worker = startWorker(siblingModule(import.meta.url, 'generator-worker'), request);
    this.worker.on('message', (m: GeneratorMessage) => this.wake(() => this.queue.push(m)));
    this.worker.on('error', (e) => this.wake(() => (this.failure ??= e)));
    this.worker.on('exit', (code) => this.wake(() => {
      if (!this.referenceData && !this.queue.some((m) => m.type === 'done')) this.failure ??= new Error(`the demo generator thread stopped (exit code ${code})`);
    }));
  }

  private wake(change: () => void): void {
    change();
    this.notify?.();
    this.notify = undefined;
  }

  /** The rows in generation order, a batch at a time: each row's kind and its JSON document. */
  async *batches(): AsyncGenerator<{ kinds: EventKind[]; docs: string[] }> {
    try {
      for (;;) {
        const message = this.queue.shift();
        if (!message) {
          if (this.failure) throw this.failure;
          await new Promise<void>((resolve) => (this.notify = resolve));
          continue;
        }
        if (message.type === 'done') {
          this.referenceData = message.reference;
          return;
        }
        this.worker.postMessage('credit');
        yield { kinds: message.kinds as EventKind[], docs: message.docs };
      }
    } finally {
      await this.close();
    }
  }

  /** Stops the worker if it is still running (a consumer that stopped early, or never started). */
  async close(): Promise<void> {
    if (!this.referenceData) await this.worker.terminate();
  }

  /** The demo's groups, ports and regions; known once every batch has been read. */
  reference(): DemoReferenceData {
    if (!this.referenceData) throw new Error('the demo reference data comes after the last row');
    return this.referenceData;
  }
}
