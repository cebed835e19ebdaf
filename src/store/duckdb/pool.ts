// A fixed set of DuckDB connections on one instance. DuckDB runs each connection's query on its
// own thread pool; more connections than cores only queue inside the engine, so the pool is small.
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { QueryTimeout } from '../../query/errors.ts';

export class ConnectionPool {
  private readonly idle: DuckDBConnection[] = [];
  private readonly waiting: ((c: DuckDBConnection) => void)[] = [];
  private readonly all: DuckDBConnection[] = [];

  private constructor(private readonly timeoutMs: number) {}

  static async open(instance: DuckDBInstance, size: number, timeoutMs: number): Promise<ConnectionPool> {
    const pool = new ConnectionPool(timeoutMs);
    for (let i = 0; i < size; i++) {
      const c = await instance.connect();
      pool.all.push(c);
      pool.idle.push(c);
    }
    return pool;
  }

  /** A free connection; past the time limit a busy server answers 504 rather than queue for ever. */
  acquire(): Promise<DuckDBConnection> {
    const c = this.idle.pop();
    if (c) return Promise.resolve(c);
    return new Promise((resolve, reject) => {
      const waiter = (conn: DuckDBConnection) => {
        clearTimeout(timer);
        resolve(conn);
      };
      const timer =
        this.timeoutMs > 0
          ? setTimeout(() => {
              this.waiting.splice(this.waiting.indexOf(waiter), 1);
              reject(this.timeoutError());
            }, this.timeoutMs)
          : undefined;
      this.waiting.push(waiter);
    });
  }

  release(c: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) next(c);
    else this.idle.push(c);
  }

  /** Runs fn on a connection; past the time limit the query is interrupted and QueryTimeout thrown. */
  async use<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    const c = await this.acquire();
    let timedOut = false;
    const timer =
      this.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            c.interrupt();
          }, this.timeoutMs)
        : undefined;
    try {
      return await fn(c);
    } catch (e) {
      if (timedOut) throw this.timeoutError();
      throw e;
    } finally {
      clearTimeout(timer);
      this.release(c);
    }
  }

  timeoutError(): QueryTimeout {
    return new QueryTimeout([{ title: 'Query timeout', detail: `the query ran past the configured limit of ${this.timeoutMs} ms; narrow the filters or raise --query-timeout` }]);
  }

  close(): void {
    for (const c of this.all) c.closeSync();
  }
}
