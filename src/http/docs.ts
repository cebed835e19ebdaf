// The API's documentation: /openapi.json (OpenAPI 3.1, generated from the routes' TypeBox schemas)
// and /docs (Swagger UI, served from the package, working offline). The /api/v3 twins are left out
// of both (the description says every /v3 route is also served there); the examples that name data
// come from the loaded data (src/http/live-examples.ts).
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Buffering } from '../query/area.ts';
import type { WireFormat } from '../shape/wire.ts';
import type { EventStore, StoreProvider } from '../store/store.ts';
import { LIST_PREFILLED, liveExamples, type LiveExamples } from './live-examples.ts';
import { openApiDocument } from './openapi.ts';

/** Parameters and body members whose static examples name data that may not be loaded. */
const DATA_NAMING = ['vessels', 'ids', 'vesselGroups', 'regionDatasets', 'regionIds', 'region', 'nextPortIds', 'bufferValue', 'bufferUnit', 'bufferOperation', 'geometry'];
/** Members a body example leaves out: the GET spelling of a region, and what POST puts in the query. */
const NOT_IN_BODY = ['regionDatasets', 'regionIds', 'limit', 'offset', 'sort', 'summary', 'includeRegions'];

/** The operations that list events: they pre-fill only LIST_PREFILLED. */
const LIST_OPERATIONS = ['listEvents', 'searchEvents'];

type Parameter = { name: string; in: string; example?: unknown; examples?: unknown; schema?: Record<string, unknown> };

interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown; schema?: { properties?: Record<string, unknown> } }> };
  responses?: Record<string, { content?: Record<string, { example?: unknown }> }>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

export async function registerDocs(app: FastifyInstance, options: { stores: StoreProvider; buffering: Buffering; wire: WireFormat }): Promise<void> {
  await app.register(swagger, {
    openapi: openApiDocument(),
    transform: ({ schema, url }) => ({ schema: url.startsWith('/api/') ? { ...schema, hide: true } : schema, url }),
  });
  const examples = new LiveExampleCache(options.stores, (store) => liveExamples(store, options.buffering, options.wire), (e) => app.log.warn({ err: e }, 'examples from the loaded data failed; the docs show the static ones'));
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    theme: { title: 'Vessel Activity Events Service: API documentation' },
    // The base layout: no top bar with the framework's logo and the document's URL.
    uiConfig: { layout: 'BaseLayout', deepLinking: true, persistAuthorization: true, tryItOutEnabled: true, defaultModelsExpandDepth: 0 },
    uiHooks: { onRequest: async () => examples.refresh() },
    transformSpecification: (spec) => examples.apply(spec as Document),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => {
    await examples.refresh();
    return examples.apply(structuredClone(app.swagger()) as Document);
  });
}

/** The live examples of the newest loaded generation, computed on the first request that needs them. */
class LiveExampleCache {
  private generation: string | undefined;
  private live: LiveExamples | undefined;
  private pending: Promise<void> | undefined;

  constructor(private readonly stores: StoreProvider, private readonly compute: (store: EventStore) => Promise<LiveExamples | undefined>, private readonly warn: (e: unknown) => void) {}

  refresh(): Promise<void> {
    const generation = this.stores.current().generation();
    if (generation === this.generation) return Promise.resolve();
    this.pending ??= (async () => {
      const store = this.stores.acquire();
      try {
        this.live = await this.compute(store).catch((e: unknown) => {
          this.warn(e);
          return undefined;
        });
        this.generation = store.generation();
      } finally {
        this.stores.release(store);
        this.pending = undefined;
      }
    })();
    return this.pending;
  }

  apply<T extends Document>(doc: T): T {
    for (const operations of Object.values(doc.paths)) for (const op of Object.values(operations)) applyTo(op, this.live);
    return doc;
  }
}

function applyTo(op: Operation, live: LiveExamples | undefined): void {
  if (VESSEL_OPERATIONS.includes(op.operationId ?? '')) return applyToVessels(op, live);
  const lists = LIST_OPERATIONS.includes(op.operationId ?? '');
  const value = (name: string): { known: boolean; value?: unknown } => {
    if (live && lists && LIST_PREFILLED.includes(name)) return { known: true, value: live.listValues[name] };
    if (live && name in live.values) return { known: true, value: live.values[name] };
    return DATA_NAMING.includes(name) ? { known: true, value: undefined } : { known: false };
  };
  for (const p of op.parameters ?? []) {
    if (p.in === 'path' && p.name === 'eventId') setExample(p, live?.eventId);
    else if (op.operationId === 'getEvent' && p.name === 'dataset') setExample(p, live?.byIdDataset ?? p.example);
    else {
      const v = value(p.name);
      const example = v.known ? v.value : p.example;
      if (live && lists && !LIST_PREFILLED.includes(p.name)) documentOnly(p, example);
      else if (v.known) setExample(p, v.value);
    }
  }
  const body = op.requestBody?.content['application/json'];
  if (body) {
    if (live) {
      const members = Object.keys(body.schema?.properties ?? {});
      const example: Record<string, unknown> = {};
      for (const name of members) {
        if (NOT_IN_BODY.includes(name) || (lists && !LIST_PREFILLED.includes(name))) continue;
        const v = value(name);
        const staticExample = (body.schema!.properties![name] as { examples?: unknown[]; example?: unknown }).examples?.[0];
        const chosen = v.known ? v.value : staticExample;
        if (chosen !== undefined) example[name] = chosen;
      }
      body.example = example;
    } else delete body.example;
  }
  const ok = op.responses?.['200']?.content?.['application/json'];
  const answer = { listEvents: live?.listAnswer, searchEvents: live?.listAnswer, getEvent: live?.entry, eventStats: live?.statsAnswer, searchEventStats: live?.statsAnswer, regionList: live?.regionsAnswer }[op.operationId ?? ''];
  if (ok && answer !== undefined) ok.example = answer;
}

const VESSEL_OPERATIONS = ['searchVessels', 'vesselById', 'vesselsByIds', 'vesselInsights'];

/** The Vessels API's examples name the sample's vessel: its id, its name and its flag. */
function applyToVessels(op: Operation, live: LiveExamples | undefined): void {
  const vessel = live?.vessel;
  if (!vessel) return;
  const examples: Record<string, unknown> = {
    vesselId: vessel.id,
    ids: [vessel.id],
    query: vessel.name && [...vessel.name].length >= 3 ? vessel.name : vessel.id,
    where: vessel.flag ? `flag = '${vessel.flag}'` : undefined,
  };
  for (const p of op.parameters ?? []) if (p.name in examples) setExample(p, examples[p.name]);
  const body = op.requestBody?.content['application/json'];
  if (body) body.example = { includes: ['FISHING', 'GAP'], startDate: '2017-01-01', endDate: '2025-01-01', vessels: [{ datasetId: 'public-global-vessel-identity:latest', vesselId: vessel.id }] };
}

/** An example shown in the parameter's schema, not filled in: "Execute" leaves the parameter out. */
function documentOnly(p: Parameter, value: unknown): void {
  setExample(p, undefined);
  if (value !== undefined && p.schema) p.schema['examples'] = [value];
}

function setExample(p: { example?: unknown; examples?: unknown }, value: unknown): void {
  delete p.examples;
  if (value === undefined) delete p.example;
  else p.example = value;
}
