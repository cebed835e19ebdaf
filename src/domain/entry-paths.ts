// The property paths an entry can have, for `includes` (docs/api.md, "Entry shaping"): derived from the
// layout declarations, so a path is valid exactly when some entry can carry it.
import { EVENT_INFO_FIELDS, isObjectField, NEXT_PORT_FIELDS, PUBLIC_AUTHORIZATION_FIELDS, type InfoField } from './event-info.ts';
import { DISTANCE_FIELDS } from './record.ts';
import { REGION_MEMBERS } from './regions.ts';
import { EVENT_KINDS } from './kinds.ts';

export type PathTree = { [key: string]: PathTree | true };

/**
 * A value's type in an entry, as the `spec` wire format writes it: a scalar, a list, or an object
 * of named fields (in output order). The Parquet format's columns are made from these.
 */
export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'timestamp' | { list: FieldType } | { fields: TypedTree };
export type TypedTree = { [key: string]: FieldType };

const strings = (keys: readonly string[]): TypedTree => Object.fromEntries(keys.map((k) => [k, 'string']));
const typedFields = (fields: InfoField[]): TypedTree => Object.fromEntries(fields.map((f) => [f.key, isObjectField(f) ? { fields: typedFields(f.fields) } : f.type]));
const VESSEL: TypedTree = {
  ...strings(['id', 'name', 'ssvid', 'flag', 'type']),
  // `spec` writes true or false here, or the pipeline's text ("pending"): a string holds all three.
  publicAuthorizations: { list: { fields: strings(PUBLIC_AUTHORIZATION_FIELDS.map((f) => f.key)) } },
  nextPort: { fields: typedFields(NEXT_PORT_FIELDS) },
};

/** Every member of every kind of entry, typed. */
export const ENTRY_FIELDS: TypedTree = {
  start: 'timestamp',
  end: 'timestamp',
  id: 'string',
  type: 'string',
  // Before position, as the CSV's columns have always been.
  boundingBox: { list: 'number' },
  position: { fields: { lat: 'number', lon: 'number' } },
  regions: { fields: Object.fromEntries(REGION_MEMBERS.map((m) => [m.member, { list: 'string' }])) },
  distances: { fields: Object.fromEntries(DISTANCE_FIELDS.map((d) => [d.member, 'number'])) },
  vessel: { fields: VESSEL },
  ...Object.fromEntries(EVENT_KINDS.map((k) => [k, { fields: { ...(k === 'encounter' ? { vessel: { fields: VESSEL } } : {}), ...typedFields(EVENT_INFO_FIELDS[k]) } }])),
};

/** The paths of a typed tree: an object's fields, and a list of objects' element fields, are subtrees. */
function pathsOf(tree: TypedTree): PathTree {
  const node = (type: FieldType): PathTree | true => {
    const element = typeof type === 'object' && 'list' in type ? type.list : type;
    return typeof element === 'object' && 'fields' in element ? pathsOf(element.fields) : true;
  };
  return Object.fromEntries(Object.entries(tree).map(([key, type]) => [key, node(type)]));
}

/** Every path of every kind of entry. */
export const ENTRY_PATHS: PathTree = pathsOf(ENTRY_FIELDS);

export function isEntryPath(path: string): boolean {
  let node: PathTree | true = ENTRY_PATHS;
  for (const key of path.split('.')) {
    if (node === true || !Object.hasOwn(node, key)) return false;
    node = node[key]!;
  }
  return true;
}
