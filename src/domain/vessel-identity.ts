// A vessel as its events describe it: each distinct identity it reported (MMSI, name, flag,
// type), with when the events first and last show it. The Vessels API answers from these
// (src/vessels/); they are read from the latest version of every event dataset.

export interface SelfReportedIdentity {
  vesselId: string;
  ssvid: string | null;
  shipname: string | null;
  flag: string | null;
  /** The vessel's type as the events give it (fishing, carrier, ...). */
  type: string | null;
  gearType: string | null;
  /** ISO times of the earliest start and the latest end (or start) of its events under this identity. */
  firstSeen: string;
  lastSeen: string;
  /** Events of every dataset carrying this identity. */
  events: number;
}

/**
 * An identity packed as one string: its fields in SelfReportedIdentity's order, split by
 * IDENTITY_FIELD, a null as IDENTITY_NULL. The Vessels API keeps identities so: an object costs
 * about 450 bytes of heap and a row about 150, and at 50M events there are 828,834 of them
 * (docs/performance.md, "Vessel search"). A store reading many separates rows with
 * IDENTITY_ROW_END; names never hold these control characters, and a value that did would hold a
 * space in their place.
 */
export type IdentityRow = string;
export const IDENTITY_FIELD = '\u001f';
export const IDENTITY_NULL = '\u0000';
export const IDENTITY_ROW_END = '\u001e';

const packed = (value: string | null) => (value === null ? IDENTITY_NULL : value.replace(/[\u001e\u001f]/g, ' '));

export function identityRow(i: SelfReportedIdentity): IdentityRow {
  return [i.vesselId, i.ssvid, i.shipname, i.flag, i.type, i.gearType, i.firstSeen, i.lastSeen].map(packed).join(IDENTITY_FIELD) + IDENTITY_FIELD + String(i.events);
}

/** A row's fields: the nine of identityRow, nulls as null. */
export function identityFields(row: IdentityRow): (string | null)[] {
  return row.split(IDENTITY_FIELD).map((v) => (v === IDENTITY_NULL ? null : v));
}

export function identityOfRow(row: IdentityRow): SelfReportedIdentity {
  const [vesselId, ssvid, shipname, flag, type, gearType, firstSeen, lastSeen, events] = identityFields(row);
  return { vesselId: vesselId!, ssvid: ssvid ?? null, shipname: shipname ?? null, flag: flag ?? null, type: type ?? null, gearType: gearType ?? null, firstSeen: firstSeen!, lastSeen: lastSeen!, events: Number(events) };
}

/**
 * One listing of a vessel on an IUU (illegal, unreported, unregulated fishing) vessel list, as
 * `vessel-events iuu load` reads it: the vessel by its id or by the MMSI it reported.
 */
export interface IuuListing {
  vesselId: string | null;
  ssvid: string | null;
  shipname: string | null;
  flag: string | null;
  /** YYYY-MM-DD: the day it was listed, and the day it was delisted (null while listed). */
  listedFrom: string;
  listedTo: string | null;
  /** The list, e.g. "IOTC IUU vessel list". */
  source: string | null;
}

/** A vessel's public authorization to fish in an RFMO's area, from a registry. */
export interface RegistryAuthorization {
  /** The RFMO or list that publishes it, e.g. ICCAT. */
  sourceCode: string;
  dateFrom: string | null;
  dateTo: string | null;
}

/**
 * One registry record of a vessel, as `vessel-events vessels load` reads it: the identity a
 * registry gives it over a span of time, and optionally its owner and authorizations then.
 */
export interface RegistryRecord {
  vesselId: string;
  ssvid: string | null;
  imo: string | null;
  callsign: string | null;
  shipname: string | null;
  flag: string | null;
  geartypes: string[];
  lengthM: number | null;
  tonnageGt: number | null;
  sourceCode: string[];
  /** YYYY-MM-DD: when the record held. */
  dateFrom: string | null;
  dateTo: string | null;
  owner: { name: string; flag: string | null; dateFrom: string | null; dateTo: string | null } | null;
  authorizations: RegistryAuthorization[];
}
