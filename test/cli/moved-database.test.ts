// A database copied without its point files (`<db>.points/`) is served with the same answers, many
// times slower; the server says so, on /readyz and in its log, with the command that writes them
// again, and says nothing once `vessel-events migrate` has.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { buildFixtureDb, startTestApp, type Fixture } from '../helpers/fixture.ts';
import { BIN } from '../helpers/server.ts';

const run = promisify(execFile);

describe('a database copied without its point files', () => {
  let fixture: Fixture;
  let copied: Fixture;
  before(async () => {
    fixture = await buildFixtureDb({ events: 3000, seed: 7 });
    const path = join(fixture.dir, 'copied.duckdb');
    // As a user copies a database to a replica: the file alone.
    copyFileSync(fixture.dbPath, path);
    copied = { ...fixture, dbPath: path, database: { engine: 'duckdb', path }, cleanup: async () => {} };
  });
  after(() => fixture.cleanup());

  test('answers as the original does, and /readyz names each version without its point file and the command that writes it', async () => {
    assert.equal(existsSync(`${copied.dbPath}.points`), false);
    const [original, moved] = [await startTestApp({ fixture }), await startTestApp({ fixture: copied })];
    try {
      const record = fixture.records.find((r) => r.kind === 'port_visit')!;
      const path = `/v3/events/${record.id}?dataset=public-global-port-visits-events:latest`;
      assert.equal((await moved.app.inject({ url: path, headers: moved.auth })).body, (await original.app.inject({ url: path, headers: original.auth })).body);

      assert.equal((await original.app.inject({ url: '/readyz' })).json().warnings, undefined);
      const ready = (await moved.app.inject({ url: '/readyz' })).json() as { status: string; datasets: { dataset: string }[]; warnings: string[] };
      assert.equal(ready.status, 'ready');
      assert.equal(ready.warnings.length, ready.datasets.length);
      for (const { dataset } of ready.datasets) {
        const warning = ready.warnings.find((w) => w.startsWith(`${dataset}: its point file `))!;
        assert.ok(warning, dataset);
        assert.match(warning, /is missing, so its lookups by id and vessel histories read the tables, many times slower; write its point files again with "vessel-events migrate --db .*copied\.duckdb"$/);
      }
    } finally {
      await moved.close();
      await original.close();
    }
  });

  test('serve says so in its log when it starts, at its default level', async () => {
    const server = spawn(process.execPath, [BIN, 'serve', '--db', copied.dbPath, '--port', '0', '--tokens', join(fixture.dir, 'moved-tokens.json')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    server.stdout.on('data', (d: Buffer) => (out += d));
    server.stderr.on('data', (d: Buffer) => (out += d));
    try {
      // The log is written apart from the "serving" line: both are waited for, the five versions' warnings and that line.
      const warnings = () => out.split('\n').filter((line) => line.includes('write its point files again with'));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no five warnings and "serving" within 30 s: ${out}`)), 30_000);
        server.stdout.on('data', () => {
          if (out.includes('serving http') && warnings().filter((w) => w.endsWith('}')).length === 5) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      for (const line of warnings()) assert.equal((JSON.parse(line) as { level: number }).level, 50);
    } finally {
      server.kill('SIGKILL');
      await once(server, 'exit');
    }
  });

  test('after the command the warnings name, the database is served with its point files and no warning', async () => {
    await run(process.execPath, [BIN, 'migrate', '--db', copied.dbPath]);
    const moved = await startTestApp({ fixture: copied });
    try {
      assert.equal(moved.store.storageWarnings().length, 0);
      assert.equal((await moved.app.inject({ url: '/readyz' })).json().warnings, undefined);
    } finally {
      await moved.close();
    }
  });
});
