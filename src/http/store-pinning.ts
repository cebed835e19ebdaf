// One store per request, from arrival to the last byte of a streamed body: a reload in between
// (src/store/duckdb/reloading-store.ts) never mixes two versions of the data in one answer.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EventStore, StoreProvider } from '../store/store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    pinned: EventStore | null;
  }
}

export function pinStorePerRequest(app: FastifyInstance, stores: StoreProvider): void {
  app.decorateRequest('pinned', null);
  app.addHook('onRequest', async (request) => {
    request.pinned = stores.acquire();
  });
  // onResponse fires once the body is sent (streams included); onRequestAbort when the client left.
  const unpin = async (request: FastifyRequest) => {
    if (request.pinned) stores.release(request.pinned);
    request.pinned = null;
  };
  app.addHook('onResponse', unpin);
  app.addHook('onRequestAbort', unpin);
}

export function pinnedStore(request: FastifyRequest): EventStore {
  if (!request.pinned) throw new Error('no store pinned to this request');
  return request.pinned;
}
