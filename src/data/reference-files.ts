// Reference data loaded beside the events (docs/data-format.md, "Reference data"): vessel groups, ports, region
// geometries, an IUU vessel list and a vessel registry. Files are small; each is parsed and checked here, and a bad item names its place.
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { isRegionDataset, REGION_DATASETS } from '../domain/regions.ts';
import type { IuuListing, RegistryAuthorization, RegistryRecord } from '../domain/vessel-identity.ts';
import type { RegionGeometry } from '../store/writer.ts';

export class ReferenceDataError extends Error {}

export interface GroupMember {
  groupId: string;
  vesselId: string;
}
export interface PortRecord {
  id: string;
  name: string | null;
  flag: string | null;
  lat: number | null;
  lon: number | null;
}
/** A region's geometry as the writers store it (`properties.iso3` gives an EEZ's country). */
export type { RegionGeometry };

/** A minimal CSV reader: header row, comma separated, double quotes around fields that need them. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(field), (field = '');
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  row.push(field);
  if (row.some((f) => f !== '')) rows.push(row);
  const [header, ...body] = rows;
  if (!header) return [];
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h.trim(), (r[i] ?? '').trim()])));
}

function need(value: unknown, where: string, what: string): string {
  if (typeof value !== 'string' && typeof value !== 'number') throw new ReferenceDataError(`${where}: ${what} is required`);
  const text = String(value).trim();
  if (text === '') throw new ReferenceDataError(`${where}: ${what} is required`);
  return text;
}

/** CSV `group_id,vessel_id`, or JSON `{"group": ["vessel", ...]}` or `[{"id": "group", "vessels": [...]}]`. */
export function readGroups(file: string): GroupMember[] {
  const text = readFileSync(file, 'utf8');
  if (extname(file).toLowerCase() === '.csv') {
    return parseCsv(text).map((r, i) => ({ groupId: need(r['group_id'], `${file}:${i + 2}`, 'group_id'), vesselId: need(r['vessel_id'], `${file}:${i + 2}`, 'vessel_id') }));
  }
  const json = JSON.parse(text) as unknown;
  const groups: [string, unknown][] = Array.isArray(json)
    ? json.map((g, i) => [need((g as Record<string, unknown>)?.['id'], `${file}: group ${i}`, 'id'), (g as Record<string, unknown>)['vessels']])
    : Object.entries(json as Record<string, unknown>);
  return groups.flatMap(([groupId, vessels]) => {
    if (!Array.isArray(vessels)) throw new ReferenceDataError(`${file}: group "${groupId}" must list its vessel ids`);
    return vessels.map((v, i) => ({ groupId, vesselId: need(v, `${file}: group "${groupId}" vessel ${i}`, 'vessel id') }));
  });
}

/** CSV `id,name,flag,lat,lon` or a JSON array of such objects. */
export function readPorts(file: string): PortRecord[] {
  const text = readFileSync(file, 'utf8');
  const items = extname(file).toLowerCase() === '.csv' ? parseCsv(text) : (JSON.parse(text) as Record<string, unknown>[]);
  return items.map((p, i) => {
    const where = `${file}: port ${i + 1}`;
    const number = (key: string, min: number, max: number) => {
      const v = p[key];
      if (v === undefined || v === null || v === '') return null;
      const n = Number(v);
      if (!Number.isFinite(n) || n < min || n > max) throw new ReferenceDataError(`${where}: ${key} must be a number in [${min}, ${max}]`);
      return n;
    };
    const text = (key: string) => (p[key] === undefined || p[key] === null || p[key] === '' ? null : String(p[key]));
    return { id: need(p['id'], where, 'id'), name: text('name'), flag: text('flag')?.toUpperCase() ?? null, lat: number('lat', -90, 90), lon: number('lon', -180, 180) };
  });
}

function ringsBbox(coordinates: unknown, where: string): [number, number, number, number] {
  let box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      const [x, y] = c as number[];
      if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) throw new ReferenceDataError(`${where}: coordinates must be numbers`);
      box = [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)];
    } else if (Array.isArray(c)) c.forEach(visit);
    else throw new ReferenceDataError(`${where}: coordinates must be nested arrays of positions`);
  };
  visit(coordinates);
  if (!Number.isFinite(box[0])) throw new ReferenceDataError(`${where}: the geometry has no positions`);
  return box;
}

