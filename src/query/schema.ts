// Request schemas (TypeBox). The same objects validate requests (src/http/wire-syntax.ts) and
// generate /openapi.json, so the documentation cannot drift from what is accepted. Property names
// are canonical (camelCase); every other spelling is mapped to them by src/query/parameters.ts.
import { Type, type Static } from '@sinclair/typebox';
import { BUFFER_LIMITS, BUFFER_OPERATIONS, BUFFER_UNITS } from '../geo/buffer.ts';
import { REGION_DATASETS } from '../domain/regions.ts';
import { ENCOUNTER_TYPES, EVENT_FORMATS, EVENT_TYPE_ALIASES, EVENT_TYPE_FILTER_VALUES, LIST_FORMATS, OPERATORS, PORT_VISIT_CONFIDENCES, SORT_VALUES, TIME_FILTER_MODES, VESSEL_TYPES } from './enumerations.ts';

/** A string enum as a plain JSON-schema `enum` (clearer validation errors than anyOf of literals). */
function StringEnum<T extends readonly string[]>(values: T, description: string, extra: { examples?: unknown[] } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description, ...extra });
}

// Every number has a finite range (JSON and numeric strings can spell Infinity as 1e309).
/** limit and offset: a 32-bit integer; live clients send limit=9999999. */
export const MAX_PAGE_NUMBER = 2_147_483_647;
/** Durations: a million hours (114 years) is longer than any event. */
export const MAX_DURATION_HOURS = 1_000_000;
/** The widest buffer in any unit (kilometres); each unit's own limit is checked with the unit. */
const MAX_BUFFER = Math.max(...Object.values(BUFFER_LIMITS));

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$';

/**
 * One example per parameter: /docs pre-fills every one of them at once ("Try it out"), so together
 * they must make a valid request. Kind-specific filters leave other kinds alone, so they may carry
 * examples of their kind; the examples that name data (vessels, ids, regions, groups, ports) are
 * replaced by values from the loaded data when the document is served (src/http/docs.ts).
 */
const example = <T>(value: T) => ({ examples: [value] });

function RegionRef(description: string) {
  return Type.Object(
    {
      dataset: Type.String({ minLength: 1, description: 'Region dataset, e.g. public-eez-areas.', ...example('public-eez-areas') }),
      id: Type.String({ minLength: 1, description: 'Region id, e.g. 8371.', ...example('8371') }),
    },
    { additionalProperties: false, description, 'x-expected': 'an object {"dataset": "public-eez-areas", "id": 8371}' },
  );
}

function DateParam(description: string, example: string) {
  return Type.String({
    pattern: DATE_PATTERN,
    description,
    'x-expected': 'a date YYYY-MM-DD or an ISO 8601 date-time',
    examples: [example],
  });
}

const operator = (filter: string) =>
  StringEnum(OPERATORS, `INCLUDE (default) keeps events matching one of \`${filter}\`; EXCLUDE keeps the others.`, example('INCLUDE'));

