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
