// Loading what the GFW API publishes (`load --format gfw-json`): every entry this service serves,
// saved as a list response, a JSON array or NDJSON, in either wire format, loads into a fresh
// database through the real CLI and is served again exactly as it was.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { DATASET_ID_BY_KIND, EVENT_KINDS } from '../../src/domain/kinds.ts';
import { publishedRowOf } from '../../src/data/parse-gfw-json.ts';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';
import { BIN } from '../helpers/server.ts';

const run = promisify(execFile);
type Entry = Record<string, unknown> & { id: string };

describe('load --format gfw-json', () => {
  let source: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'vessel-events-gfw-json-'));
  const pages = new Map<string, { body: string; entries: Entry[] }>();
  const served = async (app: TestApp, kind: string, wire: string) => {
    const res = await app.app.inject({ url: `/v3/events?datasets=${DATASET_ID_BY_KIND[kind as keyof typeof DATASET_ID_BY_KIND]}:latest&limit=99999&offset=0`, headers: { ...app.auth, 'x-wire-format': wire } });
    assert.equal(res.statusCode, 200, res.body);
    return { body: res.body, entries: (res.json() as { entries: Entry[] }).entries };
  };

  before(async () => {
    source = await startTestApp({ events: 3000, seed: 7 });
    for (const kind of EVENT_KINDS) for (const wire of ['gfw', 'spec']) pages.set(`${kind}/${wire}`, await served(source, kind, wire));
  });
  after(async () => {
    await source.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('entries saved in every form and wire format load and are served again as they were', async () => {
    // Each kind saved another way: the whole list response, a JSON array, NDJSON; gaps in `spec`.
    const files: string[] = [];
    for (const [i, kind] of EVENT_KINDS.entries()) {
      const wire = kind === 'gap' ? 'spec' : 'gfw';
      const page = pages.get(`${kind}/${wire}`)!;
      assert.ok(page.entries.length > 0, kind);
      const file = join(dir, `${kind}.${i % 3 === 2 ? 'ndjson' : 'json'}`);
      writeFileSync(file, i % 3 === 0 ? page.body : i % 3 === 1 ? JSON.stringify(page.entries, null, 2) : page.entries.map((e) => JSON.stringify(e)).join('\n'));
      files.push(file);
    }
    const db = join(dir, 'reloaded.duckdb');
    const loaded = await run(process.execPath, [BIN, 'load', '--db', db, '--version', 'v1', '--format', 'gfw-json', ...files]);
    for (const kind of EVENT_KINDS) {
      const count = pages.get(`${kind}/gfw`)!.entries.length;
      assert.match(loaded.stdout, new RegExp(`^${DATASET_ID_BY_KIND[kind]}:v1\\t${count} entries$`, 'm'), loaded.stdout);
    }
    const again = await startTestApp({ fixture: { ...source.fixture, database: { engine: 'duckdb', path: db }, cleanup: async () => undefined } });
    try {
      for (const kind of EVENT_KINDS) {
        for (const wire of ['gfw', 'spec']) {
          const before = pages.get(`${kind}/${wire}`)!.entries;
          const after = (await served(again, kind, wire)).entries;
          assert.equal(after.length, before.length, `${kind} (${wire})`);
          assert.deepEqual(after, before, `${kind} (${wire}): the entries served again`);
        }
      }
    } finally {
      await again.close();
    }
  });

  test('what is not an entry is refused with its reason, and nothing is loaded', async () => {
    const file = join(dir, 'bad.ndjson');
    const good = pages.get('fishing/gfw')!.entries[0]!;
    writeFileSync(file, [JSON.stringify(good), 'not json', JSON.stringify({ ...good, id: 'x2', type: 'whale' }), JSON.stringify({ ...good, id: 'x3', start: 'yesterday' })].join('\n'));
    const db = join(dir, 'bad.duckdb');
    const res = await run(process.execPath, [BIN, 'load', '--db', db, '--format', 'gfw-json', file]).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /bad\.ndjson:2: row: not valid JSON \(and 2 more invalid rows\)/);
    assert.match(res.stderr, /nothing was loaded/);
    // With --skip-invalid the entry loads and every other line is named with its reason.
    const skipped = await run(process.execPath, [BIN, 'load', '--db', db, '--format', 'gfw-json', '--skip-invalid', file]);
    assert.match(skipped.stdout, /^public-global-fishing-events:v\d+\t1 entry$/m);
    assert.match(skipped.stdout, /bad\.ndjson:3: .*whale/);
    assert.match(skipped.stdout, /bad\.ndjson:4: .*event_start/);
  });

  test('an entry maps to the published row it came from', () => {
    const encounter = pages.get('encounter/gfw')!.entries.find((e) => e.id.endsWith('.2'))!;
    const row = publishedRowOf(encounter);
    const vessels = JSON.parse(row['event_vessels'] as string) as { id: string }[];
    // A `.2` entry is the second vessel of its pair: its own vessel comes second in the row.
    assert.equal(vessels[1]!.id, (encounter['vessel'] as { id: string }).id);
    assert.equal(row['entity_id'], vessels[1]!.id);
    assert.deepEqual(publishedRowOf('not an entry'), {});
  });
});
