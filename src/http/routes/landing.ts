// GET /: where a person or a client starts. A browser (Accept: text/html) gets a page; anything
// else gets the same links as JSON. Like /healthz and /readyz it needs no token: it shows what
// /readyz shows (the loaded datasets) and where the documentation is.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { StoreProvider } from '../../store/store.ts';
import { loadedDatasets } from './operations.ts';

const LINKS = [
  { rel: 'service-doc', href: '/docs/', type: 'text/html', title: 'API documentation (try every operation in the browser)' },
  { rel: 'explorer', href: '/explorer/', type: 'text/html', title: 'Map explorer: events on a map, the time series, and the same request in curl, Python and R' },
  { rel: 'service-desc', href: '/openapi.json', type: 'application/vnd.oai.openapi+json;version=3.1', title: 'OpenAPI 3.1 document' },
  { rel: 'data', href: '/v3/events', type: 'application/json', title: 'Events (a token is needed: Authorization: Bearer ...)' },
  { rel: 'status', href: '/readyz', type: 'application/json', title: 'Readiness and the loaded datasets' },
] as const;

const LandingSchema = Type.Object({
  title: Type.String(),
  description: Type.String(),
  links: Type.Array(Type.Object({ rel: Type.String(), href: Type.String(), type: Type.String(), title: Type.String() })),
  datasets: Type.Array(Type.Object({ dataset: Type.String(), rows: Type.Integer(), loadedAt: Type.String(), lastUpdated: Type.Union([Type.String(), Type.Null()]) })),
  latest: Type.Array(Type.String({ description: 'the version `latest` resolves to, per dataset' })),
});

const TITLE = 'Vessel Activity Events Service';
const DESCRIPTION = 'Apparent fishing, encounters, loitering, port visits and AIS gaps, served over the Global Fishing Watch Events API v3.';

export async function landingRoutes(app: FastifyInstance, options: { stores: StoreProvider }): Promise<void> {
  app.get('/', {
    schema: {
      summary: 'Where to start: links to the documentation and the loaded datasets (HTML for browsers)',
      operationId: 'landing', tags: ['operations'], security: [],
      response: { 200: LandingSchema },
    },
  }, async (request, reply) => {
    const loaded = loadedDatasets(options.stores.current().versions());
    const body = { title: TITLE, description: DESCRIPTION, links: LINKS.map((l) => ({ ...l })), ...loaded };
    // A browser asks for HTML first; a client that asks for nothing in particular gets JSON.
    if (!/text\/html/.test(String(request.headers.accept ?? ''))) return body;
    return reply.type('text/html; charset=utf-8').send(page(body, `${request.protocol}://${request.host}`));
  });
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(body: { links: { href: string; title: string }[]; datasets: { dataset: string; rows: number; loadedAt: string }[]; latest: string[] }, origin: string): string {
  const rows = body.datasets.map((d) => `<tr><td><code>${escape(d.dataset)}</code>${body.latest.includes(d.dataset) ? ' (latest)' : ''}</td><td>${d.rows.toLocaleString('en')}</td><td>${escape(d.loadedAt)}</td></tr>`).join('');
  const example = body.latest[0] ? `${body.latest[0].replace(/:[^:]*$/, '')}:latest` : 'public-global-fishing-events:latest';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TITLE}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#123}a{color:#0b5cad}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #dde;padding:.3rem .5rem;text-align:left}pre{background:#f3f5f8;padding:.8rem;overflow:auto}</style>
</head><body>
<h1>${TITLE}</h1>
<p>${escape(DESCRIPTION)}</p>
<ul>${body.links.map((l) => `<li><a href="${escape(l.href)}">${escape(l.title)}</a></li>`).join('')}</ul>
<h2>Loaded datasets</h2>
${rows ? `<table><thead><tr><th>dataset</th><th>events</th><th>loaded</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>None yet: load data with <code>vessel-events load</code>.</p>'}
<h2>A first request</h2>
<pre>curl -H "Authorization: Bearer $TOKEN" \\
  "${escape(origin)}/v3/events?datasets=${escape(example)}&amp;limit=5&amp;offset=0"</pre>
<p>Create a token with <code>vessel-events token create --name NAME --datasets 'public-*'</code>.</p>
</body></html>
`;
}
