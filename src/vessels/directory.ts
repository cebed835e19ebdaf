// The vessels of the loaded events, found by id, by free text and by `where`
// (docs/api.md, "Vessels"). Built once per opened database from its self-reported identities
// (src/store/vessel-identities.ts) and kept in memory: 165,290 vessels at 10M events.
import type { SelfReportedIdentity } from '../domain/vessel-identity.ts';
import type { WhereExpression } from '../query/vessel-where.ts';
import { nameWords, normalizedShipname } from './names.ts';

/** How well a vessel matched a free-text query: lower is better. */
export const MATCH_RANKS = ['identifier', 'name', 'name start', 'name words', 'name part', 'identifier start'] as const;

export interface Vessel {
  id: string;
  /** Its identities, the latest first (by last seen). */
  identities: SelfReportedIdentity[];
}

interface Indexed extends Vessel {
  /** Per identity: the normalised name and its words. */
  names: string[];
  words: string[][];
  /** The sort key of equal ranks: the latest name, then the id. */
  order: string;
}

export interface VesselCriteria {
  /** Free text of at least 3 characters: an identifier, or a name or part of one. */
  query?: string;
  where?: WhereExpression;
}

export class VesselDirectory {
  private readonly byId = new Map<string, Indexed>();
  private readonly bySsvid = new Map<string, Indexed[]>();
  private readonly all: Indexed[];

  constructor(identities: readonly SelfReportedIdentity[]) {
    const grouped = new Map<string, SelfReportedIdentity[]>();
    for (const i of identities) (grouped.get(i.vesselId) ?? grouped.set(i.vesselId, []).get(i.vesselId)!).push(i);
    for (const [id, list] of grouped) {
      list.sort((a, b) => (a.lastSeen === b.lastSeen ? a.firstSeen.localeCompare(b.firstSeen) : b.lastSeen.localeCompare(a.lastSeen)));
      const names = list.map((i) => normalizedShipname(i.shipname ?? ''));
      const vessel: Indexed = { id, identities: list, names, words: list.map((i) => nameWords(i.shipname ?? '')), order: `${names[0]}\u0000${id}` };
      this.byId.set(id, vessel);
      for (const ssvid of new Set(list.map((i) => i.ssvid).filter((s) => s !== null))) (this.bySsvid.get(ssvid) ?? this.bySsvid.set(ssvid, []).get(ssvid)!).push(vessel);
    }
    this.all = [...this.byId.values()].sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  }

  get size(): number {
    return this.all.length;
  }

  vessel(id: string): Vessel | undefined {
    return this.byId.get(id);
  }

  /**
   * Every vessel meeting the criteria, best first: with a query, exact identifiers (vessel id,
   * MMSI), then the name equal to it, starting with it, holding its words as word starts, holding
   * it anywhere, then MMSIs starting with it; equal matches by name, then id.
   */
  search(criteria: VesselCriteria): Vessel[] {
    const where = criteria.where;
    const candidates = where ? this.all.filter((v) => v.identities.some((i) => satisfies(i, where))) : this.all;
    if (criteria.query === undefined) return candidates;
    const query = criteria.query.trim();
    const ranked: Indexed[][] = MATCH_RANKS.map(() => []);
    const exact = new Set<Indexed>([...(this.byId.has(query) ? [this.byId.get(query)!] : []), ...(this.bySsvid.get(query) ?? [])]);
    const name = normalizedShipname(query);
    const words = nameWords(query);
    for (const v of candidates) {
      const rank = exact.has(v) ? 0 : nameRank(v, name, words) ?? (v.identities.some((i) => i.ssvid?.startsWith(query)) ? 5 : undefined);
      if (rank !== undefined) ranked[rank]!.push(v);
    }
    return ranked.flat();
  }
}

/** The rank (1-4) of a vessel's best name against the query's, if any name matches. */
function nameRank(v: Indexed, name: string, words: string[]): number | undefined {
  if (name === '') return undefined;
  let best: number | undefined;
  for (let i = 0; i < v.names.length; i++) {
    const candidate = v.names[i]!;
    const rank = candidate === name ? 1
      : candidate.startsWith(name) ? 2
      : words.every((w) => v.words[i]!.some((word) => word.startsWith(w))) ? 3
      : candidate.includes(name) ? 4
      : undefined;
    if (rank !== undefined && (best === undefined || rank < best)) best = rank;
  }
  return best;
}

/** Whether one identity meets the whole expression (a vessel matches when one of its identities does). */
function satisfies(identity: SelfReportedIdentity, e: WhereExpression): boolean {
  switch (e.op) {
    case 'and':
      return e.operands.every((o) => satisfies(identity, o));
    case 'or':
      return e.operands.some((o) => satisfies(identity, o));
    case 'equals': {
      const value = e.value.trim();
      switch (e.field) {
        case 'shipname':
          return identity.shipname !== null && normalizedShipname(identity.shipname) === normalizedShipname(value);
        case 'ssvid':
          return identity.ssvid === value;
        case 'flag':
          return identity.flag !== null && identity.flag.toUpperCase() === value.toUpperCase();
        // The events report neither; a registry would (docs/api.md, "Vessels").
        case 'imo':
        case 'callsign':
          return false;
      }
    }
  }
}
