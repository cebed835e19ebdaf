// A fixed set of DuckDB connections on one instance. DuckDB runs each connection's query on its
// own thread pool; more connections than cores only queue inside the engine, so the pool is small.
//
// Two lanes: heavy work (counts, pages, statistics) may hold all connections but one, which stays
// for light work (a lookup by id), so a burst of heavy requests cannot make a lookup wait out the
// time limit. Waiting is bounded twice: past the time limit a waiter gets a 504, and past
// `maxWaiting` waiters in its lane a request is refused at once with a 503 and Retry-After.
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { Overloaded, QueryTimeout } from '../../query/errors.ts';
import type { EngineLoad } from '../store.ts';

export type Lane = 'heavy' | 'light';

const closingError = () => new Overloaded([{ title: 'Service Unavailable', detail: 'the server is closing; retry in a moment' }]);

interface Waiter {
  lane: Lane;
  give(c: DuckDBConnection): void;
  refuse(e: Error): void;
}

export interface PoolOptions {
  size: number;
  /** 0 disables the limit. */
  timeoutMs: number;
  maxWaiting: number;
}

export class ConnectionPool {
  private readonly idle: DuckDBConnection[] = [];
  private readonly waiting: Waiter[] = [];
  private readonly all: DuckDBConnection[] = [];
  private readonly heavyHolders = new Set<DuckDBConnection>();
  private closing = false;

  private constructor(private readonly options: PoolOptions) {}

  static async open(instance: DuckDBInstance, options: PoolOptions): Promise<ConnectionPool> {
    const pool = new ConnectionPool(options);
    for (let i = 0; i < options.size; i++) {
      const c = await instance.connect();
      pool.all.push(c);
      pool.idle.push(c);
    }
    return pool;
  }

  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /** Connections in all, in use, and queries waiting for one (the /metrics gauges). */
  stats(): EngineLoad {
    return { size: this.all.length, inUse: this.all.length - this.idle.length, waiting: this.waiting.length };
  }

  private heavyLimit(): number {
    return Math.max(1, this.options.size - 1);
  }

  private canTake(lane: Lane): boolean {
    return this.idle.length > 0 && (lane === 'light' || this.heavyHolders.size < this.heavyLimit());
  }

  private take(lane: Lane): DuckDBConnection {
    const c = this.idle.pop()!;
    if (lane === 'heavy') this.heavyHolders.add(c);
    return c;
  }

  /** A free connection of the lane; past the time limit a 504, past the waiting limit a 503 at once. */
  acquire(lane: Lane): Promise<DuckDBConnection> {
    if (this.closing) return Promise.reject(closingError());
    // Waiters of the other lane cannot take what this one may: they are no queue to wait behind.
    const ahead = this.waiting.filter((w) => w.lane === lane).length;
    if (ahead === 0 && this.canTake(lane)) return Promise.resolve(this.take(lane));
    if (ahead >= this.options.maxWaiting) {
      return Promise.reject(new Overloaded([{ title: 'Service Unavailable', detail: `the server is busy: ${ahead} queries are waiting for the engine; retry in a moment` }]));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        lane,
        give: (c) => {
          clearTimeout(timer);
          resolve(c);
        },
        refuse: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const timer =
        this.options.timeoutMs > 0
          ? setTimeout(() => {
              this.waiting.splice(this.waiting.indexOf(waiter), 1);
              reject(this.timeoutError());
            }, this.options.timeoutMs)
          : undefined;
      this.waiting.push(waiter);
    });
  }

  release(c: DuckDBConnection): void {
    this.heavyHolders.delete(c);
    this.idle.push(c);
    if (this.closing) return;
    // First come first served, within what each lane may take.
    for (let i = 0; i < this.waiting.length && this.idle.length > 0; ) {
      const waiter = this.waiting[i]!;
      if (this.canTake(waiter.lane)) {
        this.waiting.splice(i, 1);
        waiter.give(this.take(waiter.lane));
      } else {
        i++;
      }
    }
  }

  /** Runs fn on a connection; past the time limit the query is interrupted and QueryTimeout thrown. */
  async use<T>(lane: Lane, fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    const c = await this.acquire(lane);
    try {
      return await this.timed(c, () => fn(c));
    } finally {
      this.release(c);
    }
  }

  /** Runs fn on a connection already held, interrupting its query past the time limit. */
  async timed<T>(c: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
    let timedOut = false;
    const timer =
      this.options.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            c.interrupt();
          }, this.options.timeoutMs)
        : undefined;
    try {
      return await fn();
    } catch (e) {
      if (timedOut) throw this.timeoutError();
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  timeoutError(): QueryTimeout {
    return new QueryTimeout([{ title: 'Query timeout', detail: `the query ran past the configured limit of ${this.options.timeoutMs} ms; narrow the filters or raise --query-timeout` }]);
  }

  /**
   * Closes every connection once no query runs on it. Closing a connection while its query runs
   * deadlocks DuckDB (the query, ending, destroys the connection's context while holding its lock),
   * and the process then cannot exit: its thread never returns. So running queries are interrupted
   * and their connections closed as they are given back; one still held after `graceMs` is left
   * open, and so is the instance (the caller learns it from the result).
   */
  async close(graceMs = 5_000): Promise<boolean> {
    this.closing = true;
    for (const w of this.waiting.splice(0)) w.refuse(closingError());
    for (const c of this.all) if (!this.idle.includes(c)) c.interrupt();
    const deadline = Date.now() + graceMs;
    while (this.idle.length < this.all.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const c of this.idle) c.closeSync();
    return this.idle.length === this.all.length;
  }
}
