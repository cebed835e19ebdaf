// The analyst formats of a list page (and GeoJSON of one event), beside the API's JSON: CSV (one
// row per entry, flattened columns), GeoJSON (a FeatureCollection of points with the entry as
// properties) and NDJSON (one entry per line). Each is written entry by entry as the store hands
// over its chunks, with the same bounded memory as the JSON page; the same shaping (wire format,
// summary, includes, include-regions) applies to every format. Parquet, whose file ends with its
// schema, is written whole first (parquet.ts).
import { ENTRY_PATHS, type PathTree } from '../domain/entry-paths.ts';
import type { EventKind } from '../domain/kinds.ts';
import { EVENT_KINDS } from '../domain/kinds.ts';
import type { ListFormat } from '../query/enumerations.ts';
import type { EntryShape } from '../query/types.ts';
import { footerMembers, joinable, streamListBody, type EntryPages, type ListFooter } from './list-body.ts';
import { pathTree, project } from './paths.ts';
import { entryShaper, entryTextShaper, SUMMARY, type Entry } from './shaping.ts';
import type { WireFormat } from './wire.ts';


export const MEDIA_TYPES: Record<ListFormat, string> = {
  json: 'application/json',
  csv: 'text/csv; charset=utf-8',
  geojson: 'application/geo+json',
  ndjson: 'application/x-ndjson',
  parquet: 'application/vnd.apache.parquet',
};
/** Media types an Accept header may name, and the format each asks for. */
const ACCEPTED: Record<string, ListFormat> = {
  'application/json': 'json', '*/*': 'json', 'application/*': 'json',
  'text/csv': 'csv', 'application/geo+json': 'geojson', 'application/x-ndjson': 'ndjson', 'application/ndjson': 'ndjson',
  'application/vnd.apache.parquet': 'parquet',
};

/** The format an Accept header prefers among `allowed` (by q, then by order); undefined when it names none. */
export function formatFromAccept(accept: string | undefined, allowed: readonly ListFormat[]): ListFormat | undefined {
  if (!accept) return undefined;
  const ranked = accept.split(',').map((part, index) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith('q='))?.slice(2) ?? 1);
    return { format: ACCEPTED[type!.trim()], q: Number.isFinite(q) ? q : 0, index };
  });
  return ranked.filter((r) => r.format && r.q > 0 && allowed.includes(r.format)).sort((a, b) => b.q - a.q || a.index - b.index)[0]?.format;
}

/** A page in the chosen format; `kinds` are the kinds of the datasets asked for (the CSV's kind columns). */
export function streamListAs(format: Exclude<ListFormat, 'parquet'>, pages: EntryPages, footer: ListFooter, wire: WireFormat, shape: EntryShape, kinds: readonly EventKind[]): AsyncGenerator<string | Buffer> {
  if (format === 'json') return streamListBody(pages, footer, wire, shape, kinds);
  if (format === 'ndjson') return streamNdjson(pages, wire, shape, kinds);
  if (format === 'geojson') return streamGeoJson(pages, footer, wire, shape);
  return streamCsv(pages, wire, shape, kinds);
}

async function* streamNdjson(pages: EntryPages, wire: WireFormat, shape: EntryShape, kinds: readonly EventKind[]): AsyncGenerator<string | Buffer> {
  const shaped = entryTextShaper(shape, wire, kinds);
  if ((!shaped || shaped.bytes) && joinable(pages)) {
    let any = false;
    for await (const bytes of pages.joined('\n')) {
      if (bytes.length === 0) continue;
      yield shaped?.bytes ? shaped.bytes(bytes) : bytes;
      any = true;
    }
    if (any) yield '\n';
    return;
  }
  for await (const entries of pages) {
    if (entries.length === 0) continue;
    yield `${(shaped ? entries.map(shaped.text) : entries).join('\n')}\n`;
  }
}

