// /v3/events and /v3/events/{eventId}. Handlers only wire the layers: read -> normalize -> store -> shape.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { toPublishedRow } from '../../shape/raw.ts';
import { kindsOf, resolvedName } from '../../query/datasets.ts';
import { notFound } from '../../query/errors.ts';
import { normalizeListQuery, normalizeSingleDataset } from '../../query/normalize.ts';
import type { Spelling } from '../../query/errors.ts';
import {
  EventByIdParamsSchema, EventByIdQuerySchema, ListGetQuerySchema, ListPostBodySchema, ListPostQuerySchema,
} from '../../query/schema.ts';
import type { ListQuery } from '../../query/types.ts';
import type { Buffering } from '../../query/area.ts';
import { featureOf, MEDIA_TYPES, streamListAs } from '../../shape/formats.ts';
import { parquetBody } from '../../shape/parquet.ts';
import { nextOffsetOf } from '../../shape/list-body.ts';
import { EVENT_FORMATS, LIST_FORMATS, type ListFormat } from '../../query/enumerations.ts';
import { invalid } from '../../query/errors.ts';
import { formatOf } from '../format.ts';
import { specFromGfw } from '../../shape/spec-wire.ts';
import { echoQuery } from '../../shape/metadata.ts';
import type { WireFormat } from '../../shape/wire.ts';
import type { EventStore, PageStream } from '../../store/store.ts';
import { pinnedStore } from '../store-pinning.ts';
import { accessOf } from '../auth.ts';
import { answerFromCache, etagOf, setResolvedDatasets } from '../caching.ts';
import { requestReader } from '../read-request.ts';
import { errorResponses, EVENT_FORMATS_RESPONSE, LIST_PAGE_FORMATS, NOT_MODIFIED } from '../schemas.ts';
import { wireFormatOf, WIRE_HEADER_SCHEMA } from '../wire-format.ts';

export interface EventRoutesOptions {
  defaultWire: WireFormat;
  cacheMaxAgeSeconds: number;
  buffering: Buffering;
}

const security = [{ ApiKeyAuth: [] }];

