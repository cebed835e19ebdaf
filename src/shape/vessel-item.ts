// A vessel as the Vessels API answers it: the official clients' VesselItem (the Python client's
// resources/vessels/base/models/response.py; gfwr's get_vessel_info), keys in the order the live
// service writes them. What the events say fills selfReportedInfo and combinedSourcesInfo; the
// registry parts are empty, as the live service answers for a vessel no registry matched.
import type { SelfReportedIdentity } from '../domain/vessel-identity.ts';
import { VESSEL_DATASET_LATEST } from '../query/vessel-params.ts';
import type { Vessel } from '../vessels/directory.ts';
import { normalizedShipname } from '../vessels/names.ts';

/** A vessel's match level against registries: none is loaded, so none matched. */
export const MATCH_LEVEL = 'NO_MATCH';

/** Where combinedSourcesInfo's types come from: the events' vessel blocks. */
const TYPE_SOURCE = 'EVENTS';

const year = (iso: string) => Number(iso.slice(0, 4));

function selfReported(i: SelfReportedIdentity): Record<string, unknown> {
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
    matchFields: MATCH_LEVEL,
    // The first start and the last end of its events under this identity.
    transmissionDateFrom: i.firstSeen,
    transmissionDateTo: i.lastSeen,
  };
}

/** Each type and gear type the vessel's identities reported, with the years they span. */
function typesOf(identities: readonly SelfReportedIdentity[], typeOf: (i: SelfReportedIdentity) => string | null): Record<string, unknown>[] {
  const spans = new Map<string, { from: number; to: number }>();
  for (const i of identities) {
    const name = typeOf(i);
    if (!name) continue;
    const key = name.toUpperCase();
    const span = spans.get(key);
    spans.set(key, { from: Math.min(span?.from ?? Infinity, year(i.firstSeen)), to: Math.max(span?.to ?? -Infinity, year(i.lastSeen)) });
  }
  return [...spans].map(([name, span]) => ({ name, source: TYPE_SOURCE, yearFrom: span.from, yearTo: span.to }));
}

/**
 * The vessel's item. `includes` names the search's optional parts (OWNERSHIP, AUTHORIZATIONS,
 * MATCH_CRITERIA); a lookup by id gives every part.
 */
export function vesselItem(vessel: Vessel, includes?: ReadonlySet<string>): Record<string, unknown> {
  const has = (part: string) => !includes || includes.has(part);
  return {
    registryInfoTotalRecords: 0,
    registryInfo: [],
    ...(has('OWNERSHIP') ? { registryOwners: [] } : {}),
    ...(has('AUTHORIZATIONS') ? { registryPublicAuthorizations: [] } : {}),
    combinedSourcesInfo: [{ vesselId: vessel.id, geartypes: typesOf(vessel.identities, (i) => i.gearType), shiptypes: typesOf(vessel.identities, (i) => i.type) }],
    selfReportedInfo: vessel.identities.map(selfReported),
    ...(includes?.has('MATCH_CRITERIA')
      ? { matchCriteria: vessel.identities.map((i, n) => ({ reference: i.vesselId, source: 'SELF_REPORTED', latestVesselInfo: n === 0, matchFields: MATCH_LEVEL })) }
      : {}),
    dataset: VESSEL_DATASET_LATEST,
  };
}
