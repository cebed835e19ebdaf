// to*: a stored record -> the entry clients receive (decisions section 5): key order
// `start, end, id, type, position, regions, boundingBox, distances, vessel`, then the kind block
// last (gfwr reads the last key as the kind block).
import { EVENT_INFO_FIELDS, isObjectField, readScalar, type InfoField } from '../data/event-info.ts';
import { DISTANCE_FIELDS, REGION_MEMBERS, type EventRecord, type SourceVessel } from '../data/record.ts';
import type { WireFormat } from './wire.ts';

export type Entry = Record<string, unknown>;

export function toEntry(r: EventRecord, wire: WireFormat): Entry {
  const vessels = JSON.parse(r.eventVessels) as SourceVessel[];
  const main = vessels.find((v) => v.id === r.vesselId)!;
  const info = JSON.parse(r.eventInfo) as Record<string, unknown>;
  const block = toKindBlock(r, info, wire);
  if (r.kind === 'encounter') {
    const other = vessels.find((v) => v !== main);
    block['vessel'] = other ? toVessel(other, wire) : null;
  }
  return {
    start: new Date(r.startMs).toISOString(),
    // An open event: `null` in spec, `""` as the live service writes it.
    end: r.endMs === null ? (wire === 'gfw' ? '' : null) : new Date(r.endMs).toISOString(),
    id: r.id,
    type: r.kind,
    position: { lat: r.lat, lon: r.lon },
    regions: Object.fromEntries(REGION_MEMBERS.map((m) => [m.member, r.regions[m.member]])),
    boundingBox: [r.lonMin, r.latMin, r.lonMax, r.latMax],
    distances: Object.fromEntries(DISTANCE_FIELDS.map((d) => [d.member, r.distances[d.member]])),
    vessel: toVessel(main, wire),
    [r.kind]: block,
  };
}

function toVessel(v: SourceVessel, wire: WireFormat): Entry {
  return {
    id: v.id,
    name: v.name ?? null,
    ssvid: v.ssvid ?? null,
    flag: v.flag ? v.flag.toUpperCase() : null,
    type: v.type ? v.type.toLowerCase() : null,
    publicAuthorizations: (v.public_authorizations ?? []).map((a) => ({
      hasPubliclyListedAuthorization: toAuthorization(a.has_publicly_listed_authorization, wire),
      rfmo: a.rfmo,
    })),
    nextPort: v.next_port ? { id: v.next_port.id, name: v.next_port.name ?? null, flag: v.next_port.flag ?? null } : {},
  };
}

// spec: true / false, or "pending" while the registry check is pending; gfw: always a string.
function toAuthorization(value: boolean | string | null, wire: WireFormat): boolean | string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).toLowerCase();
  if (wire === 'gfw') return text;
  return text === 'true' ? true : text === 'false' ? false : text;
}

function toKindBlock(r: EventRecord, info: Record<string, unknown>, wire: WireFormat): Entry {
  // The encounter block starts with the other vessel; the key is reserved here to keep its place.
  const block: Entry = r.kind === 'encounter' ? { vessel: null } : {};
  return Object.assign(block, toFields(EVENT_INFO_FIELDS[r.kind], info, wire));
}

function toFields(fields: InfoField[], source: Record<string, unknown>, wire: WireFormat): Entry {
  const out: Entry = {};
  for (const f of fields) {
    const raw = source[f.source];
    if (isObjectField(f)) {
      out[f.key] = raw && typeof raw === 'object' ? toFields(f.fields, raw as Record<string, unknown>, wire) : null;
      continue;
    }
    const read = readScalar(f, raw);
    const value = read.ok ? read.value : null;
    out[f.key] = wire === 'gfw' && f.gfwString && value !== null ? String(value) : value;
  }
  return out;
}
