// buildApp: the HTTP application, never listening itself (tests use inject; src/cli/serve.ts listens).
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import { constants as zlibConstants } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import type { TokenVerifier } from './auth/tokens.ts';
import { authenticate } from './http/auth.ts';
import { onClientError, onFrameworkError, registerErrorHandling } from './http/error-handler.ts';
import { registerJsonBodies } from './http/json-body.ts';
import { RATE_LIMIT_HEADERS, registerRateLimits } from './http/rate-limit.ts';
import { registerDocs } from './http/docs.ts';
import { createMetrics } from './http/metrics.ts';
import { eventRoutes } from './http/routes/events.ts';
import { contextLayerRoutes } from './http/routes/context-layers.ts';
import { explorerRoutes } from './http/routes/explorer.ts';
import { landingRoutes } from './http/routes/landing.ts';
import { operationRoutes } from './http/routes/operations.ts';
import { statsRoutes } from './http/routes/stats.ts';
import { tileRoutes } from './http/routes/tiles.ts';
import { vesselRoutes } from './http/routes/vessels.ts';
import { insightRoutes } from './http/routes/insights.ts';
import { WIRE_FORMAT_HEADER, type WireFormat } from './shape/wire.ts';
import type { StoreProvider } from './store/store.ts';
import { pinStorePerRequest } from './http/store-pinning.ts';
import { BufferThread } from './geo/buffer-thread.ts';
import type { Buffering } from './query/area.ts';

export interface AppOptions {
  stores: StoreProvider;
  tokens: TokenVerifier;
  wire: WireFormat;
  cacheMaxAgeSeconds: number;
  bodyLimitBytes: number;
  /** Requests per minute per token without a limit of its own; 0 or absent: none. */
  rateLimitPerMinute?: number;
  /** Serve Prometheus metrics at /metrics (src/http/metrics.ts). */
  metrics?: boolean;
  /** How long one buffer may take to compute (413 after it); 5 s by default. */
  bufferDeadlineMs?: number;
  logger?: FastifyServerOptions['logger'];
}

export const API_PREFIXES = ['/v3', '/api/v3'];
const JSON_TYPE = 'application/json; charset=utf-8';

/** The service as the process entry holds it (the framework's type stays behind src/http and this file). */
export type App = FastifyInstance;

export async function buildApp(options: AppOptions): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimitBytes,
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: true,
    frameworkErrors: onFrameworkError,
    clientErrorHandler: onClientError,
  });
  // Requests are validated by src/http/wire-syntax.ts with the same schemas (it also maps
  // spellings and aliases first), and responses are written by src/shape, whose key order and
  // wire types the official clients depend on. The route schemas document both in /openapi.json.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Bodies are JSON only: any other media type is a 415 rather than a string the reader rejects.
  app.removeContentTypeParser('text/plain');
  registerJsonBodies(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // One media type for every JSON body, streamed pages and plugins' answers included.
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && /^application\/json\s*(;|$)/i.test(type) && !/charset=/i.test(type)) {
      reply.header('content-type', JSON_TYPE);
    }
  });

  registerErrorHandling(app);
  // First, so that its hook sees every route's answers; its stores time their queries.
  let stores = options.stores;
  if (options.metrics) {
    const metrics = createMetrics(options.stores);
    metrics.register(app, options.tokens);
    stores = metrics.stores;
  }
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-None-Match', WIRE_FORMAT_HEADER],
    exposedHeaders: ['ETag', 'x-datasets', 'x-request-id', 'x-total-count', 'x-next-offset', 'WWW-Authenticate', ...RATE_LIMIT_HEADERS],
    maxAge: 86400,
    // An OPTIONS without Origin is no CORS preflight; it gets the same empty answer, not a plain-text 400.
    strictPreflight: false,
  });
  // gzip or brotli when the client accepts it, streamed pages included, at their fastest levels
  // (nginx's default for gzip is 1 too). A page of 100 entries (144 KB): gzip 1 gives 17.3 KB in
  // 0.80 ms where the default 6 gives 14.2 KB in 1.74 ms; brotli 1 gives 14.9 KB in 0.25 ms where 4
  // gives 13.2 KB in 0.83 ms. Over HTTP on PostgreSQL that was 0.8 ms (gzip) and 1.5 ms (brotli)
  // off an 11 ms request (docs/performance.md, "What the service adds").
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    // NDJSON pages too (JSON, GeoJSON and CSV are compressible by their media types already).
    customTypes: /^application\/x-ndjson/,
    zlibOptions: { level: 1 },
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } },
  });
  // Buffers run off the event loop, with a deadline (src/geo/buffer-thread.ts).
  const buffers = new BufferThread({ deadlineMs: options.bufferDeadlineMs });
  app.addHook('onClose', () => buffers.close());
  const buffering: Buffering = (polygons, value, unit, operation) => buffers.buffer(polygons, value, unit, operation);

  await registerDocs(app, { stores, buffering, wire: options.wire });
  await app.register(operationRoutes, { stores });
  await app.register(landingRoutes, { stores });
  await app.register(explorerRoutes);

  for (const prefix of API_PREFIXES) {
    await app.register(
      async (api) => {
        api.addHook('onRequest', authenticate(options.tokens));
        await registerRateLimits(api, options.rateLimitPerMinute ?? 0);
        pinStorePerRequest(api, stores);
        await api.register(eventRoutes, { defaultWire: options.wire, cacheMaxAgeSeconds: options.cacheMaxAgeSeconds, buffering });
        await api.register(statsRoutes, { cacheMaxAgeSeconds: options.cacheMaxAgeSeconds, buffering });
        await api.register(tileRoutes, { cacheMaxAgeSeconds: options.cacheMaxAgeSeconds, buffering });
        await api.register(contextLayerRoutes, { cacheMaxAgeSeconds: options.cacheMaxAgeSeconds });
        await api.register(vesselRoutes, { cacheMaxAgeSeconds: options.cacheMaxAgeSeconds });
        await api.register(insightRoutes);
      },
      { prefix },
    );
  }
  return app;
}
