// The property paths an entry can have, for `includes` (docs/api.md, "Entry shaping"): derived from the
// layout declarations, so a path is valid exactly when some entry can carry it.
import { EVENT_INFO_FIELDS, isObjectField, NEXT_PORT_FIELDS, PUBLIC_AUTHORIZATION_FIELDS, type InfoField } from './event-info.ts';
import { DISTANCE_FIELDS } from './record.ts';
import { REGION_MEMBERS } from './regions.ts';
import { EVENT_KINDS } from './kinds.ts';

export type PathTree = { [key: string]: PathTree | true };

const leaf = (keys: readonly string[]): PathTree => Object.fromEntries(keys.map((k) => [k, true]));
const fromFields = (fields: InfoField[]): PathTree => Object.fromEntries(fields.map((f) => [f.key, isObjectField(f) ? fromFields(f.fields) : true]));
const VESSEL: PathTree = {
  ...leaf(['id', 'name', 'ssvid', 'flag', 'type']),
  publicAuthorizations: fromFields(PUBLIC_AUTHORIZATION_FIELDS),
  nextPort: fromFields(NEXT_PORT_FIELDS),
};

/** Every path of every kind of entry. */
export const ENTRY_PATHS: PathTree = {
  ...leaf(['start', 'end', 'id', 'type', 'boundingBox']),
  position: leaf(['lat', 'lon']),
  regions: leaf(REGION_MEMBERS.map((m) => m.member)),
  distances: leaf(DISTANCE_FIELDS.map((d) => d.member)),
  vessel: VESSEL,
  ...Object.fromEntries(EVENT_KINDS.map((k) => [k, { ...(k === 'encounter' ? { vessel: VESSEL } : {}), ...fromFields(EVENT_INFO_FIELDS[k]) }])),
};

export function isEntryPath(path: string): boolean {
  let node: PathTree | true = ENTRY_PATHS;
  for (const key of path.split('.')) {
    if (node === true || !Object.hasOwn(node, key)) return false;
    node = node[key]!;
  }
  return true;
}
