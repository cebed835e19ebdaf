// The proof of the filters: seeded random queries combining every non-spatial filter, operators,
// time modes, sorts, pages, datasets and spellings, sent to the service over HTTP (GET and POST)
// and compared with the plain-TypeScript reference (test/helpers/reference.ts): same total, same
// page of ids. Replay a failure with FILTER_TEST_SEED=<seed> (printed with every failure).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Random } from '../../src/data/demo/random.ts';
import { startTestApp, type Fixture, type TestApp } from '../helpers/fixture.ts';
import { generate, toRequest } from '../helpers/random-queries.ts';
import { referencePage } from '../helpers/reference.ts';
import { caseCount, FULL, seedOf } from '../helpers/size.ts';

const QUERIES = caseCount('FILTER_TEST_QUERIES', 2000, 250);
const SEED = seedOf('FILTER_TEST_SEED', 20779);

let t: TestApp;
let fixture: Fixture;
before(async () => {
  // The quick tier shares the polygons' fixture (area-differential), one database fewer to build.
  t = await startTestApp(FULL ? { events: 20000, seed: 31 } : { events: 8000, seed: 41 });
  fixture = t.fixture;
});
after(() => t.close());

test(`${QUERIES} random filter queries over HTTP agree with the reference (FILTER_TEST_SEED=${SEED})`, async () => {
  const r = new Random(SEED);
  let nonEmpty = 0;
  for (let i = 0; i < QUERIES; i++) {
    const g = generate(r, fixture);
    const req = toRequest(g, r);
    const res = await t.app.inject({ method: req.method, url: req.url, headers: t.auth, ...(req.payload ? { payload: req.payload } : {}) });
    const where = `query ${i} of FILTER_TEST_SEED=${SEED}: ${req.method} ${req.url} ${req.payload ? JSON.stringify(req.payload) : ''}`;
    assert.equal(res.statusCode, 200, `${where}\n${res.body}`);
    const body = res.json() as { total: number; entries: { id: string }[] };
    const expected = referencePage(fixture, g.reference);
    assert.equal(body.total, expected.total, where);
    assert.deepEqual(body.entries.map((e) => e.id), expected.ids, where);
    if (body.total > 0) nonEmpty++;
  }
  assert.ok(nonEmpty > QUERIES * 0.4, `only ${nonEmpty} of ${QUERIES} queries found anything: the generator is too narrow`);
});
