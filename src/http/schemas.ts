// Response schemas: they document the responses in /openapi.json. Responses themselves are built by
// src/shape (key order and wire format matter to the official clients), not by a schema serialiser.
import { Type, type TSchema } from '@sinclair/typebox';
import { EVENT_INFO_FIELDS, isObjectField, type InfoField, type ScalarType } from '../domain/event-info.ts';
import { EVENT_KINDS, type EventKind } from '../domain/kinds.ts';

export const ErrorSchema = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    messages: Type.Array(Type.Object({ title: Type.String(), detail: Type.String() })),
  },
  { description: 'Every error has this shape; `title` names the parameter where there is one.' },
);

const SCALAR: Record<ScalarType, () => TSchema> = { number: () => Type.Number(), integer: () => Type.Integer(), string: () => Type.String(), boolean: () => Type.Boolean() };
const nullable = (schema: TSchema, description?: string) => Type.Union([schema, Type.Null()], description ? { description } : {});

// The kind blocks are documented from the same declarations that load and shape them
// (src/domain/event-info.ts), so a field cannot be added to one and missed in the other.
function fieldSchemas(fields: InfoField[]): Record<string, TSchema> {
  return Object.fromEntries(fields.map((f) => {
    if (isObjectField(f)) return [f.key, Type.Optional(nullable(Type.Object(fieldSchemas(f.fields)), f.description))];
    const value = SCALAR[f.type]();
    const description = [f.description, f.gfwString ? `${f.type} (spec) or decimal string (gfw)` : undefined].filter(Boolean).join('; ');
    return [f.key, Type.Optional(f.gfwString ? Type.Union([value, Type.String(), Type.Null()], { description }) : nullable(value, description || undefined))];
  }));
}

const RegionIds = Type.Array(Type.String());
const Distance = nullable(Type.Number());
const VesselSchema = Type.Object({
  id: Type.String(), name: nullable(Type.String()), ssvid: nullable(Type.String()),
  flag: nullable(Type.String()), type: nullable(Type.String()),
  publicAuthorizations: Type.Array(Type.Partial(Type.Object({
    hasPubliclyListedAuthorization: Type.Union([Type.Boolean(), Type.String(), Type.Null()], { description: 'true, false or "pending" (spec); "true", "false" or "pending" (gfw)' }),
    rfmo: nullable(Type.String()),
  }))),
  nextPort: Type.Object({ id: Type.Optional(nullable(Type.String())), name: Type.Optional(nullable(Type.String())), flag: Type.Optional(nullable(Type.String())) }, { description: '{id, name, flag}, or {} when unknown' }),
});
const kindBlock = (kind: EventKind, extra: Record<string, TSchema> = {}) =>
  Type.Optional(Type.Object({ ...extra, ...fieldSchemas(EVENT_INFO_FIELDS[kind]) }, { description: `the ${kind} block, last key of a ${kind} entry` }));

/** Members are present unless `includes`, `summary` or `include-regions=false` leave them out. */
export const EntrySchema = Type.Object(
  {
    start: Type.Optional(Type.String({ description: 'ISO 8601 UTC with milliseconds' })),
    end: Type.Optional(nullable(Type.String(), 'null (spec) or "" (gfw) while the event is open')),
    id: Type.Optional(Type.String()),
    type: Type.Optional(Type.String({ enum: [...EVENT_KINDS] })),
    position: Type.Optional(Type.Partial(Type.Object({ lat: Type.Number(), lon: Type.Number() }))),
    regions: Type.Optional(Type.Partial(Type.Object({
      eez: RegionIds, eez12Nm: RegionIds, fao: RegionIds, majorFao: RegionIds, highSeas: RegionIds,
      mpa: RegionIds, mpaNoTake: RegionIds, mpaNoTakePartial: RegionIds, rfmo: RegionIds,
    }))),
    boundingBox: Type.Optional(Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: '[lonMin, latMin, lonMax, latMax]' })),
    distances: Type.Optional(Type.Partial(Type.Object({
      startDistanceFromShoreKm: Distance, endDistanceFromShoreKm: Distance, startDistanceFromPortKm: Distance, endDistanceFromPortKm: Distance,
    }))),
    vessel: Type.Optional(Type.Partial(VesselSchema)),
    fishing: kindBlock('fishing'),
    encounter: kindBlock('encounter', { vessel: Type.Optional(nullable(Type.Partial(VesselSchema), 'the other vessel')) }),
    loitering: kindBlock('loitering'),
    gap: kindBlock('gap'),
    port_visit: kindBlock('port_visit'),
  },
  {
    additionalProperties: false,
    description: 'One event entry, keys in this order; the kind block (fishing, encounter, loitering, gap or port_visit) is the last key. Every member is present unless includes, summary or include-regions=false leave it out.',
  },
);

