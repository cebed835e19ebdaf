// The values of the query's enumerated parameters (docs/api.md, "Parameters").

/** Values of the `types` filter (docs/api.md, "List filters (`GET` query, `POST` body)"). GAP_START selects gaps still open. */
export const EVENT_TYPE_FILTER_VALUES = ['ENCOUNTER', 'FISHING', 'LOITERING', 'GAP_START', 'GAP', 'PORT_VISIT'] as const;
export type EventTypeFilterValue = (typeof EVENT_TYPE_FILTER_VALUES)[number];
/** Other names clients send for a value of `types`: the Python client's enum offers PORT (docs/api.md, "List filters (`GET` query, `POST` body)"). */
export const EVENT_TYPE_ALIASES: Readonly<Record<string, EventTypeFilterValue>> = { PORT: 'PORT_VISIT' };

export const VESSEL_TYPES = [
  'BUNKER', 'CARGO', 'DISCREPANCY', 'CARRIER', 'FISHING', 'GEAR', 'OTHER', 'PASSENGER',
  'SEISMIC_VESSEL', 'SUPPORT', 'NON_FISHING', 'RESEARCH',
] as const;

export const OPERATORS = ['INCLUDE', 'EXCLUDE'] as const;
export type Operator = (typeof OPERATORS)[number];

export const TIME_FILTER_MODES = ['OVERLAP', 'START-DATE', 'END-DATE'] as const;
export type TimeFilterMode = (typeof TIME_FILTER_MODES)[number];

export const SORT_VALUES = ['+start', '-start', '+end', '-end'] as const;
export type SortValue = (typeof SORT_VALUES)[number];

/** The 44 directional encounter types (docs/api.md, "Encounter types"), `MAIN-OTHER`; a side may be empty. */
const ENCOUNTER_SIDES: Record<string, string[]> = {
  FISHING: ['BUNKER', 'TANKER', 'NON_FISHING', 'RESEARCH', '', 'FISHING', 'SUPPORT', 'CARRIER'],
  BUNKER: ['FISHING', 'CARRIER', 'SUPPORT'],
  TANKER: ['FISHING'],
  CARRIER: ['BUNKER', 'NON_FISHING', 'CARRIER', 'RESEARCH', '', 'FISHING', 'SUPPORT'],
  SUPPORT: ['BUNKER', 'NON_FISHING', 'RESEARCH', '', 'FISHING', 'SUPPORT', 'CARRIER'],
  NON_FISHING: ['FISHING', 'NON_FISHING', 'SUPPORT', 'CARRIER', 'RESEARCH', ''],
  RESEARCH: ['FISHING', 'NON_FISHING', 'SUPPORT', 'CARRIER', 'RESEARCH', ''],
  '': ['FISHING', 'NON_FISHING', 'SUPPORT', 'CARRIER', 'RESEARCH', ''],
};
export const ENCOUNTER_TYPES: readonly string[] = Object.entries(ENCOUNTER_SIDES).flatMap(([main, others]) => others.map((o) => `${main}-${o}`));

export const PORT_VISIT_CONFIDENCES = ['2', '3', '4'] as const;

/** The forms a list page can take (`format`, or the Accept header); one event: json or geojson. */
export const LIST_FORMATS = ['json', 'csv', 'geojson', 'ndjson', 'parquet'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];
export const EVENT_FORMATS = ['json', 'geojson'] as const;
