// The load lock (src/store/duckdb/load-lock.ts): it appears with its holder written; a lock whose
// process is gone is taken over; a lock no one can read (an empty file, as a load killed while
// creating it once left) is waited on while fresh and taken over once old, never waited on for ever.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { LoadLock, STALE_UNREADABLE_MS } from '../../src/store/duckdb/load-lock.ts';

const dir = mkdtempSync(join(tmpdir(), 'vessel-events-lock-'));
const settle = <T>(p: Promise<T>, ms: number) => Promise.race([p.then(() => 'taken' as const), new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms))]);
const age = (path: string, ms: number) => utimesSync(path, new Date(Date.now() - ms), new Date(Date.now() - ms));

describe('the load lock', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('it appears with its holder written, and leaves nothing else beside the database', async () => {
    const db = join(dir, 'a.duckdb');
    const lock = await LoadLock.acquire(db);
    assert.equal((JSON.parse(readFileSync(`${db}.lock`, 'utf8')) as { pid: number }).pid, process.pid);
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('a.duckdb')), ['a.duckdb.lock']);
    lock.release();
    assert.equal(existsSync(`${db}.lock`), false);
  });

  test('a lock whose process is gone is taken over; a live holder is waited on and named', async () => {
    const db = join(dir, 'b.duckdb');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(`${db}.lock`, JSON.stringify({ pid: Number(gone), startedAt: new Date().toISOString() }));
    (await LoadLock.acquire(db, undefined, 20)).release();

    writeFileSync(`${db}.lock`, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }));
    const told: number[] = [];
    const waiting = LoadLock.acquire(db, (holder) => told.push(holder.pid), 20);
    assert.equal(await settle(waiting, 200), 'waiting');
    assert.deepEqual(told, [process.pid]);
    rmSync(`${db}.lock`);
    (await waiting).release();
  });

  test('an empty lock is waited on while fresh and taken over once old', async () => {
    const db = join(dir, 'c.duckdb');
    writeFileSync(`${db}.lock`, '');
    const waiting = LoadLock.acquire(db, undefined, 20);
    assert.equal(await settle(waiting, 200), 'waiting', 'a lock being written is not taken');
    age(`${db}.lock`, STALE_UNREADABLE_MS + 1_000);
    assert.equal(await settle(waiting, 2_000), 'taken');
    (await waiting).release();
  });
});
