// Bearer tokens on every /v3 and /api/v3 request (docs/api.md, "Access"): 401 without a valid token;
// the token's dataset patterns decide what it may read (403 comes from normalisation).
import type { FastifyRequest } from 'fastify';
import { datasetPatternMatches, type TokenRecord, type TokenVerifier } from '../auth/tokens.ts';
import { Unauthorized } from '../query/errors.ts';
import type { DatasetAccess } from '../query/types.ts';

declare module 'fastify' {
  interface FastifyRequest {
    token?: TokenRecord;
  }
}

const unauthorized = (detail: string) => new Unauthorized([{ title: 'Authorization', detail }]);

export function authenticate(verifier: TokenVerifier) {
  return async (request: FastifyRequest): Promise<void> => {
    // CORS preflights carry no credentials by design.
    if (request.method === 'OPTIONS') return;
    const header = request.headers.authorization;
    if (!header) throw unauthorized('send the header "Authorization: Bearer <token>"; create a token with "vessel-events token create"');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('the Authorization header must be "Bearer <token>"');
    const token = verifier.verify(match[1]!);
    if (!token) throw unauthorized('the token is not valid: unknown or revoked');
    request.token = token;
  };
}

export function accessOf(request: FastifyRequest): DatasetAccess {
  const patterns = request.token?.datasets ?? [];
  return { canRead: (datasetId) => patterns.some((p) => datasetPatternMatches(p, datasetId)) };
}
