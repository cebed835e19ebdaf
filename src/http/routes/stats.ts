// /v3/events/stats (docs/api.md, "Statistics"): the list's filters through the same reader,
// normaliser and filter compiler, plus the stats options.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { normalizeEventQuery } from '../../query/normalize.ts';
import type { Spelling } from '../../query/errors.ts';
import type { Buffering } from '../../query/area.ts';
import { REGION_MEMBERS } from '../../domain/regions.ts';
import { EmptyQuerySchema, GROUP_REGION_MEMBER, normalizeStatsOptions, StatsGetQuerySchema, StatsPostBodySchema, type StatsOptionsNormalized } from '../../query/stats.ts';
import type { EventStats, EventStore } from '../../store/store.ts';
import { echoQuery } from '../../shape/metadata.ts';
import { accessOf } from '../auth.ts';
import { answerFromCache, etagOf, setResolvedDatasets } from '../caching.ts';
import { requestReader } from '../read-request.ts';
import { errorResponses, NOT_MODIFIED } from '../schemas.ts';
import { pinnedStore } from '../store-pinning.ts';

const StatsResponseSchema = Type.Object({
  numEvents: Type.Optional(Type.Integer({ description: 'entries matching (the list\'s total)' })),
  numFlags: Type.Optional(Type.Integer()),
  numVessels: Type.Optional(Type.Integer({ description: 'distinct vessel.id' })),
  flags: Type.Optional(Type.Array(Type.String(), { description: 'distinct non-null flags, sorted' })),
  timeseries: Type.Optional(Type.Array(Type.Object({ date: Type.String(), value: Type.Integer() }), { description: 'entries per bucket of start (UTC); empty buckets omitted' })),
  groups: Type.Optional(Type.Array(Type.Object({ name: Type.String(), label: Type.Optional(Type.Union([Type.String(), Type.Null()])), flag: Type.Optional(Type.Union([Type.String(), Type.Null()])), value: Type.Integer() }), {
    description: 'by value descending, then name; NEXT_PORT_ID adds label (port name) and flag (port country); REGION_* adds label (the region\'s name) where its geometry was loaded with one',
  })),
});
const security = [{ ApiKeyAuth: [] }];

export async function statsRoutes(app: FastifyInstance, options: { cacheMaxAgeSeconds: number; buffering: Buffering }): Promise<void> {
  const context = (request: FastifyRequest, spelling: Spelling) => ({ catalog: pinnedStore(request), access: accessOf(request), spelling, buffering: options.buffering });

  const readPost = requestReader({ query: EmptyQuerySchema, body: StatsPostBodySchema });
  const readGet = requestReader({ query: StatsGetQuerySchema });

  app.post('/events/stats', {
    schema: { summary: 'Event statistics, filters in the body', operationId: 'searchEventStats', tags: ['statistics'], querystring: EmptyQuerySchema, body: StatsPostBodySchema, response: { 200: StatsResponseSchema, ...errorResponses }, security },
  }, async (request, reply) => {
    const { body, spelling } = readPost(request);
    const query = await normalizeEventQuery(body, context(request, spelling));
    const stats = normalizeStatsOptions(body, spelling);
    setResolvedDatasets(reply, query.datasets);
    const store = pinnedStore(request);
    return reply.type('application/json').send(labelRegions(await store.stats(query, stats), stats, store));
  });

  app.get('/events/stats', {
    schema: { summary: 'Event statistics (GET: cacheable by browsers)', operationId: 'eventStats', tags: ['statistics'], querystring: StatsGetQuerySchema, response: { 200: StatsResponseSchema, 304: NOT_MODIFIED, ...errorResponses }, security },
  }, async (request, reply) => {
    const { query: params, spelling } = readGet(request);
    const query = await normalizeEventQuery(params, context(request, spelling));
    const stats = normalizeStatsOptions(params, spelling);
    setResolvedDatasets(reply, query.datasets);
    const store = pinnedStore(request);
    const etag = etagOf({ operation: 'stats', generation: store.generation(), asked: { query: echoQuery(query), stats: { ...stats, includes: [...stats.includes] } } });
    if (answerFromCache(request, reply, etag, options.cacheMaxAgeSeconds)) return reply;
    return reply.type('application/json').send(labelRegions(await store.stats(query, stats), stats, store));
  });
}

/** REGION_* groups carry the region's name as `label` where one was loaded, as NEXT_PORT_ID groups carry the port's. */
export function labelRegions(stats: EventStats, options: StatsOptionsNormalized, store: EventStore): EventStats {
  const member = options.groupBy && GROUP_REGION_MEMBER[options.groupBy];
  if (!member || !stats.groups) return stats;
  const dataset = REGION_MEMBERS.find((m) => m.member === member)!.dataset;
  return {
    ...stats,
    groups: stats.groups.map((g) => {
      const label = store.regionName(dataset, g.name);
      return label === null ? g : { name: g.name, label, value: g.value };
    }),
  };
}
