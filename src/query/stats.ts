// Statistics (docs/api.md, "Statistics"): the options beside the filters, and their meaning.
import { Type } from '@sinclair/typebox';
import { InvalidParameters } from './errors.ts';
import type { Spelling } from './errors.ts';
import { BODY_ONLY_FILTERS, EventFiltersSchema } from './schema.ts';
import type { RegionMember } from '../domain/regions.ts';

export const TIMESERIES_INTERVALS = ['HOUR', 'DAY', 'MONTH', 'YEAR'] as const;
export const STATS_INCLUDES = ['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED'] as const;
export const GROUP_BY = [
  'FLAG', 'GEARTYPE', 'REGION_EEZ', 'REGION_EEZ12NM', 'REGION_FAO', 'REGION_HIGH_SEAS', 'REGION_MAJOR_FAO',
  'REGION_MPA', 'REGION_MPA_NO_TAKE', 'REGION_MPA_NO_TAKE_PARTIAL', 'REGION_RFMO', 'NEXT_PORT_ID',
] as const;
export type TimeseriesInterval = (typeof TIMESERIES_INTERVALS)[number];
export type StatsInclude = (typeof STATS_INCLUDES)[number];
export type GroupBy = (typeof GROUP_BY)[number];

/** The regions member each REGION_* grouping counts by. */
export const GROUP_REGION_MEMBER: Partial<Record<GroupBy, RegionMember>> = {
  REGION_EEZ: 'eez', REGION_EEZ12NM: 'eez12Nm', REGION_FAO: 'fao', REGION_HIGH_SEAS: 'highSeas', REGION_MAJOR_FAO: 'majorFao',
  REGION_MPA: 'mpa', REGION_MPA_NO_TAKE: 'mpaNoTake', REGION_MPA_NO_TAKE_PARTIAL: 'mpaNoTakePartial', REGION_RFMO: 'rfmo',
};

const StringEnum = <T extends readonly string[]>(values: T, description: string, example?: T[number]) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description, ...(example === undefined ? {} : { examples: [example] }) });

const StatsOptions = {
  timeseriesInterval: StringEnum(TIMESERIES_INTERVALS, 'Bucket of the time series (required). GET: `timeseries-interval`.', 'MONTH'),
  groupBy: Type.Optional(StringEnum(GROUP_BY, 'What EVENTS_GROUPED counts by. GET: `group-by`.', 'FLAG')),
  includes: Type.Optional(Type.Array(StringEnum(STATS_INCLUDES, 'Part of the answer'), {
    description: 'TOTAL_COUNT: numEvents, numFlags, numVessels, flags; TIME_SERIES: timeseries; EVENTS_GROUPED: groups (needs groupBy). Omitted: all but groups.',
    examples: [['TOTAL_COUNT', 'TIME_SERIES', 'EVENTS_GROUPED']],
  })),
};

// The list's filters less `ids` (docs/api.md, "Statistics").
const { ids: _ids, ...statsFilters } = EventFiltersSchema.properties;

/** GET /v3/events/stats: the filters and the stats options in the query string. */
export const StatsGetQuerySchema = Type.Object({ ...statsFilters, ...StatsOptions }, { additionalProperties: false });
/** POST /v3/events/stats: the same, plus the body-only filters, in the body. */
export const StatsPostBodySchema = Type.Object({ ...statsFilters, ...BODY_ONLY_FILTERS, ...StatsOptions }, { additionalProperties: false });
export const EmptyQuerySchema = Type.Object({}, { additionalProperties: false });

export interface StatsOptionsNormalized {
  interval: TimeseriesInterval;
  includes: ReadonlySet<StatsInclude>;
  groupBy?: GroupBy;
}

export function normalizeStatsOptions(r: { timeseriesInterval: TimeseriesInterval; groupBy?: GroupBy; includes?: StatsInclude[] }, spelling: Spelling): StatsOptionsNormalized {
  // Omitted: every part but groups (docs/api.md, "Statistics").
  const includes = new Set<StatsInclude>(r.includes?.length ? r.includes : ['TOTAL_COUNT', 'TIME_SERIES']);
  if (includes.has('EVENTS_GROUPED') && !r.groupBy) {
    throw new InvalidParameters([{ title: spelling('groupBy'), detail: `${spelling('includes')} EVENTS_GROUPED needs ${spelling('groupBy')}: one of ${GROUP_BY.join(', ')}` }]);
  }
  return { interval: r.timeseriesInterval, includes, ...(r.groupBy ? { groupBy: r.groupBy } : {}) };
}
