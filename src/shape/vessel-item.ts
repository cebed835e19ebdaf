// A vessel as the Vessels API answers it: the official clients' VesselItem (the Python client's
// resources/vessels/base/models/response.py; gfwr's get_vessel_info), keys in the order the live
// service writes them. What the events say fills selfReportedInfo and combinedSourcesInfo; the
// loaded registry (`vessel-events vessels load`) fills the registry parts, which are empty for a
// vessel it has no record of, as the live service answers for a vessel no registry matched.
import { createHash } from 'node:crypto';
import type { RegistryRecord, SelfReportedIdentity } from '../domain/vessel-identity.ts';
import { VESSEL_DATASET_LATEST } from '../query/vessel-params.ts';
import { matchLevel, type Vessel } from '../vessels/directory.ts';
import { normalizedShipname } from '../vessels/names.ts';

/** Which registry records to give: all, the latest only, or each that changed the identity. */
export type RegistryDetail = 'ALL' | 'NONE' | 'DELTA';

const time = (day: string | null) => (day === null ? null : `${day}T00:00:00Z`);
const identityOf = (r: RegistryRecord) => JSON.stringify([r.ssvid, r.imo, r.callsign, r.shipname, r.flag]);

function registryInfo(records: readonly RegistryRecord[], detail: RegistryDetail): Record<string, unknown>[] {
  // DELTA: oldest first, a record is kept when its identity differs from the one before it.
  const kept = detail === 'NONE' ? records.slice(0, 1)
    : detail === 'DELTA' ? [...records].reverse().filter((r, i, all) => i === 0 || identityOf(r) !== identityOf(all[i - 1]!)).reverse()
    : records;
  return kept.map((r) => ({
    // Stable across loads of the same record: the live service's ids are opaque hashes too.
    id: createHash('md5').update(JSON.stringify(r)).digest('hex'),
    sourceCode: r.sourceCode,
    ssvid: r.ssvid,
    flag: r.flag,
    shipname: r.shipname,
    nShipname: r.shipname === null ? null : normalizedShipname(r.shipname),
    callsign: r.callsign,
    imo: r.imo,
    latestVesselInfo: r === records[0],
    transmissionDateFrom: time(r.dateFrom),
    transmissionDateTo: time(r.dateTo),
    geartypes: r.geartypes,
    lengthM: r.lengthM,
    tonnageGt: r.tonnageGt,
    vesselInfoReference: null,
    extraFields: [],
  }));
}

function unique<T>(items: T[]): T[] {
  return [...new Map(items.map((i) => [JSON.stringify(i), i])).values()];
}

const owners = (records: readonly RegistryRecord[]) => unique(records.filter((r) => r.owner !== null).map((r) => ({
  name: r.owner!.name, flag: r.owner!.flag, ssvid: r.ssvid, sourceCode: r.sourceCode, dateFrom: time(r.owner!.dateFrom ?? r.dateFrom), dateTo: time(r.owner!.dateTo ?? r.dateTo),
})));

const authorizations = (records: readonly RegistryRecord[]) => unique(records.flatMap((r) => r.authorizations.map((a) => ({
  dateFrom: time(a.dateFrom), dateTo: time(a.dateTo), ssvid: r.ssvid, sourceCode: [a.sourceCode],
}))));

/** Where combinedSourcesInfo's types come from: the events' vessel blocks. */
const TYPE_SOURCE = 'EVENTS';

const year = (iso: string) => Number(iso.slice(0, 4));

function selfReported(i: SelfReportedIdentity, level: string): Record<string, unknown> {
  return {
    id: i.vesselId,
    ssvid: i.ssvid,
    shipname: i.shipname,
    nShipname: i.shipname === null ? null : normalizedShipname(i.shipname),
    flag: i.flag,
    // Events carry neither; a registry would.
    callsign: null,
    imo: null,
    // Counts of AIS messages and positions: this service holds events, not positions.
    messagesCounter: null,
    positionsCounter: null,
    sourceCode: ['AIS'],
    matchFields: level,
    // The first start and the last end of its events under this identity.
    transmissionDateFrom: i.firstSeen,
    transmissionDateTo: i.lastSeen,
  };
}

/** Each type and gear type the vessel's identities reported (and its registry gives), with the years they span. */
function typesOf(identities: readonly SelfReportedIdentity[], typeOf: (i: SelfReportedIdentity) => string | null, registry: readonly RegistryRecord[] = []): Record<string, unknown>[] {
  const spans = new Map<string, { name: string; source: string; from: number; to: number }>();
  const add = (name: string, source: string, from: number, to: number) => {
    const key = `${source}\u0000${name.toUpperCase()}`;
    const span = spans.get(key);
    spans.set(key, { name: name.toUpperCase(), source, from: Math.min(span?.from ?? Infinity, from), to: Math.max(span?.to ?? -Infinity, to) });
  };
  for (const i of identities) {
    const name = typeOf(i);
    if (name) add(name, TYPE_SOURCE, year(i.firstSeen), year(i.lastSeen));
  }
  const [first, last] = [Math.min(...identities.map((i) => year(i.firstSeen))), Math.max(...identities.map((i) => year(i.lastSeen)))];
  for (const r of registry) for (const g of r.geartypes) add(g, 'REGISTRY', r.dateFrom ? year(r.dateFrom) : first, r.dateTo ? year(r.dateTo) : last);
  return [...spans.values()].map((s) => ({ name: s.name, source: s.source, yearFrom: s.from, yearTo: s.to }));
}

/**
 * The vessel's item. `includes` names the search's optional parts (OWNERSHIP, AUTHORIZATIONS,
 * MATCH_CRITERIA); a lookup by id gives every part.
 */
export function vesselItem(vessel: Vessel, includes?: ReadonlySet<string>, detail: RegistryDetail = 'ALL'): Record<string, unknown> {
  const has = (part: string) => !includes || includes.has(part);
  const level = matchLevel(vessel);
  return {
    registryInfoTotalRecords: vessel.registry.length,
    registryInfo: registryInfo(vessel.registry, detail),
    ...(has('OWNERSHIP') ? { registryOwners: owners(vessel.registry) } : {}),
    ...(has('AUTHORIZATIONS') ? { registryPublicAuthorizations: authorizations(vessel.registry) } : {}),
    combinedSourcesInfo: [{ vesselId: vessel.id, geartypes: typesOf(vessel.identities, (i) => i.gearType, vessel.registry), shiptypes: typesOf(vessel.identities, (i) => i.type) }],
    selfReportedInfo: vessel.identities.map((i) => selfReported(i, level)),
    ...(includes?.has('MATCH_CRITERIA')
      ? { matchCriteria: vessel.identities.map((i, n) => ({ reference: i.vesselId, source: 'SELF_REPORTED', latestVesselInfo: n === 0, matchFields: level })) }
      : {}),
    dataset: VESSEL_DATASET_LATEST,
  };
}
