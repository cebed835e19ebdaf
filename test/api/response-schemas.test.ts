// Every answer the API gives is what /openapi.json documents for its path, method and status, in
// both wire formats: the documented schemas are checked against real responses, not only written.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import AjvModule, { type ValidateFunction } from 'ajv';
import { ErrorSchema } from '../../src/http/schemas.ts';
import { DATASET_ID_BY_KIND, EVENT_KINDS } from '../../src/domain/kinds.ts';
import { GROUP_BY } from '../../src/query/stats.ts';
import { WIRE_FORMATS } from '../../src/shape/wire.ts';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

const Ajv = AjvModule.default ?? AjvModule;

type Request = { method?: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: string | object };
type OpenApi = { paths: Record<string, Record<string, { responses: Record<string, { content?: { 'application/json'?: { schema: object } } }> }>> };

const ALL = Object.values(DATASET_ID_BY_KIND).map((d) => `${d}:latest`);
const LIST = `/v3/events?datasets=${ALL.join(',')}`;

describe('responses match the documented schemas', () => {
  let t: TestApp;
  let doc: OpenApi;
  const ajv = new Ajv({ strict: false, allErrors: true });
  const compiled = new Map<object, ValidateFunction>();
  const validatorOf = (schema: object) => compiled.get(schema) ?? compiled.set(schema, ajv.compile(schema)).get(schema)!;

  before(async () => {
    t = await startTestApp({ events: 3000, seed: 7 });
    doc = (await t.app.inject({ url: '/openapi.json' })).json() as OpenApi;
  });
  after(() => t.close());

  /** The documented schema of this answer; an answer with no documented status fails. */
  function documented(method: string, url: string, status: number): object | undefined {
    // The /api/v3 twins are served, not documented (the description says so).
    const path = url.split('?')[0]!.replace(/^\/api\/v3\//, '/v3/');
    // A literal path (`/v3/events/stats`) wins over a template (`/v3/events/{eventId}`).
    const templates = Object.keys(doc.paths).sort((a, b) => a.split('{').length - b.split('{').length);
    const template = templates.find((p) => new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
    // An unknown route has no operation; its 404 is the one error shape.
    if (!template) return status === 404 ? ErrorSchema : assert.fail(`${path} is not documented`);
    const response = doc.paths[template]![method.toLowerCase()]?.responses[String(status)];
    assert.ok(response, `${method} ${template} does not document status ${status}`);
    return response.content?.['application/json']?.schema;
  }

  async function check(request: Request, expectedStatus: number, wires: readonly string[] = WIRE_FORMATS): Promise<void> {
    for (const wire of wires) {
      const res = await t.app.inject({ ...request, headers: { ...t.auth, ...request.headers, 'x-wire-format': wire } });
      const where = `${request.method ?? 'GET'} ${request.url} (${wire})`;
      assert.equal(res.statusCode, expectedStatus, `${where}: ${res.body.slice(0, 300)}`);
      const schema = documented(request.method ?? 'GET', request.url, res.statusCode);
      if (!schema) {
        assert.equal(res.body, '', `${where}: an undocumented body`);
        continue;
      }
      const validate = validatorOf(schema);
      assert.ok(validate(res.json()), `${where}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    }
  }

  test('lists: every kind, open gaps, shaped entries, sorts, deep and empty pages, both prefixes, GET and POST', async () => {
    for (const url of [
      `${LIST}&limit=400&offset=0`,
      `${LIST}&types=GAP_START&limit=50&offset=0`,
      `${LIST}&summary=true&limit=50&offset=0`,
      `${LIST}&include-regions=false&limit=50&offset=0`,
      `${LIST}&includes=vessel.name,encounter.vessel.id,port_visit.confidence&limit=50&offset=0`,
      `${LIST}&sort=-end&limit=20&offset=1500`,
      `${LIST}&flags=ZZZ&limit=5&offset=0`,
      `/api${LIST}&limit=5&offset=0`,
    ]) await check({ url }, 200);
    await check({ method: 'POST', url: '/v3/events?limit=100&offset=0', payload: { datasets: ALL, region: { dataset: 'public-eez-areas', id: 8371 }, bufferValue: 50, bufferUnit: 'NAUTICALMILES' } }, 200);
  });

  test('one event of every kind, as an entry and raw', async () => {
    for (const kind of EVENT_KINDS) {
      const record = t.fixture.records.find((r) => r.kind === kind)!;
      const url = `/v3/events/${record.id}?dataset=${DATASET_ID_BY_KIND[kind]}:latest`;
      await check({ url }, 200);
      await check({ url: `${url}&raw=true` }, 200);
    }
  });

  test('statistics: every groupBy with every part, GET and POST', async () => {
    for (const groupBy of GROUP_BY) {
      await check({ url: `/v3/events/stats?datasets=${ALL.join(',')}&timeseries-interval=MONTH&group-by=${groupBy}&includes=TOTAL_COUNT,TIME_SERIES,EVENTS_GROUPED` }, 200);
    }
    await check({ method: 'POST', url: '/v3/events/stats', payload: { datasets: ALL, timeseriesInterval: 'YEAR' } }, 200);
  });

  test('a revalidated GET is a 304 with no body', async () => {
    const url = `${LIST}&limit=5&offset=0`;
    for (const wire of WIRE_FORMATS) {
      const etag = (await t.app.inject({ url, headers: { ...t.auth, 'x-wire-format': wire } })).headers['etag'] as string;
      await check({ url, headers: { 'if-none-match': etag } }, 304, [wire]);
    }
  });

  test('errors: 401, 403, 404, 413, 415, 422, on every operation', async () => {
    const fishingOnly = `Bearer ${t.tokens.create('fishing-only', ['public-global-fishing-events'])}`;
    await check({ url: `${LIST}&limit=1&offset=0`, headers: { authorization: 'Bearer nope' } }, 401);
    await check({ url: `${LIST}&limit=1&offset=0`, headers: { authorization: fishingOnly } }, 403);
    await check({ url: '/v3/events?datasets=public-global-whales:latest&limit=1&offset=0' }, 404);
    await check({ url: '/v3/events/nope?dataset=public-global-fishing-events:latest' }, 404);
    await check({ url: '/v3/nowhere' }, 404);
    await check({ url: `${LIST}&limit=0&offset=0` }, 422);
    await check({ method: 'POST', url: '/v3/events?limit=1&offset=0', payload: { datasets: ALL, geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 1]]] } } }, 422);
    await check({ method: 'POST', url: '/v3/events?limit=1&offset=0', headers: { 'content-type': 'text/plain' }, payload: 'x' }, 415);
    await check({ method: 'POST', url: '/v3/events?limit=1&offset=0', payload: { datasets: ['x'.repeat(2_000_000)] } }, 413);
    await check({ url: '/v3/events/stats?datasets=public-global-fishing-events:latest' }, 422);
    await check({ method: 'POST', url: '/v3/events/stats', payload: { datasets: ['public-global-fishing-events:v1'], timeseriesInterval: 'DAY' } }, 404);
    await check({ url: '/v3/events/x?dataset=public-global-fishing-events:latest', headers: { authorization: fishingOnly.replace('ve_', 've_x') } }, 401);
  });

  test('region lists: EEZs, MPAs, RFMOs, and a 404', async () => {
    for (const dataset of ['public-eez-areas', 'public-mpa-all', 'public-rfmo']) await check({ url: `/v3/datasets/${dataset}/context-layers` }, 200);
    await check({ url: '/v3/datasets/public-whales/context-layers' }, 404);
  });

  test('vessels: search by query and where, by id, by ids, and their errors', async () => {
    const vessel = t.fixture.records[0]!.vessel;
    await check({ url: `/v3/vessels/search?query=${vessel.ssvid}&includes=OWNERSHIP,AUTHORIZATIONS,MATCH_CRITERIA` }, 200);
    await check({ url: `/v3/vessels/search?where=${encodeURIComponent(`flag = '${vessel.flag}'`)}&limit=50` }, 200);
    await check({ url: `/v3/vessels/${vessel.id}?dataset=public-global-vessel-identity:latest` }, 200);
    await check({ url: `/v3/vessels?ids=${vessel.id}` }, 200);
    await check({ url: '/v3/vessels/search?query=ab' }, 422);
    await check({ url: '/v3/vessels/nope' }, 404);
    await check({ url: `/v3/vessels?ids=${vessel.id}`, headers: { authorization: `Bearer ${t.tokens.create('fishing-only-vessels', ['public-global-fishing-events'])}` } }, 403);
    const vessels = [{ datasetId: 'public-global-vessel-identity:latest', vesselId: vessel.id }];
    await check({ method: 'POST', url: '/v3/insights/vessels', payload: { includes: ['FISHING', 'GAP'], startDate: '2018-01-01', endDate: '2023-01-01', vessels } }, 200);
    await check({ method: 'POST', url: '/v3/insights/vessels', payload: { includes: ['COVERAGE'], startDate: '2018-01-01', endDate: '2023-01-01', vessels } }, 422);
  });

  test('operations: /healthz and /readyz', async () => {
    await check({ url: '/healthz' }, 200);
    await check({ url: '/readyz' }, 200);
  });
});
