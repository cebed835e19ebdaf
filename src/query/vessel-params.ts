// The Vessels API's parameters (docs/api.md, "Vessels"): their schemas, which validate requests and
// document them in /openapi.json, and their normalised form. The official clients send these as
// the Python client's `search_vessels`, `get_vessel_by_id` and `get_vessels_by_ids` and gfwr's
// `get_vessel_info` do: `datasets[0]=...`, `includes[0]=...`, `match-fields[0]=...`, `binary=false`.
import { Type, type Static } from '@sinclair/typebox';
import { Forbidden, invalid, notFound, ProblemCollector } from './errors.ts';
import type { DatasetAccess } from './types.ts';
import { parseWhere, type WhereExpression } from './vessel-where.ts';
import type { Spelling } from './errors.ts';

export const VESSEL_DATASET = 'public-global-vessel-identity';
export const VESSEL_DATASET_LATEST = `${VESSEL_DATASET}:latest`;
export const SEARCH_INCLUDES = ['OWNERSHIP', 'AUTHORIZATIONS', 'MATCH_CRITERIA'] as const;
export const DETAIL_INCLUDES = ['POTENTIAL_RELATED_SELF_REPORTED_INFO'] as const;
export const MATCH_FIELDS = ['SEVERAL_FIELDS', 'NO_MATCH', 'ALL'] as const;
export const REGISTRIES_INFO_DATA = ['NONE', 'DELTA', 'ALL'] as const;
export const MAX_SEARCH_LIMIT = 50;
export const MAX_VESSEL_IDS = 100;
export const MIN_QUERY_LENGTH = 3;

const example = <T>(value: T) => ({ examples: [value] });
const stringEnum = <T extends readonly string[]>(values: T, description: string) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });

const datasets = Type.Array(Type.String({ minLength: 1 }), {
  description: `The vessel identity dataset, ${VESSEL_DATASET_LATEST} (the default): the vessels of the latest version of every event dataset.`,
  'x-expected': `${VESSEL_DATASET_LATEST}`,
  ...example([VESSEL_DATASET_LATEST]),
});
const matchFields = Type.Array(stringEnum(MATCH_FIELDS, 'match level'), {
  description: 'Only vessels whose identity matched a registry at these levels (ALL: any). Without a registry loaded every vessel is NO_MATCH.',
  ...example(['ALL']),
});
const binary = Type.Boolean({ description: 'false (the default): JSON. Protocol-buffer answers are not served.', ...example(false) });

export const VesselSearchQuerySchema = Type.Object({
  query: Type.Optional(Type.String({ description: `Free text of at least ${MIN_QUERY_LENGTH} characters: a vessel id, an MMSI, or a name or part of one (accents, case and spaces aside).`, ...example('OCEAN') })),
  where: Type.Optional(Type.String({ description: 'field = \'value\' on shipname, ssvid (mmsi), imo, callsign and flag, joined by AND, OR and parentheses.', ...example("flag = 'CHN'") })),
  datasets: Type.Optional(datasets),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SEARCH_LIMIT, description: `Vessels per page (default 20, at most ${MAX_SEARCH_LIMIT}).`, ...example(20) })),
  since: Type.Optional(Type.String({ minLength: 1, description: 'The `since` of the previous page: its next page.' })),
  includes: Type.Optional(Type.Array(stringEnum(SEARCH_INCLUDES, 'extra part'), { description: 'Extra parts of each vessel: registry owners, public authorizations, match criteria.', ...example(['MATCH_CRITERIA']) })),
  matchFields: Type.Optional(matchFields),
  binary: Type.Optional(binary),
}, { additionalProperties: false });

const detailProperties = {
  registriesInfoData: Type.Optional(stringEnum(REGISTRIES_INFO_DATA, 'Which registry records to give: NONE, DELTA (each change) or ALL.')),
  includes: Type.Optional(Type.Array(stringEnum(DETAIL_INCLUDES, 'extra part'), { description: 'POTENTIAL_RELATED_SELF_REPORTED_INFO: accepted; each vessel id is one vessel here, so nothing is added.' })),
  matchFields: Type.Optional(matchFields),
  binary: Type.Optional(binary),
};

export const VesselByIdParamsSchema = Type.Object({ vesselId: Type.String({ minLength: 1, description: 'The vessel id (`vessel.id` of its events).', ...example('8c7304226-6c71-edbe-0b63-c246734b3c01') }) });
export const VesselByIdQuerySchema = Type.Object({
  dataset: Type.Optional(Type.String({ minLength: 1, description: `The vessel identity dataset, ${VESSEL_DATASET_LATEST} (the default).`, ...example(VESSEL_DATASET_LATEST) })),
  ...detailProperties,
}, { additionalProperties: false });

export const VesselListQuerySchema = Type.Object({
  ids: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: `Vessel ids, at most ${MAX_VESSEL_IDS}.`, ...example(['8c7304226-6c71-edbe-0b63-c246734b3c01']) }),
  datasets: Type.Optional(datasets),
  vesselGroups: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Not served here: refused rather than ignored.' })),
  ...detailProperties,
}, { additionalProperties: false });

