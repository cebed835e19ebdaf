// The entry each client receives (docs/api.md, "Entry"), written as SQL so the loader stores it once:
// a page is then a concatenation of stored texts, with no per-row conversion into JS values and back
// (docs/performance.md). It is stored in the `gfw` wire format, the default; `spec` is derived from
// it when sent (src/shape/spec-wire.ts). Generated from the layout declarations like the loader's
// SQL; test/integration/stored-entries.test.ts checks every stored entry against an independent
// rendering in JS.
//
// Numbers are spelt as JS spells them, so a stored entry is byte for byte what JSON.stringify wrote
// before entries were stored: DuckDB's JSON writer would write 20 as `20.0`. A value JSON cannot
// hold (a loaded "Infinity") is null, as JSON.stringify writes it; the loader refuses them anyway.
import { EVENT_INFO_FIELDS, isObjectField, type InfoField, type ScalarField } from '../../domain/event-info.ts';
import { DISTANCE_FIELDS } from '../../domain/record.ts';
import { REGION_MEMBERS } from '../../domain/regions.ts';
import { EVENT_KINDS, type EventKind } from '../../domain/kinds.ts';

/**
 * A DOUBLE as JS's String() spells it (VARCHAR; NULL when not finite). DuckDB's JSON writer agrees
 * with JS on the digits (the shortest that read back the same double) and on exponents below 1e-6;
 * it differs only on integers, which it writes with `.0`, and at 1e21 and above (only integers),
 * where JS writes `e+`.
 */
export function jsNumberText(x: string): string {
  const json = `to_json(${x})::VARCHAR`;
  return `CASE WHEN NOT isfinite(${x}) THEN NULL WHEN ${x} <> trunc(${x}) THEN ${json}
    WHEN abs(${x}) < 1e21 THEN regexp_replace(${json}, '\\.0$', '') ELSE regexp_replace(${json}, 'e([0-9])', 'e+\\1') END`;
}

/**
 * An entry text written by DuckDB's JSON writer, as JSON.stringify writes it: the writer escapes
 * strings the same way but writes the hex digits of nine control characters in upper case
 * (`\u001F`). Only an escape preceded by an even number of backslashes is one (`\\u001F` is the
 * text "\u001F"); a match consumes the character before it, so each pattern runs twice for runs
 * of escapes. Rows without `\u00` (almost all) are left alone.
 */
export function jsEscapes(json: string): string {
  const fixed = ['000B', '000E', '000F', '001A', '001B', '001C', '001D', '001E', '001F'].reduce((t, hex) => {
    const once = (x: string) => `regexp_replace(${x}, '((?:^|[^\\\\])(?:\\\\\\\\)*)\\\\u${hex}', '\\1\\\\u${hex.toLowerCase()}', 'g')`;
    return once(once(t));
  }, json);
  return `CASE WHEN contains(${json}, '\\u00') THEN ${fixed} ELSE ${json} END`;
}

/** A DOUBLE as a JSON number spelt as JSON.stringify spells it. */
const jsonNumber = (x: string) => `(${jsNumberText(x)})::JSON`;

/** An ISO 8601 instant with milliseconds, as Date#toISOString writes it. */
const isoInstant = (ts: string) => `strftime(${ts}, '%Y-%m-%dT%H:%M:%S.%gZ')`;

const member = (key: string, value: string) => `"${key}" := ${value}`;
const object = (members: string[]) => `struct_pack(${members.join(', ')})`;

/** `gfw` writes some numbers as decimal strings, as the live service does. */
function scalar(f: ScalarField, value: string): string {
  if (f.type === 'number') return f.gfwString ? jsNumberText(value) : jsonNumber(value);
  if (f.type === 'integer' && f.gfwString) return `${value}::VARCHAR`;
  return value;
}

function fields(declared: InfoField[], source: string): string[] {
  return declared.map((f) => {
    const value = `${source}."${f.source}"`;
    if (isObjectField(f)) return member(f.key, `CASE WHEN ${value} IS NOT NULL THEN ${object(fields(f.fields, value))} END`);
    return member(f.key, scalar(f, value));
  });
}

/** A stored vessel (the main vessel's columns, or a vessel STRUCT) as the entry writes it. */
function vessel(v: { id: string; name: string; ssvid: string; flag: string; type: string; authorizations: string; nextPort: string }): string {
  return object([
    member('id', v.id),
    member('name', v.name),
    member('ssvid', v.ssvid),
    member('flag', v.flag),
    member('type', v.type),
    // `gfw` writes the authorization as lower-case text ("true", "false", "pending").
    member('publicAuthorizations', `list_transform(coalesce(${v.authorizations}, []), a -> ${object([
      member('hasPubliclyListedAuthorization', 'lower(a.has_publicly_listed_authorization)'),
      member('rfmo', 'a.rfmo'),
    ])})`),
    // An absent next port is an empty object, as the live service writes it.
    member('nextPort', `CASE WHEN ${v.nextPort} IS NULL THEN '{}'::JSON ELSE to_json(${object(['id', 'name', 'flag'].map((k) => member(k, `${v.nextPort}.${k}`)))}) END`),
  ]);
}

const MAIN_VESSEL = {
  id: 'vessel_id', name: 'vessel_name', ssvid: 'vessel_ssvid', flag: 'vessel_flag', type: 'vessel_type',
  authorizations: 'vessel_authorizations', nextPort: 'next_port',
};
const OTHER_VESSEL = {
  id: 'other_vessel.id', name: 'other_vessel.name', ssvid: 'other_vessel.ssvid', flag: 'other_vessel.flag', type: 'other_vessel.type',
  authorizations: 'other_vessel.public_authorizations', nextPort: 'other_vessel.next_port',
};

function kindBlock(kind: EventKind): string {
  const own = fields(EVENT_INFO_FIELDS[kind], kind);
  // An encounter's block starts with the other vessel (from event_vessels).
  if (kind === 'encounter') own.unshift(member('vessel', `CASE WHEN other_vessel IS NOT NULL THEN ${vessel(OTHER_VESSEL)} END`));
  return object(own);
}

/**
 * The SQL expression (VARCHAR) of a row's entry in the `gfw` wire format, over the events columns.
 * Key order: `start, end, id, type, position, regions, boundingBox, distances, vessel`, then the
 * kind block last (gfwr reads the last key as the kind block).
 */
export function entryJsonSql(): string {
  const common = [
    member('start', isoInstant('start_ts')),
    // An open event's end is `""`, as the live service writes it.
    member('end', `coalesce(${isoInstant('end_ts')}, '')`),
    member('id', 'id'),
    member('type', 'kind'),
    member('position', object([member('lat', jsonNumber('lat')), member('lon', jsonNumber('lon'))])),
    member('regions', object(REGION_MEMBERS.map((m) => member(m.member, m.column)))),
    member('boundingBox', `[${['lon_min', 'lat_min', 'lon_max', 'lat_max'].map(jsonNumber).join(', ')}]`),
    member('distances', object(DISTANCE_FIELDS.map((d) => member(d.member, jsonNumber(d.source))))),
    member('vessel', vessel(MAIN_VESSEL)),
  ];
  return `CASE kind ${EVENT_KINDS.map((k) => `WHEN '${k}' THEN to_json(${object([...common, member(k, kindBlock(k))])})::VARCHAR`).join(' ')} END`;
}
