// The property paths an entry can have, for `includes` (decisions section 5): derived from the
// layout declarations, so a path is valid exactly when some entry can carry it.
import { EVENT_INFO_FIELDS, isObjectField, NEXT_PORT_FIELDS, PUBLIC_AUTHORIZATION_FIELDS, type InfoField } from '../data/event-info.ts';
import { DISTANCE_FIELDS, REGION_MEMBERS } from '../data/record.ts';
import { EVENT_KINDS } from '../query/kinds.ts';

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

/** The tree of the paths to keep: `["vessel.id", "vessel.name", "id"]` -> {vessel: {id, name}, id}. */
export function pathTree(paths: readonly string[]): PathTree {
  const tree: PathTree = {};
  for (const path of paths) {
    let node = tree;
    const keys = path.split('.');
    keys.forEach((key, i) => {
      if (node[key] === true) return;
      if (i === keys.length - 1) node[key] = true;
      else node = (node[key] ??= {}) as PathTree;
    });
  }
  return tree;
}

/** Keeps the tree's paths of a value, in the value's own key order; arrays keep them per element. */
export function project(value: unknown, tree: PathTree | true): unknown {
  if (tree === true || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => project(v, tree));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (Object.hasOwn(tree, key)) out[key] = project(v, tree[key]!);
  return out;
}
