// The Vessels API (docs/api.md, "Vessels"): /v3/vessels/search, /v3/vessels/{vesselId} and
// /v3/vessels?ids=..., answered from the vessels the loaded events describe (src/vessels/), in the
// shapes the official clients parse (src/shape/vessel-item.ts).
import type { FastifyInstance } from 'fastify';
import { Type, type TSchema } from '@sinclair/typebox';
import { notFound } from '../../query/errors.ts';
import {
  checkVesselAccess, normalizeVesselLookup, normalizeVesselSearch, VESSEL_DATASET_LATEST, VesselByIdParamsSchema, VesselByIdQuerySchema, VesselListQuerySchema, VesselSearchQuerySchema, writeCursor,
  type VesselLookup,
} from '../../query/vessel-params.ts';
import { vesselItem, type RegistryDetail } from '../../shape/vessel-item.ts';
import { vesselDirectory } from '../../vessels/directories.ts';
import { matchLevel, type Vessel, type VesselDirectory } from '../../vessels/directory.ts';
import { accessOf } from '../auth.ts';
import { answerFromCache, etagOf } from '../caching.ts';
import { requestReader } from '../read-request.ts';
import { errorResponses, NOT_MODIFIED } from '../schemas.ts';
import { pinnedStore } from '../store-pinning.ts';

const nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const TypeSpan = Type.Object({ name: Type.String(), source: Type.String({ description: 'EVENTS: reported in the events\' vessel blocks' }), yearFrom: Type.Integer(), yearTo: Type.Integer() });
const VesselItemSchema = Type.Object({
  registryInfoTotalRecords: Type.Integer({ description: 'registry records matched: 0, no registry is loaded' }),
  registryInfo: Type.Array(Type.Unknown()),
  registryOwners: Type.Optional(Type.Array(Type.Unknown(), { description: 'with OWNERSHIP (always by id)' })),
  registryPublicAuthorizations: Type.Optional(Type.Array(Type.Unknown(), { description: 'with AUTHORIZATIONS (always by id)' })),
  combinedSourcesInfo: Type.Array(Type.Object({ vesselId: Type.String(), geartypes: Type.Array(TypeSpan), shiptypes: Type.Array(TypeSpan) })),
  selfReportedInfo: Type.Array(Type.Object({
    id: Type.String({ description: 'the vessel id, as events carry it' }),
    ssvid: nullable(Type.String()), shipname: nullable(Type.String()), nShipname: nullable(Type.String()), flag: nullable(Type.String()),
    callsign: Type.Null({ description: 'events carry none' }), imo: Type.Null({ description: 'events carry none' }),
    messagesCounter: Type.Null({ description: 'positions are not held here' }), positionsCounter: Type.Null({ description: 'positions are not held here' }),
    sourceCode: Type.Array(Type.String()), matchFields: Type.String(),
    transmissionDateFrom: Type.String({ description: 'the earliest start of its events under this identity' }),
    transmissionDateTo: Type.String({ description: 'the latest end (or start) of its events under this identity' }),
  }), { description: 'each identity the events report, the latest first' }),
  matchCriteria: Type.Optional(Type.Array(Type.Object({ reference: Type.String(), source: Type.String(), latestVesselInfo: Type.Boolean(), matchFields: Type.String() }), { description: 'with MATCH_CRITERIA' })),
  dataset: Type.String(),
});
const SearchResponseSchema = Type.Object({
  metadata: Type.Object({ query: nullable(Type.String()), where: nullable(Type.String()), datasets: Type.Array(Type.String()) }),
  since: nullable(Type.String({ description: 'the cursor of the next page (send it as since), null on the last' })),
  total: Type.Integer({ description: 'vessels found' }),
  limit: Type.Integer(),
  entries: Type.Array(VesselItemSchema),
});
const ListResponseSchema = Type.Object({
  metadata: Type.Object({ datasets: Type.Array(Type.String()) }),
  total: Type.Integer(),
  entries: Type.Array(VesselItemSchema, { description: 'in the order of ids' }),
});
const security = [{ ApiKeyAuth: [] }];
const tags = ['vessels'];

