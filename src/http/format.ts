// The form of an answer: the `format` parameter when given, else the Accept header, else JSON.
import type { FastifyRequest } from 'fastify';
import type { ListFormat } from '../query/enumerations.ts';
import { formatFromAccept } from '../shape/formats.ts';

export function formatOf<F extends ListFormat>(request: FastifyRequest, asked: F | undefined, allowed: readonly F[]): F {
  return asked ?? (formatFromAccept(request.headers.accept, allowed) as F | undefined) ?? ('json' as F);
}
