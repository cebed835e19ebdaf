import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { TokenFile } from '../../src/auth/tokens.ts';
import { generateDemoRows } from '../../src/data/demo/generate.ts';
import { buildFixtureDb } from '../helpers/fixture.ts';
import { BIN, startServer } from '../helpers/server.ts';

const run = promisify(execFile);

test('a load while serving: every answer is the old data or the new, never half; latest switches when the load is complete', async () => {
  const fixture = await buildFixtureDb({ events: 2000, seed: 21 });
  const tokens = new TokenFile(join(fixture.dir, 'tokens.json'));
  const secret = tokens.create('reader', ['public-*']);
  const file = join(fixture.dir, 'next.ndjson');
  const next = [...generateDemoRows({ events: 30000, seed: 22 })].filter((r) => r['event_type'] === 'fishing');
  writeFileSync(file, `${next.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const { url, stop } = await startServer(fixture.dbPath, tokens.path);
  try {
    const ask = async () => {
      const res = await fetch(`${url}/v3/events?datasets=public-global-fishing-events:latest&limit=1&offset=0`, { headers: { authorization: `Bearer ${secret}` } });
      assert.equal(res.status, 200);
      return { version: res.headers.get('x-datasets'), total: ((await res.json()) as { total: number }).total };
    };
    const before = await ask();
    const seen: { version: string | null; total: number }[] = [];
    let loading = true;
    const load = run(process.execPath, [BIN, 'load', '--db', fixture.dbPath, '--version', 'v20990101', file]).finally(() => (loading = false));
    while (loading) seen.push(await ask());
    await load;
    // The server notices the new file within a second or two.
    let after = await ask();
    for (let i = 0; i < 50 && after.version === before.version; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await ask();
    }
    assert.equal(after.version, 'public-global-fishing-events:v20990101');
    assert.equal(after.total, next.length);
    for (const s of [...seen, after]) {
      assert.ok(
        (s.version === before.version && s.total === before.total) || (s.version === after.version && s.total === after.total),
        `an answer mixed the two loads: ${JSON.stringify(s)}`,
      );
    }
    assert.ok(seen.length > 0, 'requests were answered during the load');
    const old = await fetch(`${url}/v3/events?datasets=public-global-fishing-events:v20240101&limit=1&offset=0`, { headers: { authorization: `Bearer ${secret}` } });
    assert.equal(((await old.json()) as { total: number }).total, before.total, 'the older version stays queryable');
  } finally {
    stop();
    await fixture.cleanup();
  }
});

test('clients that leave before their page starts do not exhaust the server\'s connections', async () => {
  const fixture = await buildFixtureDb({ events: 500, seed: 23 });
  const tokens = new TokenFile(join(fixture.dir, 'tokens.json'));
  const secret = tokens.create('reader', ['public-*']);
  const { url, stop } = await startServer(fixture.dbPath, tokens.path);
  try {
    const page = `${url}/v3/events?datasets=public-global-fishing-events:latest&limit=1000&offset=0`;
    const headers = { authorization: `Bearer ${secret}` };
    // More aborted requests than the pool has connections (4).
    for (let i = 0; i < 12; i++) {
      const abort = new AbortController();
      const pending = fetch(page, { headers, signal: abort.signal }).catch(() => undefined);
      setTimeout(() => abort.abort(), i % 3);
      await pending;
    }
    const res = await fetch(page, { headers, signal: AbortSignal.timeout(10_000) });
    assert.equal(res.status, 200);
    assert.ok(((await res.json()) as { total: number }).total > 0);
  } finally {
    stop();
    await fixture.cleanup();
  }
});
