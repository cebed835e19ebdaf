// GET responses may be cached by browsers (docs/api.md, "Caching"). The ETag stands for what was asked (the
// whole normalised query, as echoed in `metadata`), of which data (the store's generation, new at
// every load of anything) and in which form; max-age is tied to how often the operator loads data.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { resolvedName, type ResolvedDataset } from '../query/datasets.ts';

export function etagOf(answer: { operation: string; generation: string; asked: unknown }): string {
  return `W/"${createHash('sha256').update(JSON.stringify(answer)).digest('base64url').slice(0, 32)}"`;
}

/** Sets the caching headers; true when the client's copy is current and a 304 has been sent. */
export function answerFromCache(request: FastifyRequest, reply: FastifyReply, etag: string, maxAgeSeconds: number): boolean {
  reply.header('ETag', etag);
  reply.header('Cache-Control', `private, max-age=${maxAgeSeconds}`);
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').map((t) => t.trim()).some((t) => t === etag || t === '*')) {
    reply.code(304).send();
    return true;
  }
  return false;
}

/** Live behaviour: every response that resolved datasets names them. */
export function setResolvedDatasets(reply: FastifyReply, datasets: ResolvedDataset[]): void {
  reply.header('x-datasets', datasets.map(resolvedName).join(','));
}
