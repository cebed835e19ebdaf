// GET /v3/datasets/{dataset}/context-layers: the regions of a region dataset, in the shapes the
// official clients read (the Python client's `references` models, gfwr's gfw_regions() and
// gfw_region_id()): a JSON array of {id, label} with an EEZ's numeric id and `iso3`, an MPA's
// `NAME` and an RFMO's `ID`. The regions are those loaded events carry and those whose geometry
// was loaded (`vessel-events regions load`); a region's label is its loaded name, else its id.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { isRegionDataset, REGION_DATASETS } from '../../domain/regions.ts';
import { notFound } from '../../query/errors.ts';
import type { EventStore } from '../../store/store.ts';
import { answerFromCache, etagOf } from '../caching.ts';
import { errorResponses, NOT_MODIFIED } from '../schemas.ts';
import { pinnedStore } from '../store-pinning.ts';

const RegionItemSchema = Type.Object({
  id: Type.Union([Type.Integer(), Type.String()], { description: 'the id filters and groups use: a number for EEZs (Marine Regions MRGID), else a string' }),
  label: Type.String({ description: 'the loaded name, else the id' }),
  iso3: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'EEZs: the country (ISO3) when loaded with the geometry' })),
  NAME: Type.Optional(Type.String({ description: 'MPAs: the name (as GFW spells the member)' })),
  ID: Type.Optional(Type.String({ description: 'RFMOs: the id again (as GFW spells the member)' })),
}, { additionalProperties: false });

/** One region as the clients read it, per region dataset. */
function item(dataset: string, r: { id: string; name: string | null; iso3: string | null }): Record<string, unknown> {
  const label = r.name ?? r.id;
  if (dataset === 'public-eez-areas') return { id: /^\d+$/.test(r.id) ? Number(r.id) : r.id, label, iso3: r.iso3 };
  if (dataset.startsWith('public-mpa-')) return { id: r.id, label, NAME: label };
  if (dataset === 'public-rfmo') return { id: r.id, label, ID: r.id };
  return { id: r.id, label };
}

export function regionItems(store: EventStore, dataset: string): Record<string, unknown>[] {
  return store.regionList(dataset).map((r) => item(dataset, r));
}

export async function contextLayerRoutes(app: FastifyInstance, options: { cacheMaxAgeSeconds: number }): Promise<void> {
  app.get('/datasets/:dataset/context-layers', {
    schema: {
      summary: 'The regions of a region dataset (EEZs, MPAs, RFMOs, ...), as the official clients list them',
      operationId: 'regionList',
      tags: ['regions'],
      params: Type.Object({
        dataset: Type.String({ enum: Object.keys(REGION_DATASETS), description: 'A region dataset; the clients ask for public-eez-areas, public-mpa-all and public-rfmo.', examples: ['public-eez-areas'] }),
      }),
      response: { 200: Type.Array(RegionItemSchema), 304: NOT_MODIFIED, ...errorResponses },
      security: [{ ApiKeyAuth: [] }],
    },
  }, async (request, reply) => {
    const { dataset } = request.params as { dataset: string };
    if (!isRegionDataset(dataset)) {
      throw notFound('dataset', `no region dataset "${dataset}"; known: ${Object.keys(REGION_DATASETS).join(', ')}`);
    }
    const store = pinnedStore(request);
    if (answerFromCache(request, reply, etagOf({ operation: 'context-layers', generation: store.generation(), asked: { dataset } }), options.cacheMaxAgeSeconds)) return reply;
    return reply.type('application/json').send(JSON.stringify(regionItems(store, dataset)));
  });

  // Beyond the GFW API: one region's outline, for maps (the explorer draws the region it filters by).
  app.get('/datasets/:dataset/context-layers/:id', {
    schema: {
      summary: 'One region\'s loaded outline, as a GeoJSON Feature',
      operationId: 'regionOutline',
      tags: ['regions'],
      params: Type.Object({
        dataset: Type.String({ enum: Object.keys(REGION_DATASETS), description: 'A region dataset.', examples: ['public-eez-areas'] }),
        id: Type.String({ minLength: 1, description: 'The region\'s id.', examples: ['8371'] }),
      }),
      response: {
        200: {
          description: 'the region as a Feature: its id, label and loaded geometry (MultiPolygon)',
          content: { 'application/geo+json': { schema: Type.Object({ type: Type.Literal('Feature'), id: Type.String(), properties: Type.Object({ id: Type.String(), label: Type.String() }), geometry: Type.Object({ type: Type.Literal('MultiPolygon'), coordinates: Type.Array(Type.Unknown()) }) }) } },
        },
        304: NOT_MODIFIED, ...errorResponses,
      },
      security: [{ ApiKeyAuth: [] }],
    },
  }, async (request, reply) => {
    const { dataset, id } = request.params as { dataset: string; id: string };
    const store = pinnedStore(request);
    const polygons = isRegionDataset(dataset) ? store.regionGeometry(dataset, id) : undefined;
    if (!polygons) throw notFound('id', `no loaded geometry for region "${id}" of ${dataset}; load it with "vessel-events regions load"`);
    if (answerFromCache(request, reply, etagOf({ operation: 'region-outline', generation: store.generation(), asked: { dataset, id } }), options.cacheMaxAgeSeconds)) return reply;
    const label = store.regionName(dataset, id) ?? id;
    return reply.type('application/geo+json').send(JSON.stringify({ type: 'Feature', id, properties: { id, label }, geometry: { type: 'MultiPolygon', coordinates: polygons } }));
  });
}
