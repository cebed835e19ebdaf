// Dropping a version of a DuckDB file gives its space back: the file is written afresh, not left
// with the dropped rows' blocks (DuckDB reuses them, but never shrinks a file), and serves the
// versions that remain as before.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyDuckDbFiles, dropVersion, listVersions } from '../../src/store/engines.ts';
import { DuckDbStore } from '../../src/store/duckdb/duckdb-store.ts';
import { normalizeListQuery } from '../../src/query/normalize.ts';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';

let fixture: Fixture;
let scratch: string;

before(async () => {
  fixture = await buildFixtureDb({ events: 6000, seed: 33 });
  scratch = mkdtempSync(join(tmpdir(), 'vessel-events-drop-space-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Each dataset's first page and total, as the store serves them. */
async function served(path: string, datasets: string[]): Promise<unknown[]> {
  const store = await DuckDbStore.open({ path });
  try {
    const answers = [];
    for (const dataset of datasets) {
      const query = await normalizeListQuery({ datasets: [dataset] } as never, { limit: 50, offset: 0 } as never, { catalog: store, access: { canRead: () => true } } as never);
      const page = await store.listPage(query);
      const entries: string[] = [];
      if (page.page) for await (const chunk of page.page) entries.push(...chunk);
      answers.push({ dataset, total: page.total, entries });
    }
    return answers;
  } finally {
    await store.close();
  }
}

test('a dropped version\'s space leaves the file, and the other versions answer as before', async () => {
  const path = join(scratch, 'events.duckdb');
  copyDuckDbFiles(fixture.dbPath, path);
  const database = { engine: 'duckdb' as const, path };
  const versions = await listVersions(database);
  const largest = [...versions].sort((a, b) => b.rowCount - a.rowCount)[0]!;
  const others = versions.filter((v) => v !== largest).map((v) => `${v.datasetId}:${v.version}`);
  const answersBefore = await served(path, others);
  const bytesBefore = statSync(path).size;

  assert.equal(await dropVersion(database, largest.datasetId, largest.kind, largest.version), largest.rowCount);

  assert.ok(statSync(path).size < bytesBefore * 0.9, `${statSync(path).size} bytes after dropping ${largest.rowCount} of ${versions.reduce((s, v) => s + v.rowCount, 0)} rows, ${bytesBefore} before`);
  assert.deepEqual((await listVersions(database)).map((v) => `${v.datasetId}:${v.version}`), others);
  assert.deepEqual(await served(path, others), answersBefore);
  assert.deepEqual(readdirSync(scratch).filter((name) => name.includes('.loading-')), [], 'no working file is left');
});
