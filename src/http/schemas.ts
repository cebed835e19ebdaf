// Response schemas: they document the responses in /openapi.json. Responses themselves are built by
// src/shape (key order and wire format matter to the official clients), not by a schema serialiser.
import { Type } from '@sinclair/typebox';

const Numberish = Type.Union([Type.Number(), Type.String()], { description: 'number (spec) or decimal string (gfw), per field' });

export const ErrorSchema = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    messages: Type.Array(Type.Object({ title: Type.String(), detail: Type.String() })),
  },
  { description: 'Every error has this shape; `title` names the parameter where there is one.' },
);

const RegionIds = Type.Array(Type.String());
export const EntrySchema = Type.Object(
  {
    start: Type.String({ description: 'ISO 8601 UTC with milliseconds' }),
    end: Type.Union([Type.String(), Type.Null()], { description: 'null (spec) or "" (gfw) while the event is open' }),
    id: Type.String(),
    type: Type.String({ enum: ['fishing', 'encounter', 'loitering', 'gap', 'port_visit'] }),
    position: Type.Object({ lat: Type.Number(), lon: Type.Number() }),
    regions: Type.Object({
      eez: RegionIds, eez12Nm: RegionIds, fao: RegionIds, majorFao: RegionIds, highSeas: RegionIds,
      mpa: RegionIds, mpaNoTake: RegionIds, mpaNoTakePartial: RegionIds, rfmo: RegionIds,
    }),
    boundingBox: Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: '[lonMin, latMin, lonMax, latMax]' }),
    distances: Type.Object({
      startDistanceFromShoreKm: Type.Union([Type.Number(), Type.Null()]),
      endDistanceFromShoreKm: Type.Union([Type.Number(), Type.Null()]),
      startDistanceFromPortKm: Type.Union([Type.Number(), Type.Null()]),
      endDistanceFromPortKm: Type.Union([Type.Number(), Type.Null()]),
    }),
    vessel: Type.Object({
      id: Type.String(), name: Type.Union([Type.String(), Type.Null()]), ssvid: Type.Union([Type.String(), Type.Null()]),
      flag: Type.Union([Type.String(), Type.Null()]), type: Type.Union([Type.String(), Type.Null()]),
      publicAuthorizations: Type.Array(Type.Object({ hasPubliclyListedAuthorization: Type.Union([Type.Boolean(), Type.String()]), rfmo: Type.String() })),
      nextPort: Type.Object({}, { additionalProperties: true, description: '{id, name, flag} or {} when unknown' }),
    }),
    fishing: Type.Optional(Type.Object({}, { additionalProperties: true })),
    encounter: Type.Optional(Type.Object({}, { additionalProperties: true })),
    loitering: Type.Optional(Type.Object({}, { additionalProperties: true })),
    gap: Type.Optional(Type.Object({ distanceKm: Type.Optional(Numberish) }, { additionalProperties: true })),
    port_visit: Type.Optional(Type.Object({ confidence: Type.Optional(Type.Union([Type.Integer(), Type.String()])) }, { additionalProperties: true })),
  },
  { description: 'One event entry; the kind block (fishing, encounter, loitering, gap or port_visit) is the last key.' },
);

export const ListResponseSchema = Type.Object({
  entries: Type.Array(EntrySchema),
  total: Type.Integer({ description: 'all matching entries' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
  nextOffset: Type.Union([Type.Integer(), Type.Null()], { description: 'offset + limit while entries remain; null on the last page' }),
  metadata: Type.Object({}, { additionalProperties: true, description: 'resolved datasets and the filters as understood' }),
});

export const errorResponses = {
  401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 413: ErrorSchema, 422: ErrorSchema, 500: ErrorSchema, 503: ErrorSchema, 504: ErrorSchema,
};
