// parse*: wire syntax. A GET query string and a POST body are both rewritten into the canonical
// body shape (camelCase names, arrays as arrays), then validated against the route's TypeBox
// schema. Every problem becomes one message naming the parameter as the client spelled it.
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { TObject, TSchema } from '@sinclair/typebox';
import { canonicalParameterName, hasIndexSuffix } from '../query/parameters.ts';
import { ProblemCollector } from '../query/errors.ts';
import { nearest } from '../query/suggest.ts';

const Ajv = AjvModule.default ?? AjvModule;
// coerceTypes 'array': "240" -> 240, "true" -> true, [true] -> true, "CHN" -> ["CHN"] (docs/api.md, "Spellings").
const ajv = new Ajv({ coerceTypes: 'array', allErrors: true, strict: false, useDefaults: false });
const compiled = new WeakMap<TSchema, ValidateFunction>();

export interface CanonicalRequest {
  values: Record<string, unknown>;
  /** Canonical name -> the spelling the client used. */
  spelled: Map<string, string>;
}

type Schema = TSchema & { enum?: string[]; items?: Schema; type?: string; minimum?: number; maximum?: number; exclusiveMinimum?: number; pattern?: string; 'x-expected'?: string };

// Own properties only: `constructor` or `__proto__` must never find Object.prototype's members.
function propertySchema(schema: TObject, name: string): Schema | undefined {
  return Object.hasOwn(schema.properties, name) ? (schema.properties[name] as Schema) : undefined;
}

function isArrayProperty(s: Schema): boolean {
  return s.type === 'array';
}

/** GET: `flags=CHN&flags=ESP`, `flags=CHN,ESP` and `flags[0]=CHN&flags%5B1%5D=ESP` all mean the same. */
export function readQueryString(rawQuery: string, schema: TObject, problems: ProblemCollector, operation: string): CanonicalRequest {
  const values: Record<string, unknown> = {};
  const spelled = new Map<string, string>();
  for (const [spelling, value] of new URLSearchParams(rawQuery)) {
    const name = canonicalParameterName(spelling);
    const prop = propertySchema(schema, name);
    if (!prop) {
      rejectUnknown(spelling, schema, problems, operation);
      continue;
    }
    if (!spelled.has(name)) spelled.set(name, spelling.replace(/\[\d*\]$/, ''));
    if (isArrayProperty(prop)) {
      const list = (values[name] as string[] | undefined) ?? [];
      // Commas split plain values; an indexed element is one value even if it holds a comma.
      list.push(...(hasIndexSuffix(spelling) ? [value] : value.split(',')).map((v) => v.trim()).filter((v) => v !== ''));
      values[name] = list;
    } else if (Object.hasOwn(values, name) && values[name] !== value) {
      problems.add(spelled.get(name)!, `${spelled.get(name)} is given more than once with different values`);
    } else {
      values[name] = value;
    }
  }
  return { values, spelled };
}

/** POST bodies: camelCase and hyphenated spellings of one member must not disagree. */
export function readBody(body: unknown, schema: TObject, problems: ProblemCollector, operation: string): CanonicalRequest {
  const values: Record<string, unknown> = {};
  const spelled = new Map<string, string>();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    problems.add('body', 'the request body must be a JSON object, e.g. {"datasets":["public-global-fishing-events:latest"]}');
    return { values, spelled };
  }
  for (const [spelling, value] of Object.entries(body)) {
    const name = canonicalParameterName(spelling);
    if (!propertySchema(schema, name)) {
      rejectUnknown(spelling, schema, problems, operation);
      continue;
    }
    if (Object.hasOwn(values, name) && JSON.stringify(values[name]) !== JSON.stringify(value)) {
      problems.add(spelling, `${spelling} and ${spelled.get(name)} are the same parameter and disagree`);
      continue;
    }
    spelled.set(name, spelling);
    values[name] = value;
  }
  return { values, spelled };
}

