// The map explorer at /explorer/: a page of its own (explorer/ at the package root) that calls the
// API from the browser with the user's token. Everything it loads is served from here, so it works
// with no internet access: MapLibre GL JS and uPlot from their npm packages, land from world-atlas
// (Natural Earth 1:110m) as GeoJSON, region outlines from the loaded geometries (context-layers).
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { splitAtAntimeridian } from '../../geo/antimeridian.ts';
import type { Polygon } from '../../geo/geojson.ts';

const require = createRequire(import.meta.url);
/** The page's own files; from src/http/routes or dist/http/routes alike. */
const PAGE_DIR = join(import.meta.dirname, '../../../explorer');
const VENDOR = {
  'maplibre-gl.js': require.resolve('maplibre-gl/dist/maplibre-gl.js'),
  'maplibre-gl.css': require.resolve('maplibre-gl/dist/maplibre-gl.css'),
  'uPlot.iife.min.js': join(dirname(require.resolve('uplot/package.json')), 'dist/uPlot.iife.min.js'),
  'uPlot.min.css': join(dirname(require.resolve('uplot/package.json')), 'dist/uPlot.min.css'),
};
const PAGE_FILES = ['index.html', 'explorer.js', 'explorer.css'];

/** Files read on first use and kept: nothing of the explorer's 1.3 MB is read at start-up. */
const files = new Map<string, Buffer>();
function cachedFile(path: string): Buffer {
  return files.get(path) ?? files.set(path, readFileSync(path)).get(path)!;
}

let land: string | undefined;
/**
 * World land as one GeoJSON MultiPolygon, made once from the TopoJSON on first use (about 200 KB).
 * Its rings that cross the antimeridian (Russia, Fiji) are cut there, or a flat map draws them as
 * bands across the whole world.
 */
function landGeoJson(): string {
  if (!land) {
    const topo = JSON.parse(readFileSync(require.resolve('world-atlas/land-110m.json'), 'utf8')) as Topology<{ land: GeometryCollection }>;
    const polygons: Polygon[] = [];
    for (const f of feature(topo, topo.objects.land).features) {
      const g = f.geometry;
      if (g.type === 'Polygon') polygons.push(g.coordinates as Polygon);
      if (g.type === 'MultiPolygon') polygons.push(...(g.coordinates as Polygon[]));
    }
    land = JSON.stringify({ type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: splitAtAntimeridian(polygons) } });
  }
  return land;
}

export async function explorerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, {
    root: PAGE_DIR,
    prefix: '/explorer/',
    allowedPath: (path) => PAGE_FILES.includes(path.replace(/^\//, '')),
    // The reply decorator stays free for the docs plugin's own copy.
    decorateReply: false,
    // The vendor files and land are fixed for a release; the page's own files change with it too.
    maxAge: '1h',
    // The page itself is the route below: the router ignores trailing slashes, so /explorer and
    // /explorer/ reach the same route, and only the latter may serve the page.
    index: false,
  });
  app.get('/explorer', { schema: { hide: true } }, async (request, reply) => {
    // Relative links (vendor/, land.geojson, ../v3/) resolve against /explorer/ only.
    if (!request.url.split('?')[0]!.endsWith('/')) return reply.redirect('/explorer/', 301);
    return reply.type('text/html; charset=utf-8').send(cachedFile(join(PAGE_DIR, 'index.html')));
  });
  for (const [name, path] of Object.entries(VENDOR)) {
    const type = name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
    app.get(`/explorer/vendor/${name}`, { schema: { hide: true } }, async (_request, reply) => reply.type(type).header('cache-control', 'public, max-age=86400').send(cachedFile(path)));
  }
  app.get('/explorer/land.geojson', { schema: { hide: true } }, async (_request, reply) => reply.type('application/geo+json').header('cache-control', 'public, max-age=86400').send(landGeoJson()));
}