/** Features sharing a region id (a region drawn in parts) become one MultiPolygon. */
export function mergeRegionParts(regions: RegionGeometry[]): RegionGeometry[] {
  const byId = new Map<string, RegionGeometry>();
  for (const r of regions) {
    const seen = byId.get(r.id);
    if (!seen) {
      byId.set(r.id, r);
      continue;
    }
    const polygons = (g: string) => {
      const geometry = JSON.parse(g) as { type: string; coordinates: unknown[] };
      return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
    };
    byId.set(r.id, {
      id: r.id,
      name: seen.name ?? r.name,
      iso3: seen.iso3 ?? r.iso3,
      geometry: JSON.stringify({ type: 'MultiPolygon', coordinates: [...polygons(seen.geometry), ...polygons(r.geometry)] }),
      bbox: [Math.min(seen.bbox[0], r.bbox[0]), Math.min(seen.bbox[1], r.bbox[1]), Math.max(seen.bbox[2], r.bbox[2]), Math.max(seen.bbox[3], r.bbox[3])],
    });
  }
  return [...byId.values()];
}

/** A GeoJSON FeatureCollection of Polygon/MultiPolygon features; the region id is `id` or `properties.id`. */
export function readRegions(file: string, dataset: string): RegionGeometry[] {
  if (!isRegionDataset(dataset)) throw new ReferenceDataError(`unknown region dataset "${dataset}"; known: ${Object.keys(REGION_DATASETS).join(', ')}`);
  const json = JSON.parse(readFileSync(file, 'utf8')) as { type?: string; features?: unknown[] };
  if (json.type !== 'FeatureCollection' || !Array.isArray(json.features)) throw new ReferenceDataError(`${file}: must be a GeoJSON FeatureCollection`);
  return mergeRegionParts(json.features.map((f, i) => {
    const feature = f as { id?: unknown; properties?: Record<string, unknown> | null; geometry?: { type?: string; coordinates?: unknown } | null };
    const where = `${file}: feature ${i}`;
    const id = need(feature.id ?? feature.properties?.['id'], where, 'id (feature.id or properties.id)');
    const type = feature.geometry?.type;
    if (type !== 'Polygon' && type !== 'MultiPolygon') throw new ReferenceDataError(`${where} (${id}): geometry must be a Polygon or MultiPolygon`);
    // `label` and `iso3` as GFW's region lists spell them.
    const name = feature.properties?.['name'] ?? feature.properties?.['label'];
    const iso3 = feature.properties?.['iso3'];
    return {
      id, name: typeof name === 'string' ? name : null, iso3: typeof iso3 === 'string' && iso3 !== '' ? iso3 : null,
      geometry: JSON.stringify(feature.geometry), bbox: ringsBbox(feature.geometry!.coordinates, where),
    };
  }));
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (text: string) => DAY.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

/**
 * An IUU vessel list: CSV with a header, NDJSON (`.ndjson`, `.jsonl`) or a JSON array, each item
 * with `vessel_id` or `ssvid` (or `mmsi`), `listed_from` (YYYY-MM-DD), and optionally `listed_to`,
 * `shipname`, `flag`, `source` (docs/api.md, "Vessel insights").
 */
export function readIuuList(file: string): IuuListing[] {
  return itemsOf(file).map(([where, item]) => {
    const text = textOf(item);
    const vesselId = text('vessel_id');
    const ssvid = text('ssvid') ?? text('mmsi');
    if (vesselId === null && ssvid === null) throw new ReferenceDataError(`${where}: vessel_id or ssvid (mmsi) is required`);
    const listedFrom = need(item['listed_from'], where, 'listed_from');
    const listedTo = text('listed_to');
    for (const [key, day] of [['listed_from', listedFrom], ['listed_to', listedTo]] as const) {
      if (day !== null && !isDay(day)) throw new ReferenceDataError(`${where}: ${key} "${day}" is not a day (YYYY-MM-DD)`);
    }
    if (listedTo !== null && listedTo < listedFrom) throw new ReferenceDataError(`${where}: listed_to ${listedTo} comes before listed_from ${listedFrom}`);
    return { vesselId, ssvid, shipname: text('shipname'), flag: text('flag')?.toUpperCase() ?? null, listedFrom, listedTo, source: text('source') };
  });
}

function parseItem(line: string, where: string): Record<string, unknown> {
  try {
    const item = JSON.parse(line) as unknown;
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) return item as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new ReferenceDataError(`${where}: not a JSON object`);
}

/** The items of a CSV (header row), NDJSON (`.ndjson`, `.jsonl`) or JSON array file, each with where it is. */
function itemsOf(file: string): [string, Record<string, unknown>][] {
  const text = readFileSync(file, 'utf8');
  const extension = extname(file).toLowerCase();
  if (extension === '.csv') return parseCsv(text).map((r, i) => [`${file}:${i + 2}`, r]);
  if (extension === '.ndjson' || extension === '.jsonl') {
    return text.split(/\r?\n/).map((line, i): [string, string] => [`${file}:${i + 1}`, line]).filter(([, line]) => line.trim() !== '').map(([where, line]) => [where, parseItem(line, where)]);
  }
  const json = JSON.parse(text) as unknown;
  if (!Array.isArray(json)) throw new ReferenceDataError(`${file}: a JSON file here is an array of items`);
  return json.map((item, i): [string, Record<string, unknown>] => [`${file}: item ${i + 1}`, item as Record<string, unknown>]);
}

/** A member as trimmed text, or null when absent or empty. */
const textOf = (item: Record<string, unknown>) => (key: string): string | null =>
  item[key] === undefined || item[key] === null || String(item[key]).trim() === '' ? null : String(item[key]).trim();

/** A list member: an array in JSON, `|`-separated text in CSV. */
function listOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter((v) => v !== '');
  if (value === undefined || value === null) return [];
  return String(value).split('|').map((v) => v.trim()).filter((v) => v !== '');
}