/** `raw=true`: the stored record in the published-events layout (docs/data-format.md). */
export const PublishedRowSchema = Type.Object(
  {
    event_id: Type.String(), event_type: Type.String({ enum: [...EVENT_KINDS] }), entity_id: Type.String(), seg_id: nullable(Type.String()),
    event_start: Type.String(), event_end: nullable(Type.String()),
    lat_mean: Type.Number(), lon_mean: Type.Number(), lat_min: Type.Number(), lat_max: Type.Number(), lon_min: Type.Number(), lon_max: Type.Number(),
    regions_mean_position: Type.Object({}, { additionalProperties: Type.Array(Type.String()) }),
    start_distance_from_shore_km: Distance, end_distance_from_shore_km: Distance, start_distance_from_port_km: Distance, end_distance_from_port_km: Distance,
    event_info: Type.String({ description: 'the kind\'s fields, a JSON object in a string' }),
    event_vessels: Type.String({ description: 'the vessels involved, a JSON array in a string' }),
  },
  { additionalProperties: false, description: 'raw=true: the published-events row the event was loaded from' },
);

export const ListResponseSchema = Type.Object({
  entries: Type.Array(EntrySchema),
  total: Type.Integer({ description: 'all matching entries' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
  nextOffset: Type.Union([Type.Integer(), Type.Null()], { description: 'offset + limit while entries remain; null on the last page' }),
  metadata: Type.Object({}, { additionalProperties: true, description: 'resolved datasets and the filters as understood' }),
});

const PointSchema = Type.Union([Type.Object({ type: Type.Literal('Point'), coordinates: Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[lon, lat]' }) }), Type.Null()]);
const FeatureSchema = Type.Object({ type: Type.Literal('Feature'), id: Type.String(), geometry: PointSchema, properties: EntrySchema }, { description: 'the event\'s point, with the entry (shaped as asked) as properties' });

/** A list page in each of its formats (format=..., or the Accept header). */
export const LIST_PAGE_FORMATS = {
  description: 'A page of entries: JSON by default; CSV, GeoJSON, NDJSON or Parquet with format= or the Accept header. X-Total-Count and X-Next-Offset give the paging in every format.',
  content: {
    'application/json': { schema: ListResponseSchema },
    'text/csv': { schema: Type.String({ description: 'a header row, then one row per entry: a column per member path (vessel.name, regions.eez, port_visit.intermediateAnchorage.id) of the kinds asked for, less what summary, includes and include-regions leave out; arrays of values joined by ";", arrays of objects as JSON' }) },
    'application/geo+json': { schema: Type.Object({ type: Type.Literal('FeatureCollection'), features: Type.Array(FeatureSchema), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), nextOffset: Type.Union([Type.Integer(), Type.Null()]), metadata: Type.Object({}, { additionalProperties: true }) }) },
    'application/x-ndjson': { schema: Type.String({ description: 'one entry per line' }) },
    'application/vnd.apache.parquet': { schema: Type.String({ format: 'binary', description: 'GeoParquet 1.1: one row per entry; a column per member of the kinds asked for (less what summary, includes and include-regions leave out), objects as structs, arrays as lists, start and end as UTC instants, numbers and booleans typed as the spec wire format types them; the position also as a WKB point (geometry) with its bounding-box covering column (bbox)' }) },
  },
};

/** One event: the entry (or the published row with raw=true), or a GeoJSON Feature. */
export const EVENT_FORMATS_RESPONSE = {
  description: 'The entry; with raw=true the published row it was loaded from; with format=geojson (or Accept: application/geo+json) a Feature.',
  content: {
    'application/json': { schema: Type.Union([EntrySchema, PublishedRowSchema], { description: 'the entry; with raw=true the published row it was loaded from' }) },
    'application/geo+json': { schema: FeatureSchema },
  },
};

/** A revalidated GET: no body (`type: 'null'` documents a response without content). */
export const NOT_MODIFIED = { type: 'null', description: 'Not modified: the If-None-Match ETag is current; no body' } as const;

export const errorResponses = {
  401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 413: ErrorSchema, 415: ErrorSchema, 422: ErrorSchema, 500: ErrorSchema, 503: ErrorSchema, 504: ErrorSchema,
};