export async function eventRoutes(app: FastifyInstance, options: EventRoutesOptions): Promise<void> {
  const context = (request: FastifyRequest, spelling: Spelling) => ({ catalog: pinnedStore(request), access: accessOf(request), spelling, buffering: options.buffering });
  const readListGet = requestReader({ query: ListGetQuerySchema });
  const readListPost = requestReader({ query: ListPostQuerySchema, body: ListPostBodySchema });
  const readById = requestReader({ query: EventByIdQuerySchema });

  async function sendList(store: EventStore, reply: FastifyReply, list: ListQuery, metadata: Record<string, unknown>, wire: WireFormat, format: ListFormat): Promise<FastifyReply> {
    // The count and the page's first chunk are ready before the first byte: a busy or failing
    // engine is a JSON error (503, 504), never a 200 cut short. A client may leave at any point,
    // even while its page is prepared: a page never begun gives its connection back when the
    // response closes; a page being read, when its stream is destroyed.
    let page: PageStream | undefined;
    let closed = false;
    reply.raw.once('close', () => {
      closed = true;
      void page?.discard();
    });
    const answer = await store.listPage(list);
    const total = answer.total;
    page = answer.page;
    if (closed) await page?.discard();
    const pages = page ?? [];

    const footer = { total, limit: list.limit, offset: list.offset, metadata };
    // The paging a JSON page carries in its body, as headers for the formats that have no room for it.
    reply.header('x-total-count', String(total));
    reply.header('x-next-offset', String(nextOffsetOf(footer) ?? ''));
    const kinds = kindsOf(list.datasets);
    if (format === 'parquet') {
      const left = new AbortController();
      reply.raw.once('close', () => left.abort());
      const body = await parquetBody(pages, kinds, list.shape, left.signal);
      reply.header('content-length', String(body.size)).header('content-disposition', 'attachment; filename="events.parquet"');
      return reply.type(MEDIA_TYPES[format]).send(body.stream);
    }
    return reply.type(MEDIA_TYPES[format]).send(Readable.from(streamListAs(format, pages, footer, wire, list.shape, kinds)));
  }

  app.get('/events', {
    schema: {
      summary: 'List events (GET: cacheable by browsers)',
      operationId: 'listEvents',
      tags: ['events'],
      querystring: ListGetQuerySchema,
      headers: WIRE_HEADER_SCHEMA,
      response: { 200: LIST_PAGE_FORMATS, 304: NOT_MODIFIED, ...errorResponses },
      security,
    },
  }, async (request, reply) => {
    const { query, spelling } = readListGet(request);
    const wire = wireFormatOf(request, options.defaultWire);
    const format = formatOf(request, query.format, LIST_FORMATS);
    const shaping = { includes: query.includes, includeRegions: query.includeRegions, summary: query.summary };
    const list = await normalizeListQuery(query, query, context(request, spelling), shaping);
    setResolvedDatasets(reply, list.datasets);
    const store = pinnedStore(request);
    const metadata = echoQuery(list);
    const etag = etagOf({ operation: 'list', generation: store.generation(), asked: { metadata, wire, format } });
    if (answerFromCache(request, reply, etag, options.cacheMaxAgeSeconds)) return reply;
    return sendList(store, reply, list, metadata, wire, format);
  });

  app.post('/events', {
    schema: {
      summary: 'List events, filters in the body',
      operationId: 'searchEvents',
      tags: ['events'],
      querystring: ListPostQuerySchema,
      body: ListPostBodySchema,
      headers: WIRE_HEADER_SCHEMA,
      response: { 200: LIST_PAGE_FORMATS, ...errorResponses },
      security,
    },
  }, async (request, reply) => {
    const { query, body, spelling } = readListPost(request);
    const wire = wireFormatOf(request, options.defaultWire);
    const list = await normalizeListQuery(body, query, context(request, spelling), { includes: body.includes });
    setResolvedDatasets(reply, list.datasets);
    return sendList(pinnedStore(request), reply, list, echoQuery(list), wire, formatOf(request, query.format, LIST_FORMATS));
  });

  app.get('/events/:eventId', {
    schema: {
      summary: 'Get one event',
      operationId: 'getEvent',
      tags: ['events'],
      params: EventByIdParamsSchema,
      querystring: EventByIdQuerySchema,
      headers: WIRE_HEADER_SCHEMA,
      response: { 200: EVENT_FORMATS_RESPONSE, 304: NOT_MODIFIED, ...errorResponses },
      security,
    },
  }, async (request, reply) => {
    const { eventId } = request.params as { eventId: string };
    const { query, spelling } = readById(request);
    const wire = wireFormatOf(request, options.defaultWire);
    const format = formatOf(request, query.format, EVENT_FORMATS);
    if (query.raw && query.format === 'geojson') throw invalid('format', 'format=geojson applies to the entry; raw=true returns the published row as JSON');
    const dataset = normalizeSingleDataset(query.dataset, context(request, spelling));
    setResolvedDatasets(reply, [dataset]);
    const store = pinnedStore(request);
    const etag = etagOf({ operation: 'by-id', generation: store.generation(), asked: { eventId, dataset: resolvedName(dataset), raw: query.raw === true, wire, format: query.raw ? 'json' : format } });
    if (answerFromCache(request, reply, etag, options.cacheMaxAgeSeconds)) return reply;
    const missing = () => notFound('eventId', `no event "${eventId}" in ${resolvedName(dataset)}`);
    if (query.raw) {
      const record = await store.getRecord(dataset, eventId);
      if (!record) throw missing();
      return reply.type('application/json').send(toPublishedRow(record));
    }
    // The stored entry (`gfw`) is the body as it is; `spec` is derived from it.
    const entry = await store.getEntry(dataset, eventId);
    if (entry === undefined) throw missing();
    if (format === 'geojson') {
      const stored = JSON.parse(entry) as Record<string, unknown>;
      return reply.type(MEDIA_TYPES.geojson).send(JSON.stringify(featureOf(stored, wire === 'gfw' ? stored : specFromGfw(stored))));
    }
    return reply.type('application/json').send(wire === 'gfw' ? entry : specFromGfw(JSON.parse(entry) as Record<string, unknown>));
  });
}
