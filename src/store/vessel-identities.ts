// What both engines read for the Vessels API (src/vessels/): every distinct self-reported identity
// in the latest version of each event dataset, the encounter's second vessel included, as rows of
// (vessel id, ssvid, name, flag, type, gear type, first seen, last seen, events).
import { identityRow, type IdentityRow, type IuuListing } from '../domain/vessel-identity.ts';
import { latestVersionOf, type DatasetVersion } from '../query/datasets.ts';

/** The latest version of each dataset: the versions `public-global-vessel-identity:latest` reads. */
export function latestVersionIds(versions: readonly DatasetVersion[]): number[] {
  return [...new Set(versions.map((v) => v.kind))].map((kind) => latestVersionOf(versions, kind)!.versionId).sort((a, b) => a - b);
}

/** Rows as an engine selects them, grouped across the versions already (one per vessel and identity), packed. */
export function identityRowsOf(rows: readonly unknown[][]): IdentityRow[] {
  return rows.map((r) => identityRow({
    vesselId: r[0] as string,
    ssvid: (r[1] as string | null) ?? null,
    shipname: (r[2] as string | null) ?? null,
    flag: (r[3] as string | null) ?? null,
    type: (r[4] as string | null) ?? null,
    gearType: (r[5] as string | null) ?? null,
    firstSeen: r[6] as string,
    lastSeen: r[7] as string,
    events: Number(r[8]),
  }));
}

/** The IUU list's columns, in the order both engines select them. */
export const IUU_COLUMNS = 'vessel_id, ssvid, shipname, flag, listed_from, listed_to, source';

/** Rows of IUU_COLUMNS as listings. */
export function iuuListingsOf(rows: readonly unknown[][]): IuuListing[] {
  return rows.map((r) => ({
    vesselId: (r[0] as string | null) ?? null, ssvid: (r[1] as string | null) ?? null, shipname: (r[2] as string | null) ?? null, flag: (r[3] as string | null) ?? null,
    listedFrom: r[4] as string, listedTo: (r[5] as string | null) ?? null, source: (r[6] as string | null) ?? null,
  }));
}