export const EventFilterProperties = {
  datasets: Type.Array(Type.String({ minLength: 1 }), {
    minItems: 1,
    description: 'Datasets to search, `id:version` (`latest` or an explicit version). Required.',
    'x-expected': 'a list of dataset ids such as public-global-fishing-events:latest',
    examples: [['public-global-fishing-events:latest']],
  }),
  vessels: Type.Array(Type.String({ minLength: 1 }), { description: 'Vessel ids (`vessel.id`).', ...example(['8c7304226-6c71-edbe-0b63-c246734b3c01']) }),
  types: Type.Array(StringEnum([...EVENT_TYPE_FILTER_VALUES, ...Object.keys(EVENT_TYPE_ALIASES)], 'Event kind'), {
    description: 'Event kinds within the chosen datasets. GAP: every gap; GAP_START: gaps still open; PORT means PORT_VISIT.',
    ...example(['FISHING']),
  }),
  typesOperator: operator('types'),
  flags: Type.Array(Type.String({ pattern: '^[A-Za-z]{3}$', 'x-expected': 'an ISO3 flag code' }), {
    description: 'Vessel flags (ISO3, `vessel.flag`).',
    ...example(['CHN']),
  }),
  flagsOperator: operator('flags'),
  vesselTypes: Type.Array(StringEnum(VESSEL_TYPES, 'Vessel type'), { description: 'Vessel types (`vessel.type`).', ...example(['FISHING']) }),
  vesselTypesOperator: operator('vesselTypes'),
  startDate: DateParam('Window start, inclusive. GET also accepts `start-date`.', '2020-01-01'),
  endDate: DateParam('Window end, exclusive. GET also accepts `end-date`.', '2021-01-01'),
  timeFilterMode: StringEnum(
    TIME_FILTER_MODES,
    'OVERLAP (default): the event overlaps the window; START-DATE: it starts in the window; END-DATE: it ends in the window.',
    example('OVERLAP'),
  ),
  ids: Type.Array(Type.String({ minLength: 1 }), { description: 'Event ids.', ...example(['c2f0967e061f0a8e0e0e1b7ab0a3e2c4']) }),
  vesselGroups: Type.Array(Type.String({ minLength: 1 }), { description: 'Vessel group ids loaded into the service; an event matches when its vessel is in any of them. An unknown group is a 404.', ...example(['my-vessel-group']) }),
  confidences: Type.Array(StringEnum(PORT_VISIT_CONFIDENCES, 'Port-visit confidence'), { description: 'Port-visit confidence (2 low, 3 medium, 4 high); applies to port visits only.', ...example(['3', '4']) }),
  confidencesOperator: operator('confidences'),
  encounterTypes: Type.Array(StringEnum(ENCOUNTER_TYPES, 'Encounter type'), {
    description: 'Directional encounter types MAIN-OTHER seen from the entry\'s own vessel (CARRIER-FISHING is not FISHING-CARRIER); encounters only. GET also accepts `encounter-types`.',
    ...example(['CARRIER-FISHING', 'FISHING-CARRIER']),
  }),
  encounterTypesOperator: operator('encounterTypes'),
  gapIntentionalDisabling: Type.Boolean({ description: 'true: only intentional gaps; false: only the others; omitted: all. Gaps only.', ...example(true) }),
  isClosed: Type.Array(Type.Boolean(), { description: 'Gaps whose AIS is back on (true) and/or still off (false); gaps only. GET and bodies: `is-closed`.', ...example([true]) }),
  portIds: Type.Array(Type.String({ minLength: 1 }), { description: 'Port of a port visit (its intermediate anchorage\'s port id, e.g. `esp-vigo`); port visits only.', ...example(['esp-vigo']) }),
  portIdsOperator: operator('portIds'),
  nextPortIds: Type.Array(Type.String({ minLength: 1 }), { description: 'Next port of the vessel (`vessel.nextPort.id`).', ...example(['chn-zhoushan']) }),
  nextPortIdsOperator: operator('nextPortIds'),
  minDuration: Type.Number({ minimum: 0, maximum: MAX_DURATION_HOURS, description: 'Minimum duration in hours, inclusive. An open event lasts until its dataset was last updated.', ...example(0) }),
  maxDuration: Type.Number({ exclusiveMinimum: 0, maximum: MAX_DURATION_HOURS, description: 'Maximum duration in hours, exclusive.', ...example(10000) }),
  duration: Type.Number({ minimum: 0, maximum: MAX_DURATION_HOURS * 60, description: 'Minimum duration in minutes, inclusive (POST only).', ...example(0) }),
  includes: Type.Array(Type.String({ minLength: 1, 'x-expected': 'a dotted property path such as vessel.name' }), {
    description: 'Keep only these dotted property paths of each entry (`id`, `vessel.name`, `regions.eez`, `encounter.vessel.id`).',
    ...example(['id', 'type', 'start', 'end', 'position', 'vessel.name', 'vessel.flag', 'regions.eez']),
  }),
  includeRegions: Type.Boolean({ description: 'false: entries carry no `regions` member (GET `include-regions`).', ...example(true) }),
  summary: Type.Boolean({ description: 'true: entries carry only id, type, start, end, position and vessel {id, name, ssvid, flag, type}.', ...example(false) }),
  regionDatasets: Type.Array(StringEnum(Object.keys(REGION_DATASETS), 'Region dataset'), {
    description: 'Region datasets, paired with regionIds by position; one dataset applies to all ids.',
    ...example(['public-eez-areas']),
  }),
  regionIds: Type.Array(Type.String({ minLength: 1 }), { description: 'Region ids (numbers or strings), e.g. 8371 for Senegal\'s EEZ.', ...example(['8371']) }),
  region: RegionRef('One region: {dataset, id}; either member may be a one-element array (POST only).'),
  regions: Type.Array(RegionRef('A region'), { minItems: 1, description: 'Several regions, matched as a union (POST only).' }),
  geometry: Type.Unsafe<unknown>({
    type: 'object',
    description: 'GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection of them (POST only); events whose position lies inside match.',
    'x-expected': 'a GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection',
    ...example({ type: 'Polygon', coordinates: [[[-20, 10], [-15, 10], [-15, 17], [-20, 17], [-20, 10]]] }),
  }),
  bufferValue: Type.Number({
    minimum: -MAX_BUFFER, maximum: MAX_BUFFER,
    description: 'Buffer distance around the geometry or regions; negative values shrink. Needs bufferUnit. At most half the Earth\'s circumference in the unit (20015.114 KILOMETERS, 12436.815 MILES, 10807.297 NAUTICALMILES, 180 DEGREES, 3.141 RADIANS). GET and bodies: `buffer-value`.',
    ...example(10),
  }),
  bufferUnit: StringEnum(BUFFER_UNITS, 'Unit of bufferValue (GET and bodies: `buffer-unit`).', example('NAUTICALMILES')),
  bufferOperation: StringEnum(BUFFER_OPERATIONS, 'DISSOLVE (default): the buffered shape; DIFFERENCE: only the ring between the shape and its buffer.', example('DISSOLVE')),
};

