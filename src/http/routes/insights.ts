// POST /v3/insights/vessels (docs/api.md, "Vessel insights"): the Python client's
// get_vessel_insights, answered from the vessels' events (src/vessels/insights.ts).
import type { FastifyInstance } from 'fastify';
import { Type, type TSchema } from '@sinclair/typebox';
import { InsightBodySchema, normalizeInsightRequest } from '../../query/insight-params.ts';
import { checkVesselAccess } from '../../query/vessel-params.ts';
import { EmptyQuerySchema } from '../../query/stats.ts';
import { vesselDirectory } from '../../vessels/directories.ts';
import { vesselInsights } from '../../vessels/insights.ts';
import { accessOf } from '../auth.ts';
import { requestReader } from '../read-request.ts';
import { errorResponses } from '../schemas.ts';
import { pinnedStore } from '../store-pinning.ts';

const counters = (members: Record<string, TSchema>) => Type.Object({ events: Type.Integer(), ...members });
const InsightResponseSchema = Type.Object({
  period: Type.Object({ startDate: Type.String(), endDate: Type.String() }),
  vesselIdsWithoutIdentity: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'the ids asked for that no loaded event carries; null when none' }),
  gap: Type.Optional(Type.Object({
    datasets: Type.Array(Type.String()),
    historicalCounters: counters({ eventsGapOff: Type.Integer() }),
    periodSelectedCounters: counters({ eventsGapOff: Type.Integer() }),
    aisOff: Type.Array(Type.String(), { description: 'the ids of the period\'s gaps with AIS switched off on purpose' }),
  }, { description: 'with GAP' })),
  apparentFishing: Type.Optional(Type.Object({
    datasets: Type.Array(Type.String()),
    historicalCounters: counters({ eventsInRFMOWithoutKnownAuthorization: Type.Integer(), eventsInNoTakeMPAs: Type.Integer() }),
    periodSelectedCounters: counters({ eventsInRFMOWithoutKnownAuthorization: Type.Integer(), eventsInNoTakeMPAs: Type.Integer() }),
    eventsInRfmoWithoutKnownAuthorization: Type.Array(Type.String()),
    eventsInNoTakeMpas: Type.Array(Type.String()),
  }, { description: 'with FISHING' })),
  vesselIdentity: Type.Optional(Type.Object({
    datasets: Type.Array(Type.String()),
    iuuVesselList: Type.Object({
      valuesInThePeriod: Type.Array(Type.Object({ from: Type.String(), to: Type.Union([Type.String(), Type.Null()], { description: 'null while still listed' }) })),
      totalTimesListed: Type.Integer(),
      totalTimesListedInThePeriod: Type.Integer(),
    }),
  }, { description: 'with VESSEL-IDENTITY-IUU-VESSEL-LIST' })),
});

export async function insightRoutes(app: FastifyInstance): Promise<void> {
  const read = requestReader({ query: EmptyQuerySchema, body: InsightBodySchema });
  app.post('/insights/vessels', {
    schema: {
      summary: 'What the vessels\' events say: apparent fishing in no-take MPAs and without a known RFMO authorization, AIS switched off',
      operationId: 'vesselInsights', tags: ['vessels'], querystring: EmptyQuerySchema, body: InsightBodySchema,
      response: { 200: InsightResponseSchema, ...errorResponses }, security: [{ ApiKeyAuth: [] }],
    },
  }, async (request, reply) => {
    const { body, spelling } = read(request);
    const access = accessOf(request);
    checkVesselAccess(access);
    const insight = normalizeInsightRequest(body, spelling);
    const store = pinnedStore(request);
    const answer = await vesselInsights(store, await vesselDirectory(store), { catalog: store, access, spelling }, insight, spelling('includes'));
    return reply.type('application/json').send(JSON.stringify(answer));
  });
}
