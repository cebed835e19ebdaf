// SQL generated from the layout declarations (src/domain/event-info.ts): the column types of the
// typed kind blocks, the expressions that build them from a row's JSON, and the checks that name
// a bad field. Only declared constants become SQL text here; row values are data, never SQL.
import { isObjectField, NEXT_PORT_FIELDS, PUBLIC_AUTHORIZATION_FIELDS, type InfoField, type ScalarField } from '../../domain/event-info.ts';
import { sqlText } from '../sql.ts';

const SQL_TYPE: Record<ScalarField['type'], string> = { number: 'DOUBLE', integer: 'INTEGER', string: 'VARCHAR', boolean: 'BOOLEAN' };
const WORDS: Record<ScalarField['type'], string> = { number: 'a number', integer: 'an integer', string: 'a string', boolean: 'true or false' };

export function structType(fields: InfoField[]): string {
  return `STRUCT(${fields.map((f) => `"${f.source}" ${isObjectField(f) ? structType(f.fields) : SQL_TYPE[f.type]}`).join(', ')})`;
}

export const AUTHORIZATIONS_TYPE = `${structType(PUBLIC_AUTHORIZATION_FIELDS)}[]`;
export const NEXT_PORT_TYPE = structType(NEXT_PORT_FIELDS);
/** A vessel as stored for an encounter's other vessel. */
export const VESSEL_TYPE = `STRUCT("id" VARCHAR, "ssvid" VARCHAR, "name" VARCHAR, "flag" VARCHAR, "type" VARCHAR, "gear_type" VARCHAR, "public_authorizations" ${AUTHORIZATIONS_TYPE}, "next_port" ${NEXT_PORT_TYPE})`;

/** The json_transform shape of an `event_vessels` list (lenient: mismatches become NULL). */
export const VESSEL_LIST_JSON_SHAPE = JSON.stringify([
  {
    id: 'VARCHAR', ssvid: 'VARCHAR', name: 'VARCHAR', flag: 'VARCHAR', type: 'VARCHAR', gear_type: 'VARCHAR',
    public_authorizations: [{ has_publicly_listed_authorization: 'VARCHAR', rfmo: 'VARCHAR' }],
    next_port: { id: 'VARCHAR', name: 'VARCHAR', flag: 'VARCHAR' },
  },
]);

/** Where a field's value and JSON type are: SQL expressions for a JSON path. */
export interface JsonAccess {
  text(path: string): string;
  type(path: string): string;
}

/**
 * Every leaf and object path of the declared fields, in declaration order (`$.a`, `$.a.b`);
 * with `objectsOnly`, the paths of object fields alone.
 */
export function fieldPaths(fields: InfoField[], prefix = '$', objectsOnly = false): string[] {
  return fields.flatMap((f) => {
    const path = `${prefix}.${f.source}`;
    if (!isObjectField(f)) return objectsOnly ? [] : [path];
    return [path, ...fieldPaths(f.fields, path, objectsOnly)];
  });
}

const present = (at: JsonAccess, path: string) => `coalesce(${at.text(path)}, '') <> ''`;

/** struct_pack of the declared fields, each TRY_CAST from its JSON text. */
export function structFromJson(fields: InfoField[], at: JsonAccess, prefix = '$'): string {
  const members = fields.map((f) => {
    const path = `${prefix}.${f.source}`;
    if (isObjectField(f)) {
      return `"${f.source}" := CASE WHEN ${at.type(path)} = 'OBJECT' THEN ${structFromJson(f.fields, at, path)} END`;
    }
    const cast = `TRY_CAST(${at.text(path)} AS ${SQL_TYPE[f.type]})`;
    return `"${f.source}" := ${f.lowerCase ? `lower(${cast})` : cast}`;
  });
  return `struct_pack(${members.join(', ')})`;
}

export interface Check {
  /** SQL condition that is true when the row is bad. */
  when: string;
  /** SQL expression of the message, `field: detail`. */
  message: string;
}

/** Checks of one kind's event_info, in declaration order. `got` renders the offending value. */
export function infoChecks(fields: InfoField[], at: JsonAccess, got: (path: string) => string, kind: string, column: string, prefix = '$'): Check[] {
  const checks: Check[] = [];
  for (const f of fields) {
    const path = `${prefix}.${f.source}`;
    const name = path.slice(2);
    if (isObjectField(f)) {
      if (f.required) {
        checks.push({ when: `${at.type(path)} IS DISTINCT FROM 'OBJECT'`, message: sqlText(`${column}: ${name} is required for ${kind} events (an object)`) });
      } else {
        checks.push({ when: `${at.type(path)} NOT IN ('OBJECT', 'NULL')`, message: sqlText(`${column}: ${name} must be an object or null`) });
      }
      checks.push(...infoChecks(f.fields, at, got, kind, column, path));
      continue;
    }
    if (f.required) checks.push({ when: `NOT ${present(at, path)}`, message: sqlText(`${column}: ${name} is required for ${kind} events`) });
    checks.push({
      // A number must be finite: JSON has no Infinity or NaN, and entries are JSON.
      when: `${present(at, path)} AND ${f.type === 'number' ? `NOT coalesce(isfinite(TRY_CAST(${at.text(path)} AS DOUBLE)), false)` : `TRY_CAST(${at.text(path)} AS ${SQL_TYPE[f.type]}) IS NULL`}`,
      message: `${sqlText(`${column}: ${name} must be ${WORDS[f.type]}, got `)} || ${got(path)}`,
    });
  }
  return checks;
}
