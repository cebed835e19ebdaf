// JSON request bodies: parsed, then checked for what would make later steps fail cheaply for the
// client and dearly for the server. A body nested thousands deep (6 KB) overflowed the stack in
// validation (a 500); a member named __proto__ must never reach an object's prototype.
import type { FastifyInstance } from 'fastify';
import { InvalidParameters } from '../query/errors.ts';

/** Far deeper than any request needs (a MultiPolygon's coordinates are 4 deep inside a FeatureCollection's 3). */
export const MAX_BODY_DEPTH = 32;

function checkStructure(value: unknown): string | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > MAX_BODY_DEPTH) return `the body nests deeper than ${MAX_BODY_DEPTH} levels`;
    for (const key of Object.keys(v)) {
      if (key === '__proto__') return 'the body has a member named "__proto__", which no parameter is';
      stack.push([(v as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return undefined;
}

export function registerJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    const invalid = (detail: string) => done(new InvalidParameters([{ title: 'body', detail }]), undefined);
    if (text === '') return invalid('the request body is empty; send a JSON object such as {"datasets":["public-global-fishing-events:latest"]}');
    let body: unknown;
    try {
      body = JSON.parse(text as string);
    } catch (e) {
      return invalid(`the request body is not valid JSON: ${(e as Error).message}`);
    }
    const problem = checkStructure(body);
    if (problem) return invalid(problem);
    done(null, body);
  });
}