export async function vesselRoutes(app: FastifyInstance, options: { cacheMaxAgeSeconds: number }): Promise<void> {
  const readSearch = requestReader({ query: VesselSearchQuerySchema });
  const readById = requestReader({ query: VesselByIdQuerySchema });
  const readList = requestReader({ query: VesselListQuerySchema });

  app.get('/vessels/search', {
    schema: {
      summary: 'Find vessels by id, MMSI or name (query), or by where',
      operationId: 'searchVessels', tags, querystring: VesselSearchQuerySchema,
      response: { 200: SearchResponseSchema, 304: NOT_MODIFIED, ...errorResponses }, security,
    },
  }, async (request, reply) => {
    const { query: params, spelling } = readSearch(request);
    checkVesselAccess(accessOf(request));
    const search = normalizeVesselSearch(params, spelling);
    const store = pinnedStore(request);
    const etag = etagOf({ operation: 'vessel-search', generation: store.generation(), asked: { fingerprint: search.fingerprint, offset: search.offset, limit: search.limit, includes: [...search.includes].sort() } });
    if (answerFromCache(request, reply, etag, options.cacheMaxAgeSeconds)) return reply;
    const directory = await vesselDirectory(store);
    const found = directory.search({ query: search.query, where: search.where }, search.matchLevels);
    const end = search.offset + search.limit;
    return reply.type('application/json').send(JSON.stringify({
      metadata: { query: search.query ?? null, where: params.where ?? null, datasets: [VESSEL_DATASET_LATEST] },
      since: end < found.length ? writeCursor(end, search.fingerprint) : null,
      total: found.length,
      limit: search.limit,
      entries: found.slice(search.offset, end).map((v) => vesselItem(v, search.includes)),
    }));
  });

  app.get('/vessels/:vesselId', {
    schema: {
      summary: 'One vessel by its id',
      operationId: 'vesselById', tags, params: VesselByIdParamsSchema, querystring: VesselByIdQuerySchema,
      response: { 200: VesselItemSchema, 304: NOT_MODIFIED, ...errorResponses }, security,
    },
  }, async (request, reply) => {
    const { query: params, spelling } = readById(request);
    checkVesselAccess(accessOf(request));
    const { vesselId } = request.params as { vesselId: string };
    const lookup = normalizeVesselLookup({ ...params, ids: [vesselId] }, spelling);
    const store = pinnedStore(request);
    if (answerFromCache(request, reply, etagOf({ operation: 'vessel', generation: store.generation(), asked: { vesselId, levels: [...(lookup.matchLevels ?? [])].sort(), detail: params.registriesInfoData ?? 'ALL' } }), options.cacheMaxAgeSeconds)) return reply;
    const [vessel] = vesselsOf(await vesselDirectory(store), lookup, 'vesselId');
    if (!vessel) throw notFound(spelling('matchFields'), `vessel "${vesselId}" is not at the levels ${spelling('matchFields')} asks for`);
    return reply.type('application/json').send(JSON.stringify(vesselItem(vessel, undefined, (params.registriesInfoData ?? 'ALL') as RegistryDetail)));
  });

  app.get('/vessels', {
    schema: {
      summary: 'Vessels by their ids',
      operationId: 'vesselsByIds', tags, querystring: VesselListQuerySchema,
      response: { 200: ListResponseSchema, 304: NOT_MODIFIED, ...errorResponses }, security,
    },
  }, async (request, reply) => {
    const { query: params, spelling } = readList(request);
    checkVesselAccess(accessOf(request));
    const lookup = normalizeVesselLookup(params, spelling);
    const store = pinnedStore(request);
    if (answerFromCache(request, reply, etagOf({ operation: 'vessels', generation: store.generation(), asked: { ids: lookup.ids, levels: [...(lookup.matchLevels ?? [])].sort(), detail: params.registriesInfoData ?? 'ALL' } }), options.cacheMaxAgeSeconds)) return reply;
    const vessels = vesselsOf(await vesselDirectory(store), lookup, spelling('ids'));
    return reply.type('application/json').send(JSON.stringify({ metadata: { datasets: [VESSEL_DATASET_LATEST] }, total: vessels.length, entries: vessels.map((v) => vesselItem(v, undefined, (params.registriesInfoData ?? 'ALL') as RegistryDetail)) }));
  });
}

/** The vessels of a lookup, in its order; an id no loaded event carries is a 404 naming it. */
function vesselsOf(directory: VesselDirectory, lookup: VesselLookup, title: string): Vessel[] {
  const unknown = lookup.ids.filter((id) => !directory.vessel(id));
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 5).map((id) => `"${id}"`).join(', ');
    throw notFound(title, `no loaded event carries the vessel id${unknown.length > 1 ? 's' : ''} ${shown}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}`);
  }
  return keepLevels(lookup.ids.map((id) => directory.vessel(id)!), lookup.matchLevels);
}

/** match-fields: the vessels at those levels (SEVERAL_FIELDS with registry records, else NO_MATCH). */
function keepLevels(vessels: Vessel[], levels: ReadonlySet<string> | undefined): Vessel[] {
  return !levels ? vessels : vessels.filter((v) => levels.has(matchLevel(v)));
}
