// Event kinds and the public dataset ids that hold them (docs/api.md, "Datasets").

export const EVENT_KINDS = ['fishing', 'encounter', 'loitering', 'port_visit', 'gap'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** Canonical dataset id per kind: the id stored in the catalog and shown in `x-datasets`. */
export const DATASET_ID_BY_KIND: Record<EventKind, string> = {
  fishing: 'public-global-fishing-events',
  encounter: 'public-global-encounters-events',
  loitering: 'public-global-loitering-events',
  port_visit: 'public-global-port-visits-events',
  gap: 'public-global-gaps-events',
};

/**
 * Every dataset id a client may send, mapped to its kind. Both encounter spellings appear in the
 * interface; gfwr sends the `-c2-` port-visit id.
 */
export const KIND_BY_DATASET_ID: Readonly<Record<string, EventKind>> = {
  'public-global-fishing-events': 'fishing',
  'public-global-encounters-events': 'encounter',
  'public-global-encounter-events': 'encounter',
  'public-global-loitering-events': 'loitering',
  'public-global-port-visits-events': 'port_visit',
  'public-global-port-visits-c2-events': 'port_visit',
  'public-global-gaps-events': 'gap',
};

export function isEventKind(value: string): value is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(value);
}

/** The kind a name gives: a kind itself (`fishing`), or a dataset id or its alias (`public-global-fishing-events`). */
export function kindNamed(name: string): EventKind | undefined {
  return isEventKind(name) ? name : Object.hasOwn(KIND_BY_DATASET_ID, name) ? KIND_BY_DATASET_ID[name] : undefined;
}