export const PagingProperties = {
  limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUMBER, description: 'Page size (required). Large pages are streamed.', ...example(10) }),
  offset: Type.Integer({ minimum: 0, maximum: MAX_PAGE_NUMBER, description: 'Zero-based position of the first entry (required).', ...example(0) }),
  sort: Type.Optional(StringEnum(SORT_VALUES, 'Order: +start (default), -start, +end, -end; ties broken by id.', example('-start'))),
};

export const EventFiltersSchema = Type.Object(
  {
    datasets: EventFilterProperties.datasets,
    vessels: Type.Optional(EventFilterProperties.vessels),
    types: Type.Optional(EventFilterProperties.types),
    typesOperator: Type.Optional(EventFilterProperties.typesOperator),
    flags: Type.Optional(EventFilterProperties.flags),
    flagsOperator: Type.Optional(EventFilterProperties.flagsOperator),
    vesselTypes: Type.Optional(EventFilterProperties.vesselTypes),
    vesselTypesOperator: Type.Optional(EventFilterProperties.vesselTypesOperator),
    startDate: Type.Optional(EventFilterProperties.startDate),
    endDate: Type.Optional(EventFilterProperties.endDate),
    timeFilterMode: Type.Optional(EventFilterProperties.timeFilterMode),
    ids: Type.Optional(EventFilterProperties.ids),
    vesselGroups: Type.Optional(EventFilterProperties.vesselGroups),
    confidences: Type.Optional(EventFilterProperties.confidences),
    confidencesOperator: Type.Optional(EventFilterProperties.confidencesOperator),
    encounterTypes: Type.Optional(EventFilterProperties.encounterTypes),
    encounterTypesOperator: Type.Optional(EventFilterProperties.encounterTypesOperator),
    gapIntentionalDisabling: Type.Optional(EventFilterProperties.gapIntentionalDisabling),
    isClosed: Type.Optional(EventFilterProperties.isClosed),
    portIds: Type.Optional(EventFilterProperties.portIds),
    portIdsOperator: Type.Optional(EventFilterProperties.portIdsOperator),
    nextPortIds: Type.Optional(EventFilterProperties.nextPortIds),
    nextPortIdsOperator: Type.Optional(EventFilterProperties.nextPortIdsOperator),
    minDuration: Type.Optional(EventFilterProperties.minDuration),
    maxDuration: Type.Optional(EventFilterProperties.maxDuration),
    regionDatasets: Type.Optional(EventFilterProperties.regionDatasets),
    regionIds: Type.Optional(EventFilterProperties.regionIds),
    bufferValue: Type.Optional(EventFilterProperties.bufferValue),
    bufferUnit: Type.Optional(EventFilterProperties.bufferUnit),
    bufferOperation: Type.Optional(EventFilterProperties.bufferOperation),
  },
  { additionalProperties: false },
);
/** GET /v3/events/tiles/{z}/{x}/{y}.pbf: the list's filters, no geometry (the tile is the area). */
export const TileQuerySchema = Type.Object(EventFiltersSchema.properties, { additionalProperties: false });
/** Members only bodies carry (POST list, stats). */
export const BODY_ONLY_FILTERS = {
  duration: Type.Optional(EventFilterProperties.duration),
  geometry: Type.Optional(EventFilterProperties.geometry),
  region: Type.Optional(EventFilterProperties.region),
  regions: Type.Optional(EventFilterProperties.regions),
};
export type RegionRef = { dataset: string; id: string };
export type EventFilters = Static<typeof EventFiltersSchema> & { duration?: number; geometry?: unknown; region?: RegionRef; regions?: RegionRef[] };