/** A GeoJSON Feature of one entry: its point (from the entry as stored, whatever `includes` keep) and the shaped entry. */
export function featureOf(stored: Entry, shaped: Entry): Record<string, unknown> {
  const position = stored['position'] as { lat?: unknown; lon?: unknown } | undefined;
  const lat = Number(position?.lat), lon = Number(position?.lon);
  const geometry = Number.isFinite(lat) && Number.isFinite(lon) ? { type: 'Point', coordinates: [lon, lat] } : null;
  return { type: 'Feature', id: stored['id'], geometry, properties: shaped };
}

async function* streamGeoJson(pages: AsyncIterable<string[]> | Iterable<string[]>, footer: ListFooter, wire: WireFormat, shape: EntryShape): AsyncGenerator<string> {
  const shaped = entryShaper(shape, wire) ?? ((e: Entry) => e);
  yield '{"type":"FeatureCollection","features":[';
  let first = true;
  for await (const entries of pages) {
    if (entries.length === 0) continue;
    yield (first ? '' : ',') + entries.map((text) => {
      const stored = JSON.parse(text) as Entry;
      return JSON.stringify(featureOf(stored, shaped(stored)));
    }).join(',');
    first = false;
  }
  // Foreign members (RFC 7946 section 6.1): the page's total and paging, as the JSON page gives them.
  yield `],${footerMembers(footer)}}`;
}

/** Subtrees whose value is an array of objects: one column, the array as JSON. */
const ARRAY_COLUMNS = new Set(['publicAuthorizations']);

/** The paths an entry of these kinds can carry, less what the shape leaves out, in the entry layout's order. */
export function shapedPaths(kinds: readonly EventKind[], shape: EntryShape): PathTree {
  let tree = Object.fromEntries(Object.entries(ENTRY_PATHS).filter(([key]) => !(EVENT_KINDS as readonly string[]).includes(key) || kinds.includes(key as EventKind))) as PathTree;
  if (shape.summary) tree = project(tree, SUMMARY) as PathTree;
  if (!shape.includeRegions) delete tree['regions'];
  if (shape.includes) tree = project(tree, pathTree(shape.includes)) as PathTree;
  return tree;
}

/** The CSV's columns: the shaped paths, an array of objects as one column. */
export function csvColumns(kinds: readonly EventKind[], shape: EntryShape): string[] {
  const tree = shapedPaths(kinds, shape);
  const columns: string[] = [];
  const walk = (node: PathTree, prefix: string) => {
    for (const [key, child] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (child === true || ARRAY_COLUMNS.has(key)) columns.push(path);
      else walk(child, path);
    }
  };
  walk(tree, '');
  return columns;
}

/** The value at a path (its keys split once per page, not per entry). */
function at(entry: unknown, keys: readonly string[]): unknown {
  let value = entry;
  for (const key of keys) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * One CSV field (RFC 4180): empty for a missing or null value; an array of scalars joined by `;`
 * (region ids, the bounding box), any other array or object as JSON. A text that a spreadsheet
 * would run as a formula (=, +, -, @ and not a number) is prefixed with an apostrophe (OWASP's
 * advice for CSV injection).
 */
export function csvField(value: unknown): string {
  if (value === undefined || value === null) return '';
  let text: string;
  if (Array.isArray(value)) text = value.every((v) => v === null || typeof v !== 'object') ? value.map((v) => (v === null ? '' : String(v))).join(';') : JSON.stringify(value);
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !Number.isFinite(Number(text))) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function* streamCsv(pages: AsyncIterable<string[]> | Iterable<string[]>, wire: WireFormat, shape: EntryShape, kinds: readonly EventKind[]): AsyncGenerator<string> {
  const columns = csvColumns(kinds, shape);
  const paths = columns.map((c) => c.split('.'));
  const shaped = entryShaper(shape, wire) ?? ((e: Entry) => e);
  yield `${columns.join(',')}\r\n`;
  for await (const entries of pages) {
    if (entries.length === 0) continue;
    yield entries.map((text) => {
      const entry = shaped(JSON.parse(text) as Entry);
      return `${paths.map((keys) => csvField(at(entry, keys))).join(',')}\r\n`;
    }).join('');
  }
}
