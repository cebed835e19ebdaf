// Where the PostgreSQL engine reads an updated lineage's versions (src/store/postgres/lineage.ts):
// every version's rows are in the lineage's partition and in its partition of changes, and a page
// of it in start order reads each in its own branch, in that partition's index order; the tables
// kept beside the events hold its rows in the lineage's partition alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withPlan } from '../../src/query/plan.ts';
import type { ListQuery } from '../../src/query/types.ts';
import type { SortValue } from '../../src/query/enumerations.ts';
import { compileSearch, compileWhere } from '../../src/store/postgres/compile.ts';
import { changesPartitionId, VersionScope } from '../../src/store/postgres/lineage.ts';
import { SqlBuilder } from '../../src/store/sql.ts';

/** Fishing loaded as version 2, then updated twice (versions 6 and 7 share its partition); gaps loaded whole as version 3. */
const scope = new VersionScope([
  { versionId: 2, lineageId: null },
  { versionId: 3, lineageId: null },
  { versionId: 6, lineageId: 2 },
  { versionId: 7, lineageId: 2 },
]);

function listAt(versionIds: number[], sort: SortValue, offset: number): ListQuery {
  const at = new Date(Date.UTC(2024, 0, 1)).toISOString();
  const datasets = versionIds.map((versionId) => ({
    requested: `public-global-fishing-events:v${versionId}`, kind: 'fishing' as const, datasetId: 'public-global-fishing-events:v3.0', version: `v${versionId}`,
    resolved: { versionId, datasetId: 'public-global-fishing-events:v3.0', kind: 'fishing' as const, version: `v${versionId}`, loadedAt: at, rowCount: 10, lastUpdated: at, reach: { longestMs: null, earliestOpenStartMs: null } },
  }));
  return withPlan({ datasets, time: { mode: 'OVERLAP' }, sort, limit: 100, offset, shape: 'full' } as unknown as ListQuery);
}

/** The branches of a page's statement that read the events, each with the version ids it names. */
function branches(sql: string, params: unknown[]): number[][] {
  const selects = sql.split(/\(SELECT /).slice(1).filter((s) => / FROM events WHERE /.test(s));
  return selects.map((s) => [...s.matchAll(/version_id (?:=|IN \()\s*\$(\d+)(?:::smallint, \$(\d+))?/g)].flatMap((m) => [m[1], m[2]].filter(Boolean).map((n) => Number(params[Number(n) - 1]))));
}

for (const offset of [0, 50_000]) {
  test(`a version of an updated lineage, earlier or latest, pages in start order over each of its two partitions in a branch of its own (offset ${offset})`, () => {
    for (const versionId of [2, 6, 7]) {
      for (const sort of ['+start', '-start'] as const) {
        const page = compileSearch(listAt([versionId], sort, offset), scope);
        assert.deepEqual(branches(page.sql, page.params), [[2], [changesPartitionId(2)]], `${versionId} ${sort}: ${page.sql}`);
        assert.doesNotMatch(page.sql, /version_id IN \(\$/, sort);
      }
    }
  });
}

test('a version loaded whole reads its partition in one statement', () => {
  const page = compileSearch(listAt([3], '+start', 0), scope);
  assert.doesNotMatch(page.sql, /UNION ALL/, page.sql);
  assert.ok(!page.params.includes(changesPartitionId(3)), page.sql);
});

test('the latest version of an updated lineage reads the rows added to its partition of changes, and none hidden', () => {
  const b = new SqlBuilder();
  const rows = scope.rowsOf(b, 7);
  assert.match(rows, /version_id IN \(\$1::smallint, \$2::smallint\)/, rows);
  assert.deepEqual(b.params.slice(0, 2), [2, changesPartitionId(2)]);
  assert.match(rows, /to_version IS NULL/, rows);
  assert.doesNotMatch(rows, /from_version/, rows);
});

test('in another order, and for a total, an earlier version is one condition on both partitions', () => {
  const page = compileSearch(listAt([2], '+end', 0), scope);
  assert.doesNotMatch(page.sql, /UNION ALL/, page.sql);
  assert.ok(page.params.includes(2) && page.params.includes(changesPartitionId(2)), page.sql);
  const count = compileWhere(listAt([2], '+start', 0), scope);
  assert.ok(count.params.includes(2) && count.params.includes(changesPartitionId(2)), count.sql);
});

test('on the tables kept beside the events, an earlier version is its lineage\'s partition alone', () => {
  const serving = scope.onServingTables();
  for (const versionId of [2, 6, 7]) {
    const b = new SqlBuilder();
    const rows = serving.rowsOf(b, versionId);
    assert.ok(!b.params.includes(changesPartitionId(2)), rows);
    assert.match(rows, /version_id = \$1::smallint/);
    assert.equal(b.params[0], 2);
    assert.deepEqual(serving.rowsByPartition(new SqlBuilder(), versionId).length, 1);
  }
  // The marks still tell the version's rows apart there.
  const b = new SqlBuilder();
  assert.match(serving.rowsOf(b, 6), /from_version/);
});
