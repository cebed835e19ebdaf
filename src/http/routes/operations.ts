// Operational routes outside the versioned API; they need no token (decisions section 1).
import type { FastifyInstance } from 'fastify';
import type { StoreProvider } from '../../store/store.ts';
import { sendError } from '../error-handler.ts';

export async function operationRoutes(app: FastifyInstance, options: { stores: StoreProvider }): Promise<void> {
  app.get('/healthz', { schema: { summary: 'The process is up', tags: ['operations'] } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { summary: 'Data is loaded and queries can be answered', tags: ['operations'] } }, async (_request, reply) => {
    const store = options.stores.current();
    if (!store.ready()) return sendError(reply, 503, [{ title: 'Not ready', detail: 'no dataset is loaded; load data with "vessel-events load"' }]);
    const versions = store.versions();
    return {
      status: 'ready',
      datasets: versions.map((v) => ({ dataset: `${v.datasetId}:${v.version}`, rows: v.rowCount, loadedAt: v.loadedAt, lastUpdated: v.lastUpdated })),
      latest: [...new Set(versions.map((v) => v.kind))].map((kind) => {
        const newest = versions.filter((v) => v.kind === kind).reduce((a, b) => (b.versionId > a.versionId ? b : a));
        return `${newest.datasetId}:${newest.version}`;
      }),
    };
  });
}
