// One call per handler: read the query string and/or body into canonical values, validate them
// against the route's schemas, and fail with every problem at once.
import type { FastifyRequest } from 'fastify';
import type { Static, TObject } from '@sinclair/typebox';
import { ProblemCollector } from '../query/errors.ts';
import type { Spelling } from '../query/errors.ts';
import { readBody, readQueryString, validateAgainst, validatorOf } from './wire-syntax.ts';

export interface ReadRequest<Q extends TObject, B extends TObject> {
  query: Static<Q>;
  body: Static<B>;
  spelling: Spelling;
}

/** A route's reader, its validators compiled now (at registration) rather than on its first request. */
export function requestReader<Q extends TObject, B extends TObject = TObject>(schemas: { query: Q; body?: B }): (request: FastifyRequest) => ReadRequest<Q, B> {
  validatorOf(schemas.query);
  if (schemas.body) validatorOf(schemas.body);
  return (request) => readRequest(request, schemas);
}

function readRequest<Q extends TObject, B extends TObject = TObject>(
  request: FastifyRequest,
  schemas: { query: Q; body?: B },
): ReadRequest<Q, B> {
  const problems = new ProblemCollector();
  const operation = `${request.method} ${request.routeOptions.url ?? ''}`;
  const rawUrl = request.raw.url ?? '';
  const question = rawUrl.indexOf('?');
  const query = readQueryString(question === -1 ? '' : rawUrl.slice(question + 1), schemas.query, problems, operation);
  validateAgainst(schemas.query, query, problems);
  let body = { values: {} as Record<string, unknown>, spelled: new Map<string, string>() };
  if (schemas.body) {
    body = readBody(request.body, schemas.body, problems, operation);
    validateAgainst(schemas.body, body, problems);
  }
  problems.throwIfAny();
  const spelled = new Map([...query.spelled, ...body.spelled]);
  // A parameter the client did not send is named in the style it writes the others (kebab-case).
  const kebab = [...spelled.values()].some((s) => s.includes('-'));
  return {
    query: query.values as Static<Q>,
    body: body.values as Static<B>,
    spelling: (name) => spelled.get(name) ?? (kebab ? name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) : name),
  };
}
