// GET /metrics in Prometheus' text format (prom-client), when the server runs with --metrics. It
// needs a valid token, as the API does (Prometheus sends one with `authorization: {credentials}`).
// What it counts: requests by route, method and status, with their latency; the time of each kind
// of store call (count, page, stats, by id); the engine's connections in use and queries waiting;
// the requests refused because the engine's memory limit was reached; the embedded engine's memory;
// the loaded versions and their rows; and the process (memory, CPU, event loop: prom-client's
// default metrics).
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TokenVerifier } from '../auth/tokens.ts';
import type { EventStore, StoreProvider } from '../store/store.ts';
import { authenticate } from './auth.ts';
import { EngineOutOfMemory } from '../query/errors.ts';

const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Store calls timed, by the class they are reported as. */
const QUERY_CLASSES: Record<string, string> = { listPage: 'list', count: 'count', search: 'page', stats: 'stats', getEntry: 'by_id', getRecord: 'by_id', vesselIdentities: 'vessel_identities' };

export interface Metrics {
  /** The provider to serve from: its stores time their calls. */
  stores: StoreProvider;
  register(app: FastifyInstance, tokens: TokenVerifier): void;
}

export function createMetrics(inner: StoreProvider): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'vessel_events_' });
  const requests = new Counter({ name: 'vessel_events_http_requests_total', help: 'HTTP requests answered, by route, method and status', labelNames: ['route', 'method', 'status'], registers: [registry] });
  const latency = new Histogram({ name: 'vessel_events_http_request_duration_seconds', help: 'time from a request\'s arrival to its last byte', labelNames: ['route', 'method', 'status'], buckets: LATENCY_BUCKETS, registers: [registry] });
  const outOfMemory = new Counter({ name: 'vessel_events_engine_out_of_memory_total', help: 'requests answered 503 because the engine reached its memory limit (--memory-limit)', registers: [registry] });
  const queries = new Histogram({ name: 'vessel_events_query_duration_seconds', help: 'time of the store\'s calls by class (a page: until its first rows)', labelNames: ['class'], buckets: LATENCY_BUCKETS, registers: [registry] });
  new Gauge({
    name: 'vessel_events_engine_connections', help: 'the engine\'s connections: size, in_use, and queries waiting for one', labelNames: ['state'], registers: [registry],
    collect() {
      const load = inner.current().engineLoad();
      this.set({ state: 'size' }, load.size);
      this.set({ state: 'in_use' }, load.inUse);
      this.set({ state: 'waiting' }, load.waiting);
    },
  });
  new Gauge({
    // Labelled, so that it has no sample at all where the engine's memory is its server's.
    name: 'vessel_events_engine_memory_bytes', help: 'what the embedded engine holds in its buffer pool (cached blocks and working memory, bounded by --memory-limit); absent on PostgreSQL', labelNames: ['engine'], registers: [registry],
    async collect() {
      this.reset();
      const bytes = await inner.current().engineMemoryBytes();
      if (bytes !== undefined) this.set({ engine: 'duckdb' }, bytes);
    },
  });
  new Gauge({
    name: 'vessel_events_loaded_rows', help: 'events in each loaded dataset version', labelNames: ['dataset'], registers: [registry],
    collect() {
      this.reset();
      for (const v of inner.current().versions()) this.set({ dataset: `${v.datasetId}:${v.version}` }, v.rowCount);
    },
  });
  new Gauge({
    name: 'vessel_events_loaded_versions', help: 'dataset versions loaded', registers: [registry],
    collect() {
      this.set(inner.current().versions().length);
    },
  });

  const observe = (name: string, seconds: number) => queries.observe({ class: QUERY_CLASSES[name]! }, seconds);
  const timed = new WeakMap<EventStore, EventStore>();
  const originals = new WeakMap<EventStore, EventStore>();
  const wrap = (store: EventStore): EventStore => {
    let proxy = timed.get(store);
    if (!proxy) {
      proxy = timedStore(store, observe);
      timed.set(store, proxy);
      originals.set(proxy, store);
    }
    return proxy;
  };
  const stores: StoreProvider = {
    acquire: () => wrap(inner.acquire()),
    release: (store) => inner.release(originals.get(store) ?? store),
    current: () => wrap(inner.current()),
    refresh: (reason) => inner.refresh(reason),
    close: () => inner.close(),
  };

  return {
    stores,
    register(app, tokens) {
      app.addHook('onResponse', async (request, reply) => {
        // The route's pattern, never the raw URL: a label per URL would grow without bound.
        const labels = { route: request.routeOptions.url ?? 'unmatched', method: request.method, status: String(reply.statusCode) };
        requests.inc(labels);
        latency.observe(labels, reply.elapsedTime / 1000);
      });
      app.addHook('onError', async (_request, _reply, error) => {
        if (error instanceof EngineOutOfMemory) outOfMemory.inc();
      });
      app.get('/metrics', { onRequest: authenticate(tokens), schema: { hide: true } }, async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
    },
  };
}

/** The store with its query calls timed; everything else passes through. */
function timedStore(store: EventStore, observe: (name: string, seconds: number) => void): EventStore {
  return new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      if (typeof property !== 'string' || !QUERY_CLASSES[property]) return value.bind(target);
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          observe(property, (performance.now() - started) / 1000);
        }
      };
    },
  });
}
