// The one place that turns errors into HTTP responses (decisions section 7): every error is
// {statusCode, error, messages:[{title, detail}]}; a 500 carries the request id only.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import {
  DomainError, Forbidden, InvalidParameters, NotFound, NotReady, Overloaded, PayloadTooLarge, QueryTimeout, Unauthorized,
  type ProblemMessage,
} from '../query/errors.ts';

const STATUS_OF: [new (...args: never[]) => DomainError, number][] = [
  [InvalidParameters, 422],
  [NotFound, 404],
  [Unauthorized, 401],
  [Forbidden, 403],
  [PayloadTooLarge, 413],
  [NotReady, 503],
  [Overloaded, 503],
  [QueryTimeout, 504],
];

export function errorBody(statusCode: number, messages: ProblemMessage[]) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', messages };
}

export function sendError(reply: FastifyReply, statusCode: number, messages: ProblemMessage[]): FastifyReply {
  // RFC 6750: a 401 names the scheme the client should authenticate with.
  if (statusCode === 401) reply.header('WWW-Authenticate', 'Bearer realm="vessel-events"');
  return reply.code(statusCode).type('application/json').send(errorBody(statusCode, messages));
}

/** Fastify's own request errors (body parsing, limits), in our shape and words. */
function fromFastifyError(error: FastifyError, app: FastifyInstance): [number, ProblemMessage[]] | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return [413, [{ title: 'body', detail: `the request body is larger than the limit of ${app.initialConfig.bodyLimit} bytes` }]];
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return [422, [{ title: 'body', detail: 'the request body is empty; send a JSON object such as {"datasets":["public-global-fishing-events:latest"]}' }]];
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return [415, [{ title: 'Content-Type', detail: 'send the body as application/json' }]];
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return [422, [{ title: 'body', detail: `the request body is not valid JSON: ${error.message}` }]];
  }
  return undefined;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof DomainError) {
      if (error instanceof Overloaded) reply.header('Retry-After', String(error.retryAfterSeconds));
      const status = STATUS_OF.find(([type]) => error instanceof type)?.[1] ?? 500;
      return sendError(reply, status, error.messages);
    }
    const known = fromFastifyError(error, app);
    if (known) return sendError(reply, known[0], known[1]);
    request.log.error({ err: error, requestId: request.id }, 'unexpected error');
    return sendError(reply, 500, [{ title: 'Internal Server Error', detail: `request id ${request.id}` }]);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, [{ title: 'Not Found', detail: `no route ${request.method} ${request.url.split('?')[0]}; see /docs` }]),
  );
}
