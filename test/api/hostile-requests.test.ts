// The quick, in-process form of `npm run fuzz`: seeded hostile requests on every route (see
// test/helpers/hostile-requests.ts), each answered without a 500, in our error shape, with no
// stack trace or SQL, and the server still healthy after them. Replay with HOSTILE_TEST_SEED.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';
import { check, hostileRequest } from '../helpers/hostile-requests.ts';
import { caseCount, seedOf } from '../helpers/size.ts';

const RUNS = caseCount('HOSTILE_TEST_RUNS', 2000, 300);
const SEED = seedOf('HOSTILE_TEST_SEED', 20779);

let t: TestApp;
before(async () => {
  t = await startTestApp({ events: 3000, seed: 7, bufferDeadlineMs: 2000 });
});
after(() => t.close());

test(`${RUNS} hostile requests: no 500, every error in our shape, nothing leaked (HOSTILE_TEST_SEED=${SEED})`, async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), async (seed) => {
      const request = hostileRequest(seed, t.token);
      const res = await t.app.inject({ method: request.method, url: request.path, headers: request.headers, ...(request.body !== undefined ? { payload: request.body } : {}) });
      const encoding = res.headers['content-encoding'];
      const body = encoding === 'gzip' ? gunzipSync(res.rawPayload).toString() : encoding === 'br' ? brotliDecompressSync(res.rawPayload).toString() : res.body;
      // A HEAD answer has the headers of its GET and no body to check.
      const verdict = request.method === 'HEAD' ? { ok: res.statusCode < 500, problem: `HEAD ${res.statusCode}` } : check(res.statusCode, res.headers['content-type'] as string | undefined, body);
      assert.ok(verdict.ok, `${verdict.problem}\nrequest ${seed}: ${request.method} ${request.path.slice(0, 300)} ${request.body?.slice(0, 300) ?? ''}`);
    }),
    { numRuns: RUNS, seed: SEED },
  );
  assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
});