/**
 * A vessel registry: one record per row or item, in CSV, NDJSON or a JSON array
 * (docs/api.md, "A vessel registry file"). `vessel_id` names the vessel of the events the record
 * belongs to; lists (`geartypes`, `source_code`, `authorizations`) are arrays in JSON and
 * `|`-separated in CSV, an authorization written `SOURCE:FROM:TO` (dates may be empty).
 */
export function readRegistry(file: string): RegistryRecord[] {
  return itemsOf(file).map(([where, item]) => {
    const text = textOf(item);
    const day = (key: string) => {
      const value = text(key);
      if (value !== null && !isDay(value)) throw new ReferenceDataError(`${where}: ${key} "${value}" is not a day (YYYY-MM-DD)`);
      return value;
    };
    const number = (key: string) => {
      const value = text(key);
      if (value === null) return null;
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) throw new ReferenceDataError(`${where}: ${key} "${value}" is not a number of 0 or more`);
      return n;
    };
    const authorizations = (Array.isArray(item['authorizations']) ? item['authorizations'] : listOf(item['authorizations'])).map((a, i): RegistryAuthorization => {
      const [sourceCode, dateFrom, dateTo] = typeof a === 'string' ? a.split(':').map((p) => p.trim()) : [(a as Record<string, unknown>)['source_code'], (a as Record<string, unknown>)['date_from'], (a as Record<string, unknown>)['date_to']].map((p) => (p === undefined || p === null ? '' : String(p).trim()));
      if (!sourceCode) throw new ReferenceDataError(`${where}: authorization ${i + 1} has no source (SOURCE:FROM:TO)`);
      for (const d of [dateFrom, dateTo]) if (d && !isDay(d)) throw new ReferenceDataError(`${where}: authorization ${i + 1} has "${d}", not a day (YYYY-MM-DD)`);
      return { sourceCode, dateFrom: dateFrom || null, dateTo: dateTo || null };
    });
    const owner = text('owner');
    return {
      vesselId: need(item['vessel_id'], where, 'vessel_id'),
      ssvid: text('ssvid') ?? text('mmsi'),
      imo: text('imo'),
      callsign: text('callsign')?.toUpperCase() ?? null,
      shipname: text('shipname'),
      flag: text('flag')?.toUpperCase() ?? null,
      geartypes: listOf(item['geartypes']).map((g) => g.toUpperCase()),
      lengthM: number('length_m'),
      tonnageGt: number('tonnage_gt'),
      sourceCode: listOf(item['source_code']),
      dateFrom: day('date_from'),
      dateTo: day('date_to'),
      owner: owner === null ? null : { name: owner, flag: text('owner_flag')?.toUpperCase() ?? null, dateFrom: day('owner_date_from'), dateTo: day('owner_date_to') },
      authorizations,
    };
  });
}
