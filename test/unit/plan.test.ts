// The filter plan says what the reference says: every random query of the filters differential,
// planned and evaluated in TypeScript on every stored record, keeps exactly the records the
// reference keeps. The pruning conditions the plan adds (from each dataset's reach) keep every
// one of them too. No engine is involved: this checks the plan, the HTTP differentials check the
// engine's rendering of it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Random } from '../../src/data/demo/random.ts';
import type { EventRecord } from '../../src/domain/record.ts';
import { EVENT_KINDS, DATASET_ID_BY_KIND } from '../../src/domain/kinds.ts';
import { fieldsRead, planFilters } from '../../src/query/plan.ts';
import type { EventQuery } from '../../src/query/types.ts';
import { buildFixtureDb, type Fixture } from '../helpers/fixture.ts';
import { evaluate } from '../helpers/evaluate-plan.ts';
import { generate } from '../helpers/random-queries.ts';
import { lastUpdated, referenceMatches } from '../helpers/reference.ts';
import { caseCount, seedOf } from '../helpers/size.ts';

const QUERIES = caseCount('PLAN_TEST_QUERIES', 800, 200);
const SEED = seedOf('PLAN_TEST_SEED', 20779);

let fixture: Fixture;
before(async () => {
  fixture = await buildFixtureDb({ events: 5000, seed: 31 });
});
after(() => fixture.cleanup());

const versionOf = (r: EventRecord) => EVENT_KINDS.indexOf(r.kind) + 1;

/** The datasets of a query as the catalog resolves them, with their last update and reach. */
const resolvedCache = new Map<string, EventQuery['datasets'][number]>();
function datasetsOf(kinds: string[], records: EventRecord[]): EventQuery['datasets'] {
  return kinds.map((kind) => resolvedOf(kind, records));
}
function resolvedOf(kind: string, records: EventRecord[]): EventQuery['datasets'][number] {
  const cached = resolvedCache.get(kind);
  if (cached) return cached;
  const resolved = ((): EventQuery['datasets'][number] => {
    const own = records.filter((r) => r.kind === kind);
    const closed = own.filter((r) => r.endMs !== null);
    const open = own.filter((r) => r.endMs === null);
    const updated = lastUpdated(records).get(kind)!;
    return {
      requested: `${DATASET_ID_BY_KIND[kind as EventRecord['kind']]}:latest`, kind: kind as EventRecord['kind'], datasetId: DATASET_ID_BY_KIND[kind as EventRecord['kind']], version: 'latest',
      resolved: {
        versionId: EVENT_KINDS.indexOf(kind as EventRecord['kind']) + 1, datasetId: DATASET_ID_BY_KIND[kind as EventRecord['kind']], kind: kind as EventRecord['kind'], version: 'v1',
        loadedAt: new Date(updated).toISOString(), rowCount: own.length, lastUpdated: new Date(updated).toISOString(),
        reach: {
          longestMs: closed.length ? Math.max(...closed.map((r) => r.endMs! - r.startMs)) : null,
          earliestOpenStartMs: open.length ? Math.min(...open.map((r) => r.startMs)) : null,
        },
      },
    };
  })();
  resolvedCache.set(kind, resolved);
  return resolved;
}

test(`${QUERIES} random queries: the plan keeps exactly what the reference keeps (PLAN_TEST_SEED=${SEED})`, () => {
  const r = new Random(SEED);
  const data = { records: fixture.records, groups: fixture.groups };
  let nonEmpty = 0;
  for (let i = 0; i < QUERIES; i++) {
    const { reference } = generate(r, fixture);
    const { kinds, sort: _sort, limit: _limit, offset: _offset, ...filters } = reference;
    const query: EventQuery = { ...filters, datasets: datasetsOf(kinds, fixture.records) };
    const plan = planFilters(query);
    const kept = fixture.records.filter((rec) => plan.every((c) => evaluate(c, rec, versionOf, data.groups) === true)).map((rec) => rec.id);
    const expected = fixture.records.filter((rec) => referenceMatches(rec, reference, data)).map((rec) => rec.id);
    assert.deepEqual(kept, expected, `query ${i} of PLAN_TEST_SEED=${SEED}: ${JSON.stringify(reference).slice(0, 600)}`);
    if (expected.length) nonEmpty++;
  }
  assert.ok(nonEmpty > QUERIES * 0.4, `only ${nonEmpty} of ${QUERIES} queries kept anything`);
});

test('the fields a plan reads: a vessel\'s history reads only what vessel_events stores; a region or a flag reads more', () => {
  const datasets = datasetsOf(['fishing', 'gap'], fixture.records);
  const history = fieldsRead(planFilters({ datasets, vesselIds: ['v'], types: { values: ['GAP_START'], operator: 'INCLUDE' }, duration: { minMs: 1 }, time: { mode: 'OVERLAP', startMs: 0 } }));
  assert.deepEqual([...history.fields].sort(), ['end', 'kind', 'start', 'version', 'vessel']);
  assert.equal(history.other.size, 0);
  const regional = fieldsRead(planFilters({ datasets, area: { type: 'regions', regions: [{ dataset: 'public-eez-areas', member: 'eez', id: '8371' }] }, flags: { values: ['ESP'], operator: 'EXCLUDE' }, time: { mode: 'OVERLAP' } }));
  assert.ok(regional.fields.has('vesselFlag'));
  assert.deepEqual([...regional.other], ['inRegion']);
});
