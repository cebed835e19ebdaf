import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { generateDemoRows } from '../../src/data/demo/generate.ts';
import { BIN, startServer } from '../helpers/server.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'vessel-events-cli-'));
const cli = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('vessel-events CLI', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('--help on every command names its options and their environment variables', async () => {
    const main = await cli(['--help']);
    for (const c of ['start', 'serve', 'demo', 'load', 'token']) assert.match(main.stdout, new RegExp(`\\b${c}\\b`));
    for (const [command, variable] of [
      ['serve', 'VESSEL_EVENTS_PORT'], ['start', 'VESSEL_EVENTS_DEMO_EVENTS'], ['demo', 'VESSEL_EVENTS_DEMO_SEED'], ['load', 'VESSEL_EVENTS_SKIP_INVALID'],
      ['token', 'VESSEL_EVENTS_TOKENS'], ['generate', 'VESSEL_EVENTS_OUT'], ['versions', 'VESSEL_EVENTS_DB'], ['groups', 'VESSEL_EVENTS_DB'], ['regions', 'VESSEL_EVENTS_DATASET'],
    ] as const) {
      const res = await cli([command, '--help']);
      assert.equal(res.code, 0, command);
      assert.match(res.stdout, new RegExp(variable), command);
    }
    assert.equal((await cli(['frobnicate'])).code, 2);
    // A load's memory limit defaults to 2GB, not serve's 160MB: its help says both, and no single default.
    const memoryLine = (await cli(['load', '--help'])).stdout.split('\n').find((l) => l.startsWith('  --memory-limit'))!;
    assert.match(memoryLine, /load and demo: default 2GB/);
    assert.doesNotMatch(memoryLine, /\(default 160MB\)/);
  });

  test('token create prints the token alone on the last line; list and revoke manage the file', async () => {
    const tokens = join(dir, 'tokens.json');
    const created = await cli(['token', 'create', '--name', 'ci', '--datasets', 'public-*', '--tokens', tokens]);
    assert.equal(created.code, 0, created.stderr);
    const lastLine = created.stdout.trimEnd().split('\n').at(-1)!;
    assert.match(lastLine, /^ve_[A-Za-z0-9_-]{43}$/);
    assert.match((await cli(['token', 'list'], { VESSEL_EVENTS_TOKENS: tokens })).stdout, /^ci\tpublic-\*\t/m);
    assert.equal((await cli(['token', 'revoke', 'ci', '--tokens', tokens])).code, 0);
    assert.equal((await cli(['token', 'revoke', 'ci', '--tokens', tokens])).code, 2);
  });

  test('demo builds a database; load adds a version; a bad row loads nothing and says where', async () => {
    const db = join(dir, 'events.duckdb');
    const demo = await cli(['demo', '--events', '300', '--seed', '4', '--db', db]);
    assert.equal(demo.code, 0, demo.stderr);
    assert.match(demo.stdout, /^public-global-fishing-events:v\d{8}\t\d+ entries$/m);
    assert.equal((await cli(['demo', '--db', db])).code, 1, 'an existing database is never overwritten');

    const rows = [...generateDemoRows({ events: 3000, seed: 99 })].filter((r) => r['event_type'] === 'loitering').slice(0, 3);
    const good = join(dir, 'loitering.ndjson');
    writeFileSync(good, rows.map((r) => JSON.stringify({ ...r, event_id: `x${r['event_id']}` })).join('\n'));
    const loaded = await cli(['load', '--db', db, '--version', 'v20990101', good]);
    assert.equal(loaded.code, 0, loaded.stderr);
    assert.equal(loaded.stdout.trim(), 'public-global-loitering-events:v20990101\t3 entries');

    // The entry's compression is chosen when a file is created: another is refused, naming both.
    const kept = await cli(['load', '--db', db, '--version', 'v20990102', '--entry-compression', 'zstd', good]);
    assert.equal(kept.code, 1);
    assert.match(kept.stderr, /--entry-compression zstd: .*events\.duckdb stores its entries in fsst/);
    assert.match((await cli(['load', '--db', db, '--entry-compression', 'lz4', good])).stderr, /--entry-compression must be one of fsst, zstd, got "lz4"/);
    const postgres = await cli(['load', '--engine', 'postgres', '--database-url', 'postgres://127.0.0.1:1/none', '--entry-compression', 'zstd', good]);
    assert.equal(postgres.code, 2);
    assert.match(postgres.stderr, /--engine duckdb only/);
    const small = await cli(['load', '--db', join(dir, 'zstd.duckdb'), '--version', 'v1', '--entry-compression', 'zstd', good]);
    assert.equal(small.code, 0, small.stderr);

    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, `${JSON.stringify(rows[0])}\n{"event_type":"fishing"}\n`);
    const failed = await cli(['load', '--db', db, '--version', 'v3', bad]);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: event_id: is required\\nnothing was loaded`));
  });

  test('generate writes files that load; groups, ports and regions load; versions list and drop', async () => {
    const out = join(dir, 'generated');
    const db = join(dir, 'generated.duckdb');
    const generated = await cli(['generate', '--events', '400', '--seed', '2', '--out', out, '--format', 'csv']);
    assert.equal(generated.code, 0, generated.stderr);
    const kinds = ['fishing', 'encounter', 'loitering', 'port_visit', 'gap'].map((k) => join(out, `${k}.csv`));
    const loaded = await cli(['load', '--db', db, '--version', 'v1', ...kinds]);
    assert.equal(loaded.code, 0, loaded.stderr);
    assert.match(loaded.stdout, /public-global-fishing-events:v1\t\d+ entries/);
    assert.match((await cli(['groups', 'load', '--db', db, join(out, 'vessel-groups.csv')])).stdout, /^loaded \d+ groups \(\d+ members\)$/m);
    assert.match((await cli(['ports', 'load', '--db', db, join(out, 'ports.json')])).stdout, /^loaded \d+ ports$/m);
    const iuu = await cli(['iuu', 'load', '--db', db, join(out, 'iuu-list.json')]);
    assert.match(iuu.stdout, /^loaded an IUU vessel list of \d+ listings$/m, iuu.stderr);
    const registry = await cli(['vessels', 'load', '--db', db, join(out, 'vessel-registry.json')]);
    assert.match(registry.stdout, /^loaded a vessel registry of \d+ records \(\d+ vessels\)$/m, registry.stderr);
    writeFileSync(join(out, 'bad-registry.csv'), 'vessel_id,imo,length_m\nabc,1234567,long\n');
    assert.match((await cli(['vessels', 'load', '--db', db, join(out, 'bad-registry.csv')])).stderr, /bad-registry\.csv:2: length_m "long" is not a number/);
    writeFileSync(join(out, 'bad-iuu.csv'), 'vessel_id,listed_from\nabc,2020-02-30\n');
    assert.match((await cli(['iuu', 'load', '--db', db, join(out, 'bad-iuu.csv')])).stderr, /bad-iuu\.csv:2: listed_from "2020-02-30" is not a day/);
    const regions = await cli(['regions', 'load', '--db', db, '--dataset', 'public-eez-areas', join(out, 'regions', 'public-eez-areas.geojson')]);
    assert.match(regions.stdout, /^loaded \d+ regions of public-eez-areas$/m, regions.stderr);
    assert.match((await cli(['regions', 'list', '--db', db, '--dataset', 'public-eez-areas', '--name', 'senegal'])).stdout, /^public-eez-areas\t8371\tSenegal$/m);
    // An EEZ's country travels from the generated file into the database (context layers show it).
    const instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
    const iso3 = (await (await instance.connect()).runAndReadAll(`SELECT iso3 FROM region_geometries WHERE dataset = 'public-eez-areas' AND id = '8371'`)).getRowsJS();
    instance.closeSync();
    assert.deepEqual(iso3, [['SEN']]);
    const unknown = await cli(['regions', 'load', '--db', db, '--dataset', 'public-whales', join(out, 'regions', 'public-eez-areas.geojson')]);
    assert.match(unknown.stderr, /unknown region dataset "public-whales"/);
    assert.match((await cli(['versions', 'list', '--db', db])).stdout, /^public-global-gaps-events:v1\t\d+ entries\tloaded /m);
    assert.match((await cli(['versions', 'drop', '--db', db, 'public-global-gaps-events:v1'])).stdout, /^dropped public-global-gaps-events:v1 \(\d+ entries\)$/m);
    assert.doesNotMatch((await cli(['versions', 'list', '--db', db])).stdout, /gaps/);
    assert.equal((await cli(['versions', 'drop', '--db', db, 'public-global-gaps-events:v1'])).code, 1);
  });

  test('serve answers over HTTP with the printed URL', async () => {
    const db = join(dir, 'events.duckdb');
    const tokens = join(dir, 'serve-tokens.json');
    const secret = (await cli(['token', 'create', '--name', 'web', '--datasets', 'public-*', '--tokens', tokens])).stdout.trimEnd().split('\n').at(-1)!;
    const { url, stop } = await startServer(db, tokens);
    try {
      const res = await fetch(`${url}/v3/events?datasets=public-global-loitering-events:v20990101&limit=10&offset=0`, { headers: { authorization: `Bearer ${secret}` } });
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { total: number }).total, 3);
      assert.equal((await fetch(`${url}/v3/events?datasets=public-global-loitering-events:latest&limit=1&offset=0`)).status, 401);
    } finally {
      stop();
    }
  });

  test('-h, --version and help <command> answer; a mistyped command or option is named with the nearest one', async () => {
    assert.equal((await cli(['-h'])).stdout, (await cli(['--help'])).stdout);
    const version = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')).version as string;
    assert.equal((await cli(['--version'])).stdout, `vessel-events ${version}\n`);
    const help = await cli(['help', 'load']);
    assert.equal(help.code, 0);
    assert.equal(help.stdout, (await cli(['load', '--help'])).stdout);
    assert.equal((await cli(['serve', '-h'])).stdout, (await cli(['serve', '--help'])).stdout);
    const command = await cli(['strat']);
    assert.equal(command.code, 2);
    assert.match(command.stderr, /unknown command "strat"; did you mean start\?/);
    const option = await cli(['serve', '--prot', '9000']);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /unknown option --prot; did you mean --port\?/);
    assert.doesNotMatch((await cli(['serve', '--zzzzzz', '1'])).stderr, /did you mean/);
  });

  test('start on a port in use says so at once, before building demo data', async () => {
    const busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    try {
      const port = (busy.address() as AddressInfo).port;
      const db = join(dir, 'never.duckdb');
      const res = await cli(['start', '--port', String(port), '--db', db, '--tokens', join(dir, 'never-tokens.json')]);
      assert.equal(res.code, 2);
      assert.match(res.stderr, new RegExp(`port ${port} on 127.0.0.1 is in use; choose another with --port`));
      assert.equal(existsSync(db), false);
    } finally {
      busy.close();
    }
  });
});
