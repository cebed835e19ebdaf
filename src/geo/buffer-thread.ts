// Buffers run in a worker thread with a deadline (issue: a 4 KB request with a huge buffer held the
// event loop for minutes, /healthz and SIGTERM included). One job runs at a time; a job past its
// deadline ends the worker (a new one starts for the next job) and fails as too costly; a full
// queue fails at once. Results are kept for the most recent shapes, since the same buffered
// region is asked for again and again.
import { createHash } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { siblingModule, startWorker } from '../workers/start.ts';
import type { BufferOperation, BufferUnit } from './buffer.ts';
import type { BufferAnswer, BufferJob } from './buffer-worker.ts';
import type { Polygon } from './geojson.ts';

/** The buffer took longer than the deadline: the geometry is too costly to buffer. */
export class BufferTooCostly extends Error {}
/** Too many buffers are waiting: try again shortly. */
export class BufferQueueFull extends Error {}
/** turf rejected the shape. */
export class BufferFailed extends Error {}

interface Started {
  worker: Worker;
  /** Resolves once the worker has loaded its modules. */
  ready: Promise<void>;
}

interface Waiting {
  job: BufferJob;
  key: string;
  resolve(polygons: Polygon[]): void;
  reject(e: Error): void;
}

export interface BufferThreadOptions {
  deadlineMs?: number | undefined;
  maxWaiting?: number;
  cached?: number;
}

export class BufferThread {
  private worker: Started | undefined;
  private running: Waiting | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private readonly waiting: Waiting[] = [];
  private readonly results = new Map<string, Polygon[]>();
  readonly deadlineMs: number;
  private readonly maxWaiting: number;
  private readonly cached: number;

  constructor(options: BufferThreadOptions = {}) {
    this.deadlineMs = options.deadlineMs ?? 5000;
    this.maxWaiting = options.maxWaiting ?? 16;
    this.cached = options.cached ?? 64;
  }

  buffer(polygons: Polygon[], value: number, unit: BufferUnit, operation: BufferOperation): Promise<Polygon[]> {
    const job = { polygons, value, unit, operation };
    const key = createHash('sha256').update(JSON.stringify(job)).digest('base64url');
    const known = this.results.get(key);
    if (known) {
      // Most recently used last.
      this.results.delete(key);
      this.results.set(key, known);
      return Promise.resolve(known);
    }
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(new BufferQueueFull(`${this.waiting.length} buffers are waiting to be computed`));
    return new Promise((resolve, reject) => {
      this.waiting.push({ job, key, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.running) return;
    const item = this.waiting.shift();
    if (!item) return;
    this.running = item;
    const started = (this.worker ??= this.start());
    void started.ready.then(() => {
      if (this.running !== item) return;
      const { worker } = started;
      this.deadline = setTimeout(() => {
        void worker.terminate();
        if (this.worker === started) this.worker = undefined;
        this.finish(() => item.reject(new BufferTooCostly(`buffering took longer than ${this.deadlineMs / 1000} s`)));
      }, this.deadlineMs);
      worker.once('message', (answer: BufferAnswer) => {
        this.finish(() => {
          if (!answer.ok) return item.reject(new BufferFailed(answer.error));
          this.remember(item.key, answer.polygons);
          item.resolve(answer.polygons);
        });
      });
      worker.postMessage(item.job);
    });
  }

  private start(): Started {
    const worker = startWorker(siblingModule(import.meta.url, 'buffer-worker'), undefined);
    // An idle worker never keeps the process alive.
    worker.unref();
    const started: Started = { worker, ready: new Promise((resolve) => worker.once('message', () => resolve())) };
    worker.on('error', (e) => {
      if (this.worker === started) this.worker = undefined;
      const item = this.running;
      if (item) this.finish(() => item.reject(new BufferFailed(e.message)));
    });
    return started;
  }

  private finish(settle: () => void): void {
    clearTimeout(this.deadline);
    settle();
    this.running = undefined;
    this.next();
  }

  private remember(key: string, polygons: Polygon[]): void {
    this.results.set(key, polygons);
    if (this.results.size > this.cached) this.results.delete(this.results.keys().next().value!);
  }

  async close(): Promise<void> {
    for (const item of this.waiting.splice(0)) item.reject(new BufferFailed('the server is closing'));
    await this.worker?.worker.terminate();
    this.worker = undefined;
  }
}
