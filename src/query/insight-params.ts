// POST /v3/insights/vessels (docs/api.md, "Vessel insights"): the body the Python client's
// get_vessel_insights sends, {includes, startDate, endDate, vessels: [{datasetId, vesselId}]}, its
// schema and its normalised form.
import { Type, type Static } from '@sinclair/typebox';
import { invalid, ProblemCollector } from './errors.ts';
import { parseDateParam } from './dates.ts';
import type { Spelling } from './errors.ts';
import { checkVesselDatasets, VESSEL_DATASET_LATEST } from './vessel-params.ts';

export const INSIGHT_INCLUDES = ['FISHING', 'GAP', 'COVERAGE', 'VESSEL-IDENTITY-IUU-VESSEL-LIST'] as const;
export type InsightInclude = (typeof INSIGHT_INCLUDES)[number];
export const MAX_INSIGHT_VESSELS = 50;

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';

export const InsightBodySchema = Type.Object({
  includes: Type.Optional(Type.Array(Type.Unsafe<InsightInclude>({ type: 'string', enum: [...INSIGHT_INCLUDES] }), {
    description: 'FISHING (the default): apparent fishing in no-take MPAs and in RFMO areas without a known authorization; GAP: AIS switched off; VESSEL-IDENTITY-IUU-VESSEL-LIST: the vessels\' listings on the loaded IUU vessel list (a 422 when none is loaded); COVERAGE needs positions this service does not hold: a 422.',
    examples: [['FISHING', 'GAP']],
  })),
  startDate: Type.String({ pattern: DATE, description: 'The period\'s first day (YYYY-MM-DD).', 'x-expected': 'a date YYYY-MM-DD', examples: ['2020-01-01'] }),
  endDate: Type.String({ pattern: DATE, description: 'The day after the period (YYYY-MM-DD), as a list\'s end-date.', 'x-expected': 'a date YYYY-MM-DD', examples: ['2025-01-01'] }),
  vessels: Type.Array(Type.Object({
    datasetId: Type.String({ minLength: 1, description: VESSEL_DATASET_LATEST }),
    vesselId: Type.String({ minLength: 1, description: 'A vessel id (`vessel.id` of its events).' }),
  }, { additionalProperties: false }), { minItems: 1, description: `The vessels, at most ${MAX_INSIGHT_VESSELS}; their insights are added together.`, examples: [[{ datasetId: VESSEL_DATASET_LATEST, vesselId: '8c7304226-6c71-edbe-0b63-c246734b3c01' }]] }),
}, { additionalProperties: false });

export interface InsightRequest {
  includes: ReadonlySet<InsightInclude>;
  startDate: string;
  endDate: string;
  vesselIds: string[];
}

export function normalizeInsightRequest(body: Static<typeof InsightBodySchema>, spelling: Spelling): InsightRequest {
  const problems = new ProblemCollector();
  const includes = new Set<InsightInclude>(body.includes ?? ['FISHING']);
  if (includes.has('COVERAGE')) problems.add(spelling('includes'), 'COVERAGE counts the blocks of time with AIS positions, and this service holds events, not positions: leave COVERAGE out');
  for (const [name, value] of [['startDate', body.startDate], ['endDate', body.endDate]] as const) {
    if (parseDateParam(value) === undefined) problems.add(spelling(name), `${spelling(name)} "${value}" is not a date of the calendar (YYYY-MM-DD)`);
  }
  if (problems.empty && body.startDate >= body.endDate) problems.add(spelling('endDate'), `${spelling('endDate')} ${body.endDate} must come after ${spelling('startDate')} ${body.startDate}`);
  if (body.vessels.length > MAX_INSIGHT_VESSELS) problems.add(spelling('vessels'), `${spelling('vessels')} holds ${body.vessels.length} vessels; at most ${MAX_INSIGHT_VESSELS} are accepted per request`);
  problems.throwIfAny();
  checkVesselDatasets(body.vessels.map((v) => v.datasetId), spelling('vessels'));
  if (includes.size === 0) throw invalid(spelling('includes'), `${spelling('includes')} is empty; ask for FISHING, GAP or both`);
  return { includes, startDate: body.startDate, endDate: body.endDate, vesselIds: [...new Set(body.vessels.map((v) => v.vesselId))] };
}
