// /openapi.json and /docs: the document validates (swagger-parser) and passes Redocly's recommended
// rules; every operation has an id and a tag; the /api/v3 twins are served but not listed; and
// "Try it out" works: every operation, sent with exactly the values /docs pre-fills (each
// parameter's example, the body's example), answers 200, lists a page of several events or finds
// the example's event, and answers what the document shows as its response example.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

type Parameter = { name: string; in: string; required?: boolean; example?: unknown };
type Operation = {
  operationId?: string; tags?: string[]; parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** The request Swagger UI sends with the pre-filled values (arrays as repeated parameters, its default). */
function prefilled(path: string, op: Operation): { url: string; payload?: unknown } {
  let url = path;
  const query: string[] = [];
  for (const p of op.parameters ?? []) {
    if (p.example === undefined) continue;
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
    if (p.in === 'query') for (const v of Array.isArray(p.example) ? p.example : [p.example]) query.push(`${p.name}=${encodeURIComponent(String(v))}`);
  }
  const body = op.requestBody?.content['application/json']?.example;
  return { url: query.length ? `${url}?${query.join('&')}` : url, ...(body === undefined ? {} : { payload: body }) };
}

describe('the OpenAPI document and /docs', () => {
  let t: TestApp;
  let doc: Document;
  before(async () => {
    t = await startTestApp({ events: 3000, seed: 7 });
    doc = (await t.app.inject({ url: '/openapi.json' })).json() as Document;
  });
  after(() => t.close());

  test('validates as OpenAPI 3.1', async () => {
    assert.equal(doc.openapi, '3.1.0');
    await SwaggerParser.validate(structuredClone(doc) as never);
  });

  test('passes Redocly\'s recommended rules', async () => {
    // /healthz and /readyz answer no 4XX: they read nothing from the request.
    const config = await createConfig({ extends: ['recommended'], rules: { 'operation-4xx-response': 'off' } });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    assert.deepEqual(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`), []);
  });

  test('every operation has a unique id and a tag; the /api/v3 twins are not listed, but served', async () => {
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    assert.ok(ids.every((id) => typeof id === 'string' && id.length > 0));
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(Object.values(doc.paths).every((ops) => Object.values(ops).every((op) => (op.tags ?? []).length > 0)));
    assert.deepEqual(Object.keys(doc.paths).filter((p) => p.startsWith('/api/')), []);
    assert.equal((await t.app.inject({ url: '/api/v3/events/stats?datasets=public-global-fishing-events:latest&timeseries-interval=YEAR', headers: t.auth })).statusCode, 200);
  });

  test('/docs is titled for this service and reads the same document', async () => {
    const page = await t.app.inject({ url: '/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<title>Vessel Activity Events Service/);
    const initializer = await t.app.inject({ url: '/docs/static/swagger-initializer.js' });
    assert.match(initializer.body, /"layout":"BaseLayout"/);
    assert.deepEqual((await t.app.inject({ url: '/docs/json' })).json(), doc);
  });

  test('"Try it out" with the pre-filled values: 200 on every operation, a page of several events listed, the example event found, the documented answer given', async () => {
    const eventId = doc.paths['/v3/events/{eventId}']!['get']!.parameters!.find((p) => p.name === 'eventId')!.example;
    assert.equal(typeof eventId, 'string');
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const request = prefilled(path, op);
        const res = await t.app.inject({ method: method.toUpperCase() as 'GET' | 'POST', ...request, headers: t.auth } as never);
        const where = `${method.toUpperCase()} ${request.url}`;
        assert.equal(res.statusCode, 200, `${where}: ${res.body.slice(0, 400)}`);
        // A vector tile is the one answer that is not JSON: its 200 is the check.
        if (String(res.headers['content-type']).startsWith('application/vnd.mapbox-vector-tile')) continue;
        const body = res.json() as Record<string, unknown>;
        if (op.operationId === 'listEvents' || op.operationId === 'searchEvents') {
          // A page of several events of the pre-filled dataset, flag and year, not the one event every filter pre-filled would find.
          const entries = body['entries'] as { id: string; start: string; vessel: { flag: string } }[];
          assert.ok(entries.length >= 2, `${where}: ${entries.length} entries`);
          const flag = op.parameters?.find((p) => p.name === 'flags')?.example ?? (op.requestBody?.content['application/json']?.example as { flags?: string[] } | undefined)?.flags;
          if (flag) for (const e of entries) assert.deepEqual([e.vessel.flag], flag, where);
        }
        if (op.operationId === 'getEvent') assert.equal(body['id'], eventId);
        if (op.operationId === 'eventStats' || op.operationId === 'searchEventStats') assert.ok((body['numEvents'] as number) >= 1, where);
        const documented = op.responses['200']?.content?.['application/json']?.example;
        if (['listEvents', 'getEvent', 'eventStats', 'searchEventStats'].includes(op.operationId!)) assert.deepEqual(body, documented, `${where}: the documented example`);
      }
    }
  });
});
