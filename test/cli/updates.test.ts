// `load --update` through the command line on a DuckDB file: readers of a running server see the
// whole old version or the whole new one in every answer, a SIGKILL at any moment of an update
// leaves the served data as it was, and updates piling up over a version are told to compact.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { TokenFile } from '../../src/auth/tokens.ts';
import { generateDemoRows, type PublishedRow } from '../../src/data/demo/generate.ts';
import { Random } from '../../src/data/demo/random.ts';
import { readAllRecords } from '../helpers/fixture.ts';
import { BIN, startServer } from '../helpers/server.ts';
import { seedOf } from '../helpers/size.ts';
import { copyDuckDbFiles } from '../../src/store/engines.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'vessel-events-update-cli-'));
const cli = (args: string[]) => run(process.execPath, [BIN, ...args], { env: { ...process.env, CI: 'true' } });
const SEED = seedOf('UPDATE_KILL_SEED', 808);

function write(name: string, rows: PublishedRow[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return path;
}

/** A database of fishing events, and a day's update of it: some rows replaced, some added, some ids removed. */
async function databaseAndUpdate(name: string, events: number): Promise<{ db: string; rows: string; removals: string; replaced: PublishedRow; removed: string; added: PublishedRow }> {
  const fishing = [...generateDemoRows({ events, seed: 3 })].filter((r) => r['event_type'] === 'fishing');
  const db = join(dir, `${name}.duckdb`);
  await cli(['load', '--db', db, '--version', 'v1', write(`${name}-initial.ndjson`, fishing)]);
  const replaced = { ...fishing[0]!, lat_mean: Number(fishing[0]!['lat_mean']) + 0.5 };
  const changed = [replaced, ...fishing.slice(1, 2000).map((r) => ({ ...r, event_end: r['event_end'] ?? r['event_start'] }))];
  const added = fishing.slice(2000, 3000).map((r, i) => ({ ...r, event_id: `added-${i}` }));
  const removed = fishing.slice(3000, 3500).map((r) => String(r['event_id']));
  writeFileSync(join(dir, `${name}-remove.txt`), `${removed.join('\n')}\n`);
  return { db, rows: write(`${name}-update.ndjson`, [...changed, ...added]), removals: join(dir, `${name}-remove.txt`), replaced: fishing[0]!, removed: removed[0]!, added: added[0]! };
}

describe('updates through the command line', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('readers of a running server see the whole old version or the whole new one in every answer', async () => {
    const u = await databaseAndUpdate('readers', 20_000);
    const tokens = new TokenFile(join(dir, 'tokens.json'));
    const secret = tokens.create('reader', ['public-*']);
    const { url, stop } = await startServer(u.db, tokens.path);
    try {
      const ids = [u.replaced['event_id'], u.removed, u.added['event_id']].join(',');
      const at = (row: PublishedRow, lat = Number(row['lat_mean'])) => `${row['event_id']}@${lat.toFixed(3)}`;
      const ask = async () => {
        const res = await fetch(`${url}/v3/events?datasets=public-global-fishing-events:latest&ids=${ids}&limit=10&offset=0`, { headers: { authorization: `Bearer ${secret}` } });
        assert.equal(res.status, 200);
        const body = (await res.json()) as { entries: { id: string; position: { lat: number } }[] };
        const found = body.entries.map((e) => `${e.id}@${e.position.lat.toFixed(3)}`).sort();
        return { version: res.headers.get('x-datasets'), found };
      };
      const old = await ask();
      assert.deepEqual(old.found, [at(u.replaced), `${u.removed}@${old.found.find((f) => f.startsWith(u.removed))?.split('@')[1]}`].sort());
      const seen: Awaited<ReturnType<typeof ask>>[] = [];
      let updating = true;
      const update = cli(['load', '--db', u.db, '--update', '--version', 'v2', '--dataset', 'fishing', '--remove', u.removals, u.rows]).finally(() => (updating = false));
      while (updating) seen.push(await ask());
      const { stdout } = await update;
      assert.match(stdout, /^public-global-fishing-events:v2\t[\d,]+ entries\tfrom v1: 2000 replaced, 1000 added, 500 removed$/m);
      let now = await ask();
      for (let i = 0; i < 50 && now.version === old.version; i++) {
        await new Promise((r) => setTimeout(r, 100));
        now = await ask();
      }
      assert.equal(now.version, 'public-global-fishing-events:v2');
      assert.deepEqual(now.found, [at(u.added), at(u.replaced, Number(u.replaced['lat_mean']) + 0.5)].sort());
      for (const answer of seen) assert.deepEqual(answer.found, answer.version === old.version ? old.found : now.found, `an answer of ${answer.version}`);
      assert.ok(seen.length > 0);
    } finally {
      stop();
    }
  });

  test('a SIGKILL at any moment of an update leaves the served data as it was', async () => {
    const u = await databaseAndUpdate('killed', 30_000);
    const snapshot = async () => ({ versions: (await cli(['versions', 'list', '--db', u.db])).stdout.replace(/\tloaded .*/g, ''), ids: (await readAllRecords(u.db)).map((r) => `${r.id}:${r.lat}`).sort() });
    const before = await snapshot();
    // The update's length here, timed on a copy, so that every kill lands within it.
    const pristine = join(dir, 'killed-pristine.duckdb');
    copyDuckDbFiles(u.db, pristine);
    const copy = join(dir, 'killed-timing.duckdb');
    copyDuckDbFiles(u.db, copy);
    const started = performance.now();
    await cli(['load', '--db', copy, '--update', '--version', 'v2', '--dataset', 'fishing', '--remove', u.removals, u.rows]);
    let took = performance.now() - started;
    const r = new Random(SEED);
    let killed = 0;
    for (let attempt = 0; killed < 4; attempt++) {
      assert.ok(attempt < 12, `the updates kept ending before their kills (UPDATE_KILL_SEED=${SEED}): make the update larger`);
      const update = spawn(process.execPath, [BIN, 'load', '--db', u.db, '--update', '--version', 'v2', '--dataset', 'fishing', '--remove', u.removals, u.rows], { env: { ...process.env, CI: 'true' } });
      const spawned = performance.now();
      const exited = new Promise<number | null>((resolve) => update.on('exit', (code) => resolve(code)));
      const delay = r.int(100, Math.max(150, Math.floor(took * 0.8)));
      const done = await Promise.race([exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), delay))]);
      if (done !== 'running') {
        // Faster than timed (the machine is shared): the update landed. The database is put back,
        // and later kills aim within this run's length.
        took = Math.min(took, performance.now() - spawned);
        rmSync(`${u.db}.layers`, { recursive: true, force: true });
        copyDuckDbFiles(pristine, u.db);
        assert.deepEqual(await snapshot(), before);
        continue;
      }
      update.kill('SIGKILL');
      await exited;
      killed++;
      assert.deepEqual(await snapshot(), before, `killed after ${delay} ms (UPDATE_KILL_SEED=${SEED})`);
    }
    assert.equal(killed, 4);
    const { stdout } = await cli(['load', '--db', u.db, '--update', '--version', 'v2', '--dataset', 'fishing', '--remove', u.removals, u.rows]);
    assert.match(stdout, /fishing-events:v2\t/);
    // The update is a layer beside the database until compacted; compacted, it answers the same.
    assert.deepEqual(readdirSync(`${u.db}.layers`), ['2.duckdb']);
    const updated = await snapshot();
    assert.match((await cli(['compact', '--db', u.db])).stdout, /^public-global-fishing-events:v2\t[\d,]+ entries\twritten whole$/m);
    assert.deepEqual(readdirSync(`${u.db}.layers`), []);
    assert.equal((await snapshot()).versions, updated.versions);
    await assert.rejects(cli(['compact', '--db', u.db]), /nothing to compact/);
  });

  test('from the fourth update over a version written whole, the update advises compact', async () => {
    const u = await databaseAndUpdate('advice', 4000);
    const notes: string[] = [];
    for (const version of ['v2', 'v3', 'v4', 'v5']) notes.push((await cli(['load', '--db', u.db, '--update', '--version', version, u.rows])).stderr);
    assert.doesNotMatch(notes.slice(0, 3).join(''), /note:/);
    assert.match(notes[3]!, /note: public-global-fishing-events:v5 is 4 updates over its version written whole\..*`vessel-events compact --db .*advice\.duckdb` writes it whole/);
    await cli(['compact', '--db', u.db]);
    assert.doesNotMatch((await cli(['load', '--db', u.db, '--update', '--version', 'v6', u.rows])).stderr, /note:/);
  });
});
