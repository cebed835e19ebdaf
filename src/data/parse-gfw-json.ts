// GFW Events API entries (as the API, this service or the official clients saved them) mapped back
// to the published-events row the loader stores (docs/data-format.md), so that the service serves
// them as the API did: `vessel-events load --format gfw-json FILE...`. Either wire format is read
// (numbers as numbers or as the live service's decimal strings). What an entry does not carry is
// left empty: the segment id, and a vessel's gear type (so GEARTYPE statistics of such data are
// empty).
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { EVENT_INFO_FIELDS, isObjectField, type InfoField } from '../domain/event-info.ts';
import { isEventKind } from '../domain/kinds.ts';
import { DISTANCE_FIELDS } from '../domain/record.ts';
import { REGION_MEMBERS } from '../domain/regions.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A decimal string (the `gfw` wire format) or a number, as a number; "" and null as null. */
function numeric(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  if (value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
}

/** A kind block's fields under their source keys, typed back. */
function infoOf(block: Json, fields: InfoField[]): Json {
  const info: Json = {};
  for (const f of fields) {
    const value = block[f.key];
    if (value === undefined) continue;
    if (isObjectField(f)) info[f.source] = isObject(value) ? infoOf(value, f.fields) : null;
    else info[f.source] = f.type === 'number' || f.type === 'integer' ? numeric(value) : value;
  }
  return info;
}

/** An entry's vessel in the stored layout (`event_vessels`). */
function storedVessel(v: unknown): Json | null {
  if (!isObject(v)) return null;
  const next = isObject(v['nextPort']) && Object.keys(v['nextPort']).length > 0 ? v['nextPort'] : null;
  const authorizations = Array.isArray(v['publicAuthorizations']) ? v['publicAuthorizations'] : [];
  return {
    id: v['id'] ?? null,
    ssvid: v['ssvid'] ?? null,
    name: v['name'] ?? null,
    flag: v['flag'] ?? null,
    type: v['type'] ?? null,
    gear_type: null,
    public_authorizations: authorizations.filter(isObject).map((a) => ({
      // `spec` writes booleans, `gfw` the text.
      has_publicly_listed_authorization: a['hasPubliclyListedAuthorization'] === null || a['hasPubliclyListedAuthorization'] === undefined ? null : String(a['hasPubliclyListedAuthorization']),
      rfmo: a['rfmo'] ?? null,
    })),
    next_port: next ? { id: next['id'] ?? null, name: next['name'] ?? null, flag: next['flag'] ?? null } : null,
  };
}

/**
 * The published-events row of one entry. Anything that is not an entry becomes a row the loader's
 * validation refuses with its reasons (a missing event_id, event_type, ...), never an exception.
 */
export function publishedRowOf(entry: unknown): Json {
  if (!isObject(entry)) return {};
  const kind = entry['type'];
  const block = isEventKind(String(kind)) && isObject(entry[String(kind)]) ? (entry[String(kind)] as Json) : {};
  const position = isObject(entry['position']) ? entry['position'] : {};
  const box = Array.isArray(entry['boundingBox']) ? entry['boundingBox'].map(numeric) : [];
  const regions = isObject(entry['regions']) ? entry['regions'] : {};
  const distances = isObject(entry['distances']) ? entry['distances'] : {};
  const id = entry['id'];
  const main = storedVessel(entry['vessel']);
  const other = kind === 'encounter' ? storedVessel(block['vessel']) : null;
  return {
    event_id: id,
    event_type: kind,
    entity_id: main?.['id'] ?? null,
    seg_id: null,
    event_start: entry['start'],
    // An open event's end is "" (gfw) or null (spec).
    event_end: entry['end'] === '' ? null : (entry['end'] ?? null),
    lat_mean: numeric(position['lat']),
    lon_mean: numeric(position['lon']),
    lon_min: box[0] ?? null,
    lat_min: box[1] ?? null,
    lon_max: box[2] ?? null,
    lat_max: box[3] ?? null,
    regions_mean_position: Object.fromEntries(REGION_MEMBERS.map((m) => [m.source, Array.isArray(regions[m.member]) ? regions[m.member] : []])),
    ...Object.fromEntries(DISTANCE_FIELDS.map((d) => [d.source, numeric(distances[d.member])])),
    event_info: JSON.stringify(isEventKind(String(kind)) ? infoOf(block, EVENT_INFO_FIELDS[kind as keyof typeof EVENT_INFO_FIELDS]) : {}),
    // An encounter's `.2` entry is the second vessel of its pair (src/shape/raw.ts writes the same).
    event_vessels: JSON.stringify(!other ? (main ? [main] : []) : String(id).endsWith('.2') ? [other, main] : [main, other]),
  };
}

/** Files past this size are read as NDJSON line by line, never parsed whole. */
const WHOLE_FILE_LIMIT = 256 * 1024 * 1024;

/**
 * The rows of a file of entries, as documents for the loader: a list response (`{"entries":
 * [...]}`), a JSON array of entries, or NDJSON of entries. `line` is the entry's line in NDJSON,
 * its position (1, 2, ...) in a JSON document.
 */
export async function* gfwEntryDocuments(file: string): AsyncGenerator<{ line: number; doc: string }> {
  if (statSync(file).size <= WHOLE_FILE_LIMIT) {
    const text = readFileSync(file, 'utf8');
    let whole: unknown;
    try {
      whole = JSON.parse(text);
    } catch {
      whole = undefined;
    }
    const entries = Array.isArray(whole) ? whole : isObject(whole) && Array.isArray(whole['entries']) ? whole['entries'] : isObject(whole) && 'id' in whole ? [whole] : undefined;
    if (entries) {
      for (const [i, entry] of entries.entries()) yield { line: i + 1, doc: JSON.stringify(publishedRowOf(entry)) };
      return;
    }
  }
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch {
      // The loader reports the line as it reports any line that is not JSON.
      yield { line, doc: text };
      continue;
    }
    yield { line, doc: JSON.stringify(publishedRowOf(entry)) };
  }
}