/** A client's string in a message, cut short: an error must not echo a megabyte back. */
export function shortened(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} characters)`;
}

/** `vesselTypes` -> `vessel-types`: how a GET query string usually spells a parameter. */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function rejectUnknown(spelling: string, schema: TObject, problems: ProblemCollector, operation: string): void {
  const typed = spelling.replace(/\[\d*\]$/, '');
  const shown = shortened(typed);
  // The parameter nearest to what was typed, in the client's own style (hyphens or camelCase).
  const names = Object.keys(schema.properties);
  const match = typed.length <= 40 ? nearest(typed, /[-_]/.test(typed) ? names.map(kebab) : names) : undefined;
  problems.add(shown, `${shown} is not a parameter of ${operation}${match ? `; did you mean ${match}?` : ''}; see /openapi.json for the accepted parameters`);
}

/** Enum values are matched case-insensitively; `start` and ` start` (a `+` decoded as space) mean `+start`. */
function canonicalEnumValue(schema: Schema, value: unknown): unknown {
  if (!schema.enum || typeof value !== 'string') return value;
  const wanted = value.trim().toUpperCase();
  return (
    schema.enum.find((e) => e.toUpperCase() === wanted) ??
    schema.enum.find((e) => e.toUpperCase() === `+${wanted}`) ??
    value
  );
}

function canonicalEnums(schema: TObject, values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values)) {
    const prop = propertySchema(schema, name)!;
    if (isArrayProperty(prop) && Array.isArray(value) && prop.items) {
      values[name] = value.map((v) => canonicalEnumValue(prop.items!, v));
    } else {
      values[name] = canonicalEnumValue(prop, value);
    }
  }
}

/**
 * The schema's compiled validator. Routes compile theirs when they are registered: compiling one
 * takes about 100 ms of the event loop, which the first request would otherwise wait for, and
 * every other request with it (/healthz included).
 */
export function validatorOf(schema: TObject): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Checks values against the schema (coercing as docs/api.md, "Spellings" allows); adds one message per bad parameter. */
export function validateAgainst(schema: TObject, request: CanonicalRequest, problems: ProblemCollector): void {
  canonicalEnums(schema, request.values);
  const validate = validatorOf(schema);
  // Ajv coerces in place; messages quote the values as the client sent them.
  const asSent = structuredClone(request.values);
  if (validate(request.values)) return;
  const reported = new Set<string>();
  for (const error of validate.errors ?? []) {
    const name = topLevelName(error);
    if (reported.has(name)) continue;
    reported.add(name);
    const title = request.spelled.get(name) ?? name;
    const prop = propertySchema(schema, name);
    if (error.keyword === 'required') {
      problems.add(title, `${title} is required${prop ? `: ${expected(prop)}` : ''}`);
    } else {
      problems.add(title, `${title} must be ${prop ? expected(prop) : 'valid'}, got ${shortened(JSON.stringify(valueAt(asSent, error.instancePath)) ?? 'nothing', 200)}`);
    }
  }
}

function topLevelName(error: ErrorObject): string {
  if (error.keyword === 'required') return (error.params as { missingProperty: string }).missingProperty;
  return error.instancePath.split('/')[1] ?? '';
}

// A scalar sent where a list is expected is coerced to a one-element list before validation, so
// the error's path goes one level deeper than what was sent: the scalar itself is quoted.
function valueAt(values: Record<string, unknown>, path: string): unknown {
  return path.split('/').slice(1).reduce<unknown>((v, key) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : v), values);
}

function range(s: Schema): string {
  const low = s.minimum !== undefined ? `>= ${s.minimum}` : s.exclusiveMinimum !== undefined ? `> ${s.exclusiveMinimum}` : undefined;
  if (low && s.maximum !== undefined) return ` ${low} and <= ${s.maximum}`;
  if (s.maximum !== undefined) return ` <= ${s.maximum}`;
  return low ? ` ${low}` : '';
}

/** What a schema accepts, in words, derived from the schema itself so messages cannot drift from it. */
export function expected(s: Schema): string {
  if (s['x-expected']) return s['x-expected'];
  if (s.enum) return `one of ${s.enum.join(', ')}`;
  switch (s.type) {
    case 'array':
      return s.items ? `a list of values, each ${expected(s.items)}` : 'a list';
    case 'integer':
      return `an integer${range(s)}`;
    case 'number':
      return `a number${range(s)}`;
    case 'boolean':
      return 'true or false';
    default:
      return 'a string';
  }
}
