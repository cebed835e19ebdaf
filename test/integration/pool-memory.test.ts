// The DuckDB pool and the engine's memory: a connection given back with its result unread ends it
// first, so what its query held is free for the next; a query that runs out of memory while
// others hold some waits for one of them to end and runs again, within its time limit; otherwise
// it is an EngineOutOfMemory that names the limit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { EngineOutOfMemory } from '../../src/query/errors.ts';
import { ConnectionPool } from '../../src/store/duckdb/pool.ts';
import { holdsUnreadResult, readRows, streamRows } from '../../src/store/duckdb/statements.ts';

/** The engine's words when an allocation passes its limit. */
const outOfMemory = () => new Error('Out of Memory Error: failed to allocate data of size 1.0 MiB (487.4 MiB/488.2 MiB used)');

async function orderByBytes(c: Awaited<ReturnType<DuckDBInstance['connect']>>): Promise<number> {
  const rows = await readRows(c, `SELECT coalesce(sum(memory_usage_bytes), 0)::DOUBLE FROM duckdb_memory() WHERE tag = 'ORDER_BY'`, []);
  return rows[0]![0] as number;
}

describe('the pool and the engine\'s memory', () => {
  let instance: DuckDBInstance;
  before(async () => {
    instance = await DuckDBInstance.create(':memory:', { memory_limit: '256MB', threads: '2' });
  });
  after(() => instance.closeSync());

  test('a connection given back with a sorted result unread frees what the sort held before it is idle again', async () => {
    const pool = await ConnectionPool.open(instance, { size: 2, timeoutMs: 0, maxWaiting: 4, memoryLimit: '256MB' });
    const side = await instance.connect();
    try {
      const c = await pool.acquire('heavy');
      const result = await streamRows(c, 'SELECT range AS n, repeat(\'x\', 100) AS pad FROM range(300000) ORDER BY random()', []);
      await result.fetchChunk();
      assert.ok(holdsUnreadResult(c));
      assert.ok((await orderByBytes(side)) > 10 * 2 ** 20, 'the sort holds no memory while its result is read');
      pool.release(c);
      // Idle again only once the result is ended.
      while (pool.stats().inUse > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      assert.equal(holdsUnreadResult(c), false);
      assert.equal(await orderByBytes(side), 0);
    } finally {
      side.closeSync();
      await pool.close();
    }
  });

  test('a result read to its end needs no ending', async () => {
    const pool = await ConnectionPool.open(instance, { size: 2, timeoutMs: 0, maxWaiting: 4, memoryLimit: '256MB' });
    try {
      await pool.use('heavy', async (c) => {
        const result = await streamRows(c, 'SELECT range FROM range(5000) ORDER BY range DESC', []);
        while (((await result.fetchChunk())?.rowCount ?? 0) > 0);
        assert.equal(holdsUnreadResult(c), false);
      });
    } finally {
      await pool.close();
    }
  });

  test('a query out of memory while another runs waits for it to end, then runs again', async () => {
    const pool = await ConnectionPool.open(instance, { size: 3, timeoutMs: 5000, maxWaiting: 4, memoryLimit: '256MB' });
    try {
      const other = await pool.acquire('light');
      let runs = 0;
      const answer = pool.use('heavy', async (c) => {
        runs++;
        if (runs === 1) {
          setTimeout(() => pool.release(other), 50);
          throw outOfMemory();
        }
        return (await readRows(c, 'SELECT 42', []))[0]![0];
      });
      assert.equal(await answer, 42);
      assert.equal(runs, 2);
    } finally {
      await pool.close();
    }
  });

  test('out of memory with no other query running (after one more run), or past the time limit waiting for one, is an EngineOutOfMemory naming the limit', async () => {
    const pool = await ConnectionPool.open(instance, { size: 3, timeoutMs: 200, maxWaiting: 4, memoryLimit: '256MB' });
    try {
      let runs = 0;
      await assert.rejects(pool.use('heavy', async () => {
        runs++;
        throw outOfMemory();
      }), (e: unknown) => e instanceof EngineOutOfMemory && e.retryAfterSeconds === 2 && /the query alone needs more than the engine's memory limit of 256MB \(--memory-limit\)/.test(e.message));
      assert.equal(runs, 2, 'alone, it runs once more after a pause, and no more');

      const other = await pool.acquire('light');
      const started = Date.now();
      await assert.rejects(pool.use('heavy', async () => {
        throw outOfMemory();
      }), (e: unknown) => e instanceof EngineOutOfMemory && /reached the engine's memory limit of 256MB \(--memory-limit\) while 1 other query held memory; retry in a moment/.test(e.message));
      assert.ok(Date.now() - started >= 150, 'did not wait for the other query');
      pool.release(other);
    } finally {
      await pool.close();
    }
  });

  test('other errors are not run again', async () => {
    const pool = await ConnectionPool.open(instance, { size: 2, timeoutMs: 0, maxWaiting: 4, memoryLimit: '256MB' });
    try {
      const other = await pool.acquire('light');
      let runs = 0;
      await assert.rejects(pool.use('heavy', async () => {
        runs++;
        throw new Error('Binder Error: no such column');
      }), /Binder Error/);
      assert.equal(runs, 1);
      pool.release(other);
    } finally {
      await pool.close();
    }
  });
});
