// A fixed set of DuckDB connections on one instance. DuckDB runs each connection's query on its
// own thread pool; more connections than cores only queue inside the engine, so the pool is small.
//
// Two lanes: heavy work (counts, pages, statistics) may hold all connections but one, which stays
// for light work (a lookup by id), so a burst of heavy requests cannot make a lookup wait out the
// time limit. Waiting is bounded twice: past the time limit a waiter gets a 504, and past
// `maxWaiting` waiters in its lane a request is refused at once with a 503 and Retry-After.
//
// Memory: DuckDB's limit (`--memory-limit`) is shared by every query. A query that reaches it while
// others hold memory waits for one of them to end and runs again, within its own time limit; only
// then is it a 503 that names the limit (EngineOutOfMemory), never a 500.
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { EngineOutOfMemory, Overloaded, QueryTimeout } from '../../query/errors.ts';
import type { EngineLoad } from '../store.ts';
import { endUnreadResult, holdsUnreadResult } from './statements.ts';

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
  /** The engine's memory limit as configured (or DuckDB's own setting), for the message that names it. */
  memoryLimit: string;
}

/** Times a query that ran out of memory runs again after another query ended. */
const MEMORY_RETRIES = 3;
/** How long a query out of memory with no other running waits before it runs once more. */
const ALONE_PAUSE_MS = 100;

/** DuckDB's words for an allocation past its memory limit. */
export function isOutOfMemory(e: unknown): boolean {
  return e instanceof Error && /^Out of Memory Error/.test(e.message);
}

export class ConnectionPool {
  private readonly idle: DuckDBConnection[] = [];
  private readonly waiting: Waiter[] = [];
  private readonly all: DuckDBConnection[] = [];
  private readonly heavyHolders = new Set<DuckDBConnection>();
  private closing = false;
  /** Called, and cleared, whenever a connection becomes idle: queries waiting for memory to be given back. */
  private memoryWaiters: (() => void)[] = [];

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
      return Promise.reject(new Overloaded([{ title: 'Service Unavailable', detail: `the server is busy: ${ahead} ${ahead === 1 ? 'query is' : 'queries are'} waiting for the engine; retry in a moment` }]));
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

  /**
   * Gives a connection back. One whose result was left unread (a client gone mid-page, a page
   * discarded) first ends that result, so the next query finds the engine's memory free; it is idle
   * again once that is done, and the caller does not wait for it.
   */
  release(c: DuckDBConnection): void {
    if (holdsUnreadResult(c) && !this.closing) {
      void endUnreadResult(c).catch(() => undefined).finally(() => this.becomeIdle(c));
      return;
    }
    this.becomeIdle(c);
  }

  private becomeIdle(c: DuckDBConnection): void {
    this.heavyHolders.delete(c);
    this.idle.push(c);
    for (const wake of this.memoryWaiters.splice(0)) wake();
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

  /**
   * Runs fn on a connection already held, interrupting its query past the time limit. fn runs again
   * when it ran out of memory while other queries held some, once one of them has ended.
   */
  async timed<T>(c: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
    let timedOut = false;
    const deadline = this.options.timeoutMs > 0 ? Date.now() + this.options.timeoutMs : Infinity;
    const timer =
      this.options.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            c.interrupt();
          }, this.options.timeoutMs)
        : undefined;
    try {
      for (let retries = 0; ; retries++) {
        try {
          return await fn();
        } catch (e) {
          if (timedOut) throw this.timeoutError();
          if (!isOutOfMemory(e)) throw e;
          const others = this.all.length - this.idle.length - 1;
          if (retries === MEMORY_RETRIES) throw this.outOfMemoryError(others);
          // Alone, it runs once more after a pause: what queries that just ended held may not all
          // be free yet (a dropped page's rounds under a 16 MB limit met this once in 96).
          if (others === 0 && retries === 0 && Date.now() + ALONE_PAUSE_MS < deadline) await new Promise((resolve) => setTimeout(resolve, ALONE_PAUSE_MS));
          else if (!(await this.anotherQueryEnds(deadline))) throw this.outOfMemoryError(others);
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Whether another connection becomes idle (its query ended, what it held given back) before the
   * deadline; false at once when no other query runs, since nothing else will free memory.
   */
  private anotherQueryEnds(deadline: number): Promise<boolean> {
    if (this.all.length - this.idle.length <= 1 || this.closing) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = deadline === Infinity ? undefined : setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
      this.memoryWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** The 503 of a query past the memory limit, `others` queries running beside it. */
  outOfMemoryError(others: number): EngineOutOfMemory {
    const limit = `the engine's memory limit of ${this.options.memoryLimit} (--memory-limit)`;
    const detail = others > 0
      ? `the query reached ${limit} while ${others} other ${others === 1 ? 'query' : 'queries'} held memory; retry in a moment, or raise --memory-limit`
      : `the query alone needs more than ${limit}; narrow its filters, or raise --memory-limit`;
    return new EngineOutOfMemory([{ title: 'Service Unavailable', detail }], 2);
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
