// Operational routes outside the versioned API; they need no token (docs/api.md, "Access").
import type { FastifyInstance } from 'fastify';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { DatasetVersion } from '../../query/datasets.ts';
import type { StoreProvider } from '../../store/store.ts';
import { Type } from '@sinclair/typebox';
import { sendError } from '../error-handler.ts';
import { ErrorSchema } from '../schemas.ts';

const HealthSchema = Type.Object({
  status: Type.Literal('ok'),
  eventLoop: Type.Object({
    delayMaxMs: Type.Number({ description: 'the longest the event loop was late since the server started, ms' }),
    delayP99Ms: Type.Number({ description: 'the 99th percentile of its lateness, sampled every 10 ms' }),
  }, { description: 'How late the event loop that answers every request has run: a slow answer with a punctual loop waited elsewhere (for a core, on the network).' }),
});
const ReadySchema = Type.Object({
  status: Type.Literal('ready'),
  datasets: Type.Array(Type.Object({
    dataset: Type.String({ description: 'id:version' }), rows: Type.Integer(), loadedAt: Type.String(), lastUpdated: Type.Union([Type.String(), Type.Null()]),
  })),
  latest: Type.Array(Type.String(), { description: 'the version `latest` resolves to, per dataset' }),
  warnings: Type.Optional(Type.Array(Type.String(), { description: 'present when something makes answers slower than they should be (a point file missing beside a copied database), each with the command that mends it' })),
});

export async function operationRoutes(app: FastifyInstance, options: { stores: StoreProvider }): Promise<void> {
  const lateness = monitorEventLoopDelay({ resolution: 10 });
  lateness.enable();
  app.addHook('onClose', async () => lateness.disable());
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  app.get('/healthz', { schema: { summary: 'The process is up', operationId: 'health', tags: ['operations'], security: [], response: { 200: HealthSchema } } }, async () => ({
    status: 'ok',
    eventLoop: { delayMaxMs: ms(lateness.max), delayP99Ms: ms(lateness.percentile(99)) },
  }));

  app.get('/readyz', { schema: { summary: 'Data is loaded and queries can be answered', operationId: 'readiness', tags: ['operations'], security: [], response: { 200: ReadySchema, 503: ErrorSchema } } }, async (_request, reply) => {
    const store = options.stores.current();
    if (!store.ready()) return sendError(reply, 503, [{ title: 'Not ready', detail: 'no dataset is loaded; load data with "vessel-events load"' }]);
    const warnings = store.storageWarnings();
    return { status: 'ready', ...loadedDatasets(store.versions()), ...(warnings.length > 0 ? { warnings } : {}) };
  });
}

/** The loaded dataset versions, and the one `latest` resolves to for each kind (readiness, landing page). */
export function loadedDatasets(versions: readonly DatasetVersion[]): { datasets: { dataset: string; rows: number; loadedAt: string; lastUpdated: string | null }[]; latest: string[] } {
  return {
    datasets: versions.map((v) => ({ dataset: `${v.datasetId}:${v.version}`, rows: v.rowCount, loadedAt: v.loadedAt, lastUpdated: v.lastUpdated })),
    latest: [...new Set(versions.map((v) => v.kind))].map((kind) => {
      const newest = versions.filter((v) => v.kind === kind).reduce((a, b) => (b.versionId > a.versionId ? b : a));
      return `${newest.datasetId}:${newest.version}`;
    }),
  };
}
