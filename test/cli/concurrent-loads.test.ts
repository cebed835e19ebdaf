// No load may be lost: two loads of one database at once both land (the second waits for the
// first), and a killed load leaves the served database intact, its lock is taken over, and its
// working copy is removed by the next load or by `vessel-events clean`.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { generateDemoRows } from '../../src/data/demo/generate.ts';
import { readAllRecords } from '../helpers/fixture.ts';
import { BIN } from '../helpers/server.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'vessel-events-loads-'));
const cli = (args: string[]) => run(process.execPath, [BIN, ...args], { env: { ...process.env, CI: 'true' } });

function writeRows(name: string, events: number, seed: number, idPrefix: string): string {
  const path = join(dir, name);
  const rows = [...generateDemoRows({ events, seed })].map((r) => JSON.stringify({ ...r, event_id: `${idPrefix}${r['event_id']}` }));
  writeFileSync(path, `${rows.join('\n')}\n`);
  return path;
}

describe('loads into one database', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('two loads at once both land: the second waits for the first, and says so', async () => {
    const db = join(dir, 'both.duckdb');
    const [a, b] = [writeRows('a.ndjson', 3000, 1, 'a'), writeRows('b.ndjson', 3000, 2, 'b')];
    const [first, second] = await Promise.all([cli(['load', '--db', db, '--version', 'vA', a]), cli(['load', '--db', db, '--version', 'vB', b])]);
    assert.match(first.stdout, /public-global-fishing-events:vA\t\d+ entries/);
    assert.match(second.stdout, /public-global-fishing-events:vB\t\d+ entries/);
    assert.match(first.stderr + second.stderr, /waiting for the load by process \d+ \(started .+\) to finish/);
    const versions = (await cli(['versions', 'list', '--db', db])).stdout;
    assert.match(versions, /^public-global-fishing-events:vA\t/m);
    assert.match(versions, /^public-global-fishing-events:vB\t/m);
    // Beside the database only its point files (one per version) remain.
    assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith('both.duckdb.')), ['both.duckdb.points']);
  });

  test('a killed load leaves the served data intact; its lock is taken over and its working copy removed', async () => {
    const db = join(dir, 'killed.duckdb');
    await cli(['load', '--db', db, '--version', 'v1', writeRows('first.ndjson', 500, 3, 'f')]);
    const before = (await readAllRecords(db)).map((r) => r.id).sort();
    const big = writeRows('big.ndjson', 40_000, 4, 'g');

    const load = spawn(process.execPath, [BIN, 'load', '--db', db, '--version', 'v2', big], { env: { ...process.env, CI: 'true' } });
    // Listened for from the start: a load that ends first must fail the assertions, not hang the test.
    const exited = new Promise((r) => load.on('exit', r));
    const working = `${db}.loading-${load.pid}`;
    for (let i = 0; i < 200 && !existsSync(`${working}.scratch`); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(existsSync(working), 'the load never started its working copy');
    load.kill('SIGKILL');
    await exited;
    assert.ok(existsSync(`${db}.lock`) && existsSync(working), 'the kill left nothing behind to clean');

    assert.deepEqual((await readAllRecords(db)).map((r) => r.id).sort(), before);
    const cleaned = await cli(['clean', '--db', db]);
    assert.match(cleaned.stdout, new RegExp(`removed ${working.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `));
    // Beside the database only its point files (one per version) remain.
    assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith('killed.duckdb.')), ['killed.duckdb.points']);

    // The next load takes over a lock whose process is gone.
    load.pid && writeFileSync(`${db}.lock`, JSON.stringify({ pid: load.pid, startedAt: new Date().toISOString() }));
    const next = await cli(['load', '--db', db, '--version', 'v3', writeRows('next.ndjson', 200, 5, 'n')]);
    assert.match(next.stdout, /:v3\t\d+ entries/);
    assert.doesNotMatch(next.stderr, /waiting/);
  });
});
