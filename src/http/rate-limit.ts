// Per-token rate limits (docs/api.md, "Limits"), with @fastify/rate-limit: a token's own limit
// (`token create --rate-limit`) or the server's (`--rate-limit`), per minute; 0 is no limit. It runs
// after authentication, so it counts per token; each limited answer carries x-ratelimit-limit,
// -remaining and -reset, and a 429 also Retry-After, in our error shape.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RateLimited } from '../query/errors.ts';

export const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];

export async function registerRateLimits(api: FastifyInstance, perMinute: number): Promise<void> {
  const limitOf = (request: FastifyRequest) => request.token?.rateLimit ?? perMinute;
  await api.register(rateLimit, {
    hook: 'preHandler',
    timeWindow: 60_000,
    max: (request) => limitOf(request),
    allowList: (request) => limitOf(request) === 0,
    keyGenerator: (request) => (request.token ? `token:${request.token.name}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) =>
      new RateLimited([{ title: 'rate limit', detail: `this token may make ${context.max} requests per minute; retry in ${context.after}` }]),
  });
}
