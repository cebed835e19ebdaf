// `raw=true` (docs/api.md, "By id"): the stored record in the published-events layout it was loaded
// from. Values are as stored: typed, timestamps in ISO 8601, flag upper and vessel type lower case.
import { DISTANCE_FIELDS, type EventRecord, type StoredVessel } from '../domain/record.ts';
import { REGION_MEMBERS } from '../domain/regions.ts';

export function toPublishedRow(r: EventRecord): Record<string, unknown> {
  const main: StoredVessel = r.vessel;
  return {
    event_id: r.id,
    event_type: r.kind,
    entity_id: main.id,
    seg_id: r.segId,
    event_start: new Date(r.startMs).toISOString(),
    event_end: r.endMs === null ? null : new Date(r.endMs).toISOString(),
    lat_mean: r.lat,
    lon_mean: r.lon,
    lat_min: r.latMin,
    lat_max: r.latMax,
    lon_min: r.lonMin,
    lon_max: r.lonMax,
    regions_mean_position: Object.fromEntries(REGION_MEMBERS.map((m) => [m.source, r.regions[m.member]])),
    ...Object.fromEntries(DISTANCE_FIELDS.map((d) => [d.source, r.distances[d.member]])),
    event_info: JSON.stringify(r.info),
    // An encounter's `.2` entry is the second vessel of its pair.
    event_vessels: JSON.stringify(!r.otherVessel ? [main] : r.id.endsWith('.2') ? [r.otherVessel, main] : [main, r.otherVessel]),
  };
}
