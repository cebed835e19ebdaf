// The entry clients receive (docs/api.md, "Entry"), rendered in JS from a stored record: the tests'
// independent oracle for the entries the loader writes in SQL (src/store/duckdb/entry-sql.ts).
// Key order `start, end, id, type, position, regions, boundingBox, distances, vessel`, then the
// kind block last (gfwr reads the last key as the kind block).
import { EVENT_INFO_FIELDS, isObjectField, type InfoField } from '../../src/domain/event-info.ts';
import { DISTANCE_FIELDS, type EventRecord, type StoredVessel } from '../../src/domain/record.ts';
import { REGION_MEMBERS } from '../../src/domain/regions.ts';
import type { WireFormat } from '../../src/shape/wire.ts';
import type { Entry } from '../../src/shape/shaping.ts';

export function toEntry(r: EventRecord, wire: WireFormat): Entry {
  const block: Entry = r.kind === 'encounter' ? { vessel: r.otherVessel ? toVessel(r.otherVessel, wire) : null } : {};
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
    vessel: toVessel(r.vessel, wire),
    [r.kind]: Object.assign(block, toFields(EVENT_INFO_FIELDS[r.kind], r.info, wire)),
  };
}

function toVessel(v: StoredVessel, wire: WireFormat): Entry {
  return {
    id: v.id,
    name: v.name,
    ssvid: v.ssvid,
    flag: v.flag,
    type: v.type,
    publicAuthorizations: (v.public_authorizations ?? []).map((a) => ({
      hasPubliclyListedAuthorization: toAuthorization(a.has_publicly_listed_authorization, wire),
      rfmo: a.rfmo,
    })),
    nextPort: v.next_port ? { id: v.next_port.id, name: v.next_port.name, flag: v.next_port.flag } : {},
  };
}

// spec: true / false, or "pending" while the registry check is pending; gfw: always a string.
function toAuthorization(value: string | null, wire: WireFormat): boolean | string | null {
  if (value === null) return null;
  const text = value.toLowerCase();
  if (wire === 'gfw') return text;
  return text === 'true' ? true : text === 'false' ? false : text;
}

function toFields(fields: InfoField[], source: Record<string, unknown>, wire: WireFormat): Entry {
  const out: Entry = {};
  for (const f of fields) {
    const value = source[f.source] ?? null;
    if (isObjectField(f)) {
      out[f.key] = value === null ? null : toFields(f.fields, value as Record<string, unknown>, wire);
    } else {
      out[f.key] = wire === 'gfw' && f.gfwString && value !== null ? String(value) : value;
    }
  }
  return out;
}
