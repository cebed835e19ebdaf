// GET /v3/events/tiles/{z}/{x}/{y}.pbf (docs/api.md, "Vector tiles"): the matching events of a map
// tile as a Mapbox Vector Tile, counted on a grid below POINT_ZOOM, each event from it on. The list's
// filters come in the query string through the same reader and normaliser as GET /v3/events; the
// tile is the area, so there is no geometry (a region, with its buffer, still applies).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { isTile, MAX_TILE_ZOOM, tileBounds } from '../../geo/tiles.ts';
import { normalizeEventQuery } from '../../query/normalize.ts';
import { invalid, type Spelling } from '../../query/errors.ts';
import type { Buffering } from '../../query/area.ts';
import { TileQuerySchema } from '../../query/schema.ts';
import { echoQuery } from '../../shape/metadata.ts';
import { cellsTile, GRID, POINT_ZOOM, pointsTile } from '../../shape/vector-tile.ts';
import { accessOf } from '../auth.ts';
import { answerFromCache, etagOf, setResolvedDatasets } from '../caching.ts';
import { requestReader } from '../read-request.ts';
import { errorResponses, NOT_MODIFIED } from '../schemas.ts';
import { pinnedStore } from '../store-pinning.ts';

export const MVT_MEDIA_TYPE = 'application/vnd.mapbox-vector-tile';

const TileParamsSchema = Type.Object({
  z: Type.String({ description: `zoom, 0 to ${MAX_TILE_ZOOM}`, examples: ['1'] }),
  x: Type.String({ description: 'column, 0 to 2^z - 1, from the antimeridian eastwards', examples: ['1'] }),
  y: Type.String({ description: 'row, 0 to 2^z - 1, from the north', examples: ['0'] }),
});
const security = [{ ApiKeyAuth: [] }];

export async function tileRoutes(app: FastifyInstance, options: { cacheMaxAgeSeconds: number; buffering: Buffering }): Promise<void> {
  const context = (request: FastifyRequest, spelling: Spelling) => ({ catalog: pinnedStore(request), access: accessOf(request), spelling, buffering: options.buffering });
  const readTile = requestReader({ query: TileQuerySchema });

  app.get<{ Params: { z: string; x: string; y: string } }>('/events/tiles/:z/:x/:y.pbf', {
    schema: {
      summary: 'The matching events of a map tile (Mapbox Vector Tile)',
      description: `Below zoom ${POINT_ZOOM}, layer \`cells\`: a point per cell of a ${GRID} x ${GRID} grid of the tile that holds events, with \`count\`, \`vessels\` (distinct) and a count per kind (\`fishing\`, \`encounter\`, ...). From zoom ${POINT_ZOOM}, layer \`events\`: each event at its position, with \`id\`, \`type\`, \`start\` and \`vesselId\`. The list's filters apply (no geometry: the tile is the area).`,
      operationId: 'eventTile',
      tags: ['events'],
      params: TileParamsSchema,
      querystring: TileQuerySchema,
      response: { 200: { description: 'A Mapbox Vector Tile', content: { [MVT_MEDIA_TYPE]: { schema: Type.String({ format: 'binary' }) } } }, 304: NOT_MODIFIED, ...errorResponses },
      security,
    },
  }, async (request, reply) => {
    const { z, x, y } = Object.fromEntries(Object.entries(request.params).map(([k, v]) => [k, /^[0-9]{1,8}$/.test(v) ? Number(v) : NaN])) as Record<'z' | 'x' | 'y', number>;
    if (!isTile(z, x, y)) {
      const { z: zText, x: xText, y: yText } = request.params;
      const range = Number.isInteger(z) && z <= MAX_TILE_ZOOM ? ` (${2 ** z - 1} at z ${z})` : '';
      throw invalid('tile', `${zText}/${xText}/${yText} is not a tile: z is a whole number from 0 to ${MAX_TILE_ZOOM}, x and y from 0 to 2^z - 1${range}`);
    }
    const { query: params, spelling } = readTile(request);
    const query = await normalizeEventQuery(params, context(request, spelling));
    setResolvedDatasets(reply, query.datasets);
    const store = pinnedStore(request);
    const etag = etagOf({ operation: 'tile', generation: store.generation(), asked: { query: echoQuery(query), tile: [z, x, y] } });
    if (answerFromCache(request, reply, etag, options.cacheMaxAgeSeconds)) return reply;
    const tile = tileBounds(z, x, y);
    const body = z < POINT_ZOOM ? cellsTile(await store.tileCells(query, tile, GRID)) : pointsTile(tile, await store.tilePoints(query, tile));
    return reply.type(MVT_MEDIA_TYPE).send(body);
  });
}
