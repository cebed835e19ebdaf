// What a newcomer meets on the command line: a stray argument is named, options npm kept for
// itself are taken or refused with the form that works, `start` keeps its token on screen,
// `load --dataset` takes dataset ids, `regions list --name` ignores accents and says when nothing
// matches, and counts read "1 entry".
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { generateDemoRows } from '../../src/data/demo/generate.ts';
import { BIN } from '../helpers/server.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'vessel-events-cli-usage-'));
/** The environment without what an `npm test` run put in it: each test says which npm it plays. */
const plainEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/.test(k)));
/** A command to its end; one that would serve instead of refusing its arguments is stopped after 30 s. */
const cli = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, [BIN, ...args], { env: { ...plainEnv, ...env }, timeout: 30_000, killSignal: 'SIGKILL' }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A server command, running until `stop`; `output()` is what it printed so far. */
async function running(args: string[], env: Record<string, string>, until: RegExp): Promise<{ output(): string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...plainEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  await new Promise<void>((resolve, reject) => {
    // A server that never says it is ready is stopped: left running, it would hold the test run open.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no ${until} within 30 s: ${out}`));
    }, 30_000);
    child.stdout.on('data', () => {
      if (until.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return {
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

describe('the command line, as a newcomer meets it', () => {
  const db = join(dir, 'events.duckdb');
  before(async () => {
    const demo = await cli(['demo', '--events', '300', '--seed', '4', '--db', db]);
    assert.equal(demo.code, 0, demo.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a stray argument is an error that names it', async () => {
    const serve = await cli(['serve', 'extra-arg', '--db', db, '--port', '0']);
    assert.equal(serve.code, 2);
    assert.match(serve.stderr, /^vessel-events serve: unexpected argument "extra-arg": this command takes options only/);
    const versions = await cli(['versions', 'list', 'again', 'more', '--db', db]);
    assert.equal(versions.code, 2);
    assert.match(versions.stderr, /unexpected argument "more"/);
  });

  test('npm start --port N, whose N npm passes on alone, is refused with the form that works', async () => {
    const res = await cli(['start', '18181', '--db', db, '--tokens', join(dir, 'npm-start-tokens.json')], { npm_lifecycle_event: 'start', npm_config_port: 'true' });
    assert.equal(res.code, 2);
    assert.match(res.stderr, /npm took --port for itself and passed "18181" on alone: write "npm start -- --port 18181"/);
    assert.match((await cli(['start', '--help'])).stdout, /npm start -- --port 8081/);
  });

  test('npm start --port=N (npm_config_port=N) serves on N', async () => {
    const port = await freePort();
    const server = await running(['serve', '--db', db, '--tokens', join(dir, 'npm-tokens.json')], { npm_lifecycle_event: 'start', npm_config_port: String(port) }, /serving http/);
    try {
      assert.match(server.output(), new RegExp(`serving http://127\\.0\\.0\\.1:${port}\\b`));
    } finally {
      await server.stop();
    }
  });

  test('start keeps the token on screen: requests are not logged unless --log-level says so, and another token is named', async () => {
    for (const logLevel of [undefined, 'info']) {
      const server = await running(['start', '--port', '0', '--db', db, '--tokens', join(dir, 'start-tokens.json'), ...(logLevel ? ['--log-level', logLevel] : [])], {}, /Ctrl-C stops the server/);
      try {
        const url = /Vessel events API: (http:\/\/\S+)\/v3\/events/.exec(server.output())![1]!;
        const token = /Token \(demo, replaced at each start\): (\S+)/.exec(server.output())![1]!;
        assert.match(server.output(), /Another token, kept across starts: npx vessel-events token create --name NAME --datasets 'public-\*'/);
        for (let i = 0; i < 3; i++) assert.equal((await fetch(`${url}/v3/events?datasets=public-global-fishing-events:latest&limit=1&offset=0`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const requestLines = server.output().split('\n').filter((l) => l.includes('"request completed"')).length;
        if (logLevel) assert.equal(requestLines, 3);
        else {
          assert.equal(requestLines, 0);
          assert.match(server.output(), /Requests are not logged \(--log-level info logs each one\)/);
        }
      } finally {
        await server.stop();
      }
    }
  });

  test('load --dataset takes a kind, a dataset id or its alias; a count of one reads "1 entry"', async () => {
    const row = [...generateDemoRows({ events: 60, seed: 99 })].find((r) => r['event_type'] === 'encounter')!;
    const file = join(dir, 'one.ndjson');
    writeFileSync(file, JSON.stringify(row));
    for (const [dataset, version] of [['encounter', 'v1'], ['public-global-encounters-events', 'v2'], ['public-global-encounter-events', 'v3']]) {
      const res = await cli(['load', '--db', db, '--version', version!, '--dataset', dataset!, file]);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout.trim(), `public-global-encounters-events:${version}\t1 entry`);
    }
    const wrong = await cli(['load', '--db', db, '--dataset', 'public-global-whales', file]);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--dataset must be a kind \(fishing, encounter, loitering, port_visit, gap\) or a dataset id \(public-global-fishing-events, /);
  });

  test('regions list --name matches accents and case aside, and says when nothing matches', async () => {
    for (const name of ['senegal', 'sénégal', 'SÉNÉGAL']) {
      const res = await cli(['regions', 'list', '--db', db, '--dataset', 'public-eez-areas', '--name', name]);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /^public-eez-areas\t8371\tSenegal$/m, name);
    }
    const none = await cli(['regions', 'list', '--db', db, '--dataset', 'public-eez-areas', '--name', 'atlantis']);
    assert.equal(none.code, 1);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /no region of public-eez-areas has a name holding "atlantis" \(accents and case aside\)/);
  });
});
