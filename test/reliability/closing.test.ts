// Closing the store while queries run: DuckDB deadlocks when a connection is closed under its
// running query (the query, ending, destroys the connection's context while holding its lock), and
// the process can then never exit (it waits for that thread). The server closes its store on
// SIGTERM with requests still running, so the store must wait for them (interrupting them) first.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';

let fixture: Fixture;
before(async () => {
  fixture = await buildFixtureDb({ events: 3000, seed: 11 });
});
after(() => fixture.cleanup());

const SCRIPT = (dbPath: string) => `
import { DuckDbStore } from ${JSON.stringify(join(import.meta.dirname, '../../src/store/duckdb/duckdb-store.ts'))};
import { normalizeEventQuery } from ${JSON.stringify(join(import.meta.dirname, '../../src/query/normalize.ts'))};
import { normalizeStatsOptions } from ${JSON.stringify(join(import.meta.dirname, '../../src/query/stats.ts'))};
const store = await DuckDbStore.open({ path: ${JSON.stringify(dbPath)} });
const ctx = { catalog: store, access: { canRead: () => true } };
const query = await normalizeEventQuery({ datasets: ['public-global-fishing-events:latest', 'public-global-gaps-events:latest'] }, ctx);
const options = normalizeStatsOptions({ timeseriesInterval: 'HOUR', groupBy: 'REGION_EEZ', includes: ['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED'] }, (n) => n);
const running = Array.from({ length: 12 }, () => store.stats(query, options).then(() => 'done', (e) => e.constructor.name + ': ' + e.message));
await new Promise((resolve) => setTimeout(resolve, 5));
await store.close();
console.log(JSON.stringify(await Promise.all(running)));
process.exit(0);
`;

test('closing the store while queries run ends them and lets the process exit', async () => {
  for (let round = 0; round < 3; round++) {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT(fixture.dbPath)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, 30_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    assert.equal(code, 0, `round ${round}: the process did not exit within 30 s after closing the store (${out})`);
    // Each query either finished or was refused (the store closing) or interrupted, none left
    // hanging and none failing otherwise.
    const outcomes = JSON.parse(out) as string[];
    assert.equal(outcomes.length, 12);
    const unexpected = outcomes.filter((o) => o !== 'done' && !/^Overloaded: .*the server is closing/.test(o) && !/INTERRUPT/.test(o));
    assert.deepEqual(unexpected, [], `round ${round}`);
  }
});
