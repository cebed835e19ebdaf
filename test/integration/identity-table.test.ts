// The vessel identity table (src/store/duckdb/identity-table.ts): what it holds for the latest
// versions is what grouping the events gives (a database without its rows is read from events
// until migrate writes them, with the same identities); dropping a version drops its rows.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readVesselIdentities } from '../../src/store/duckdb/identity-table.ts';
import { identityOfRow, type SelfReportedIdentity } from '../../src/domain/vessel-identity.ts';
import { readVersions } from '../../src/store/duckdb/versions.ts';
import { readOnly } from '../../src/store/duckdb/inspect.ts';
import { latestVersionIds } from '../../src/store/vessel-identities.ts';
import { copyDuckDbFiles, editDatabase, migrateDatabase } from '../../src/store/engines.ts';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';
import { writing } from '../helpers/store-answers.ts';

let fixture: Fixture;
let scratch: string;
before(async () => {
  fixture = await buildFixtureDb({ events: 3000, seed: 11 });
  scratch = mkdtempSync(join(tmpdir(), 'vessel-events-identities-'));
});
after(async () => {
  await fixture.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** The rows read, checked to come in the directory's order (vessel id, then last seen from the latest, then first seen), sorted as text. */
const identitiesAt = (path: string) => readOnly(path, async (c) => {
  const rows = await readVesselIdentities(c, latestVersionIds(await readVersions(c)));
  const key = (i: SelfReportedIdentity) => [i.vesselId, i.lastSeen, i.firstSeen] as const;
  rows.map(identityOfRow).reduce((previous, i) => {
    const [[pid, plast, pfirst], [id, last, first]] = [key(previous), key(i)];
    assert.ok(pid < id || (pid === id && (plast > last || (plast === last && pfirst <= first))), `${JSON.stringify(previous)} before ${JSON.stringify(i)}`);
    return i;
  });
  return [...rows].sort();
});
const count = (path: string, sql: string) => readOnly(path, async (c) => Number((await c.runAndReadAll(sql)).getRowsJS()[0]![0]));

test('the table holds what grouping the events gives, and a file without it is read from events until migrate', async () => {
  const stored = await identitiesAt(fixture.dbPath);
  assert.ok(stored.length > 10, `${stored.length} identities`);
  assert.equal(await count(fixture.dbPath, 'SELECT count(*) FROM identity_versions'), await count(fixture.dbPath, 'SELECT count(*) FROM dataset_versions'));
  const path = join(mkdtempSync(join(scratch, 'older-')), 'events.duckdb');
  copyDuckDbFiles(fixture.dbPath, path);
  await writing(path, async (c) => {
    for (const statement of ['DROP TABLE vessel_identities', 'DROP TABLE identity_versions', 'CHECKPOINT']) await c.run(statement);
  });
  assert.deepEqual(await identitiesAt(path), stored);
  const { identityVersions } = await migrateDatabase(path);
  assert.equal(identityVersions, await count(path, 'SELECT count(*) FROM dataset_versions'));
  assert.deepEqual(await identitiesAt(path), stored);
  // Every vessel of the events, and every encounter's second vessel, has its identities.
  const vessels = await count(path, `SELECT count(DISTINCT id) FROM (SELECT vessel_id AS id FROM events UNION ALL SELECT other_vessel.id FROM events WHERE other_vessel.id IS NOT NULL)`);
  assert.equal(new Set(stored.map((s) => identityOfRow(s).vesselId)).size, vessels);
});

test('dropping a version drops its rows of the table', async () => {
  const path = join(mkdtempSync(join(scratch, 'drop-')), 'events.duckdb');
  copyDuckDbFiles(fixture.dbPath, path);
  const [fishing] = await readOnly(path, async (c) => (await c.runAndReadAll(`SELECT version_id::INTEGER, version FROM dataset_versions WHERE kind = 'fishing'`)).getRowsJS()) as [number, string][];
  assert.ok(await count(path, `SELECT count(*) FROM vessel_identities WHERE version_id = ${fishing![0]}`) > 0);
  await editDatabase({ engine: 'duckdb', path }, (w) => w.dropVersion('public-global-fishing-events', 'fishing', fishing![1]));
  assert.equal(await count(path, `SELECT count(*) FROM vessel_identities WHERE version_id = ${fishing![0]}`), 0);
  assert.equal(await count(path, `SELECT count(*) FROM identity_versions WHERE version_id = ${fishing![0]}`), 0);
  assert.ok(await count(path, 'SELECT count(*) FROM vessel_identities') > 0, 'the other versions keep theirs');
});
