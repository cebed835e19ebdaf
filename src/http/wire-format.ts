// The wire format of one response: the `X-Wire-Format` request header, else the deployment's default.
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { invalid } from '../query/errors.ts';
import { isWireFormat, WIRE_FORMAT_HEADER, WIRE_FORMATS, type WireFormat } from '../shape/wire.ts';

export const WIRE_HEADER_SCHEMA = Type.Object({
  [WIRE_FORMAT_HEADER]: Type.Optional(
    Type.String({ enum: [...WIRE_FORMATS], description: 'gfw (the live service\'s types, which the official clients expect; the default unless the deployment sets --wire spec) or spec (numbers as the interface declares them)' }),
  ),
});

export function wireFormatOf(request: FastifyRequest, fallback: WireFormat): WireFormat {
  const header = request.headers[WIRE_FORMAT_HEADER];
  if (header === undefined) return fallback;
  const value = String(header).trim().toLowerCase();
  if (!isWireFormat(value)) throw invalid('X-Wire-Format', `X-Wire-Format must be one of ${WIRE_FORMATS.join(', ')}, got "${header}"`);
  return value;
}