export interface VesselSearch {
  query?: string;
  where?: WhereExpression;
  limit: number;
  offset: number;
  includes: ReadonlySet<string>;
  /** Match levels to keep; absent: all. */
  matchLevels?: ReadonlySet<string>;
  /** What a cursor carries to be refused on another search. */
  fingerprint: string;
}

/** The identity dataset is a dataset of its own: a token reads it when its patterns allow it. */
export function checkVesselAccess(access: DatasetAccess): void {
  if (!access.canRead(VESSEL_DATASET)) throw new Forbidden([{ title: 'Forbidden', detail: `Insufficient permissions for ${VESSEL_DATASET_LATEST} datasets` }]);
}

/** The datasets of a Vessels API request (or insights): the identity dataset's latest version, the only one served; else a 404. */
export function checkVesselDatasets(values: readonly string[] | undefined, title: string): void {
  for (const d of values ?? []) {
    const [id, version = 'latest'] = d.split(':');
    if (id !== VESSEL_DATASET) throw notFound(title, `no vessel dataset "${d}"; the vessels are in ${VESSEL_DATASET_LATEST}`);
    if (version !== 'latest') throw notFound(title, `${VESSEL_DATASET} has no version "${version}": its vessels are those of every event dataset's latest version, ${VESSEL_DATASET_LATEST}`);
  }
}

function checkCommon(params: { binary?: boolean; matchFields?: string[] }, spelling: Spelling, problems: ProblemCollector): ReadonlySet<string> | undefined {
  if (params.binary) problems.add(spelling('binary'), `${spelling('binary')}=true asks for protocol buffers; this service answers JSON: leave it out or send false`);
  return params.matchFields && !params.matchFields.includes('ALL') ? new Set(params.matchFields) : undefined;
}

export function normalizeVesselSearch(params: Static<typeof VesselSearchQuerySchema>, spelling: Spelling): VesselSearch {
  const problems = new ProblemCollector();
  checkVesselDatasets(params.datasets, spelling('datasets'));
  const matchLevels = checkCommon(params, spelling, problems);
  const query = params.query?.trim();
  if (query !== undefined && [...query].length < MIN_QUERY_LENGTH) problems.add(spelling('query'), `${spelling('query')} "${query}" is shorter than ${MIN_QUERY_LENGTH} characters`);
  if (query === undefined && params.where === undefined) problems.add(spelling('query'), `give ${spelling('query')} (an id, MMSI or name) or ${spelling('where')} (e.g. flag = 'CHN')`);
  let where: WhereExpression | undefined;
  try {
    if (params.where !== undefined) where = parseWhere(params.where, spelling('where'));
  } catch (e) {
    for (const m of (e as { messages?: { title: string; detail: string }[] }).messages ?? []) problems.add(m.title, m.detail);
  }
  problems.throwIfAny();
  const fingerprint = JSON.stringify([query ?? null, params.where ?? null, [...(matchLevels ?? [])].sort()]);
  const offset = params.since === undefined ? 0 : readCursor(params.since, fingerprint, spelling('since'));
  return { query, where, limit: params.limit ?? 20, offset, includes: new Set(params.includes ?? SEARCH_INCLUDES), matchLevels, fingerprint };
}

export interface VesselLookup {
  ids: string[];
  matchLevels?: ReadonlySet<string>;
}

export function normalizeVesselLookup(params: { ids?: string[]; dataset?: string; datasets?: string[]; vesselGroups?: string[]; binary?: boolean; matchFields?: string[] }, spelling: Spelling): VesselLookup {
  const problems = new ProblemCollector();
  checkVesselDatasets(params.datasets ?? (params.dataset === undefined ? undefined : [params.dataset]), spelling(params.dataset === undefined ? 'datasets' : 'dataset'));
  const matchLevels = checkCommon(params, spelling, problems);
  const ids = [...new Set(params.ids ?? [])];
  if (ids.length > MAX_VESSEL_IDS) problems.add(spelling('ids'), `${spelling('ids')} holds ${ids.length} vessel ids; at most ${MAX_VESSEL_IDS} are accepted per request`);
  if (params.vesselGroups !== undefined) problems.add(spelling('vesselGroups'), `${spelling('vesselGroups')} is not served by the Vessels API here; list the vessel ids in ${spelling('ids')}`);
  problems.throwIfAny();
  return { ids, matchLevels };
}

/** The cursor of the page after `offset`: opaque to clients, tied to the search that made it. */
export function writeCursor(offset: number, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ offset, search: fingerprint })).toString('base64url');
}

function readCursor(since: string, fingerprint: string, title: string): number {
  let cursor: { offset?: unknown; search?: unknown };
  try {
    cursor = JSON.parse(Buffer.from(since, 'base64url').toString('utf8')) as typeof cursor;
  } catch {
    throw invalid(title, `${title} is not a cursor this service gave: send the since of the previous page unchanged`);
  }
  if (typeof cursor !== 'object' || cursor === null || !Number.isSafeInteger(cursor.offset) || (cursor.offset as number) < 0) throw invalid(title, `${title} is not a cursor this service gave: send the since of the previous page unchanged`);
  if (cursor.search !== fingerprint) throw invalid(title, `${title} belongs to another search (another query, where or match-fields): send it with the search that gave it`);
  return cursor.offset as number;
}
