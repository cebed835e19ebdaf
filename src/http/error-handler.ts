// The one place that turns errors into HTTP responses (docs/api.md, "Errors"): every error is
// {statusCode, error, messages:[{title, detail}]}; a 500 carries the request id only.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  DomainError, Forbidden, InvalidParameters, NotFound, NotReady, Overloaded, PayloadTooLarge, QueryTimeout, RateLimited, Unauthorized,
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
  [RateLimited, 429],
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
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return [415, [{ title: 'Content-Type', detail: 'send the body as application/json' }]];
  }
  return undefined;
}

/**
 * Errors the router meets before any route runs (Fastify's `frameworkErrors`): a path that is not
 * valid percent-encoding, a path parameter over its length limit.
 */
export function onFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void sendError(reply, 414, [{ title: 'path', detail: 'a path segment is longer than the limit of 100 characters' }]);
  } else {
    void sendError(reply, 400, [{ title: 'path', detail: 'the path is not a valid URL: check its percent-encoding (%XX)' }]);
  }
}

/**
 * Errors of the HTTP parser, before there is a request (Fastify's `clientErrorHandler`): headers or
 * a request line over Node's size limit (431), a request that is not HTTP (400), a client too slow
 * to send its request (408). Written to the socket in the same JSON shape as every other error.
 */
export function onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'the request line and headers are larger than the limit of 16 KB; send large filters as a POST body']
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'the request was not received in time']
    : [400, 'the request is not valid HTTP'];
  const body = JSON.stringify(errorBody(status, [{ title: 'request', detail }]));
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
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
    // A plugin's refusal (the docs' static files refuse `..` with a 403): its status, our shape,
    // and none of its words, which may name files.
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, error.statusCode, [{ title: 'request', detail: `the request was refused: ${STATUS_CODES[error.statusCode] ?? 'client error'}` }]);
    }
    request.log.error({ err: error, requestId: request.id }, 'unexpected error');
    return sendError(reply, 500, [{ title: 'Internal Server Error', detail: `request id ${request.id}` }]);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, [{ title: 'Not Found', detail: `no route ${request.method} ${request.url.split('?')[0]}; see /docs` }]),
  );
}