/** How list entries are shaped (docs/api.md, "Entry shaping": includes on GET and POST, the others on GET). */
export type EntryShaping = { includes?: string[]; includeRegions?: boolean; summary?: boolean };

export const PagingSchema = Type.Object(PagingProperties, { additionalProperties: false });

const ListFormatProperty = StringEnum(
  LIST_FORMATS,
  'json (default): the API\'s page; csv: one row per entry, flattened columns; geojson: a FeatureCollection of points with the entries as properties; ndjson: one entry per line; parquet: GeoParquet 1.1, one row per entry, typed columns and structs, the position as a WKB point. Without it, the Accept header chooses (text/csv, application/geo+json, application/x-ndjson, application/vnd.apache.parquet).',
  example('json'),
);
export type Paging = Static<typeof PagingSchema>;

/** GET /v3/events: filters, entry shaping and paging, all in the query string. */
export const ListGetQuerySchema = Type.Object(
  {
    ...EventFiltersSchema.properties,
    includes: Type.Optional(EventFilterProperties.includes),
    includeRegions: Type.Optional(EventFilterProperties.includeRegions),
    summary: Type.Optional(EventFilterProperties.summary),
    ...PagingProperties,
    format: Type.Optional(ListFormatProperty),
  },
  { additionalProperties: false },
);
export type ListGetQuery = Static<typeof ListGetQuerySchema>;

/** POST /v3/events: filters, `duration` (minutes) and `includes` in the body... */
export const ListPostBodySchema = Type.Object(
  { ...EventFiltersSchema.properties, ...BODY_ONLY_FILTERS, includes: Type.Optional(EventFilterProperties.includes) },
  { additionalProperties: false },
);
/** ...and paging (and the format) in the query string, as the official clients send it. */
export const ListPostQuerySchema = Type.Object({ ...PagingProperties, format: Type.Optional(ListFormatProperty) }, { additionalProperties: false });

export const EventByIdParamsSchema = Type.Object({ eventId: Type.String({ minLength: 1, description: 'The event\'s id (`id` of an entry).', ...example('c2f0967e061f0a8e0e0e1b7ab0a3e2c4') }) });
export const EventByIdQuerySchema = Type.Object(
  {
    dataset: Type.String({
      minLength: 1,
      description: 'The one dataset holding the event, `id:version` (required).',
      ...example('public-global-fishing-events:latest'),
      'x-expected': 'one dataset id such as public-global-port-visits-events:latest',
    }),
    raw: Type.Optional(Type.Boolean({ description: 'true: return the stored source record as loaded.', ...example(false) })),
    format: Type.Optional(StringEnum(EVENT_FORMATS, 'json (default): the entry; geojson: a Feature, the event\'s point with the entry as properties (not with raw=true). Without it, the Accept header chooses.', example('json'))),
  },
  { additionalProperties: false },
);
export type EventByIdQuery = Static<typeof EventByIdQuerySchema>;
