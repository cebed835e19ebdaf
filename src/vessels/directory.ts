// The vessels of the loaded events, found by id, by free text and by `where`
// (docs/api.md, "Vessels"). Built once per opened database from its self-reported identities
// (src/store/vessel-identities.ts) and kept in memory: 165,290 vessels at 10M events.
//
// A search never walks the vessels one by one: at 10M events that took 450-600 ms a query. Names
// are kept as one text per form (compact, and folded with single spaces), one line per identity,
// and found with the engine's string search; identifiers, names and flags have maps
// (docs/performance.md, "Vessel search").
import type { RegistryRecord, SelfReportedIdentity } from '../domain/vessel-identity.ts';
import { WHERE_FIELDS, type WhereExpression, type WhereField } from '../query/vessel-where.ts';
import { foldedName, nameWords, normalizedShipname } from './names.ts';

/** How well a vessel matched a free-text query: lower is better. */
export const MATCH_RANKS = ['identifier', 'name', 'name start', 'name words', 'name part', 'identifier start'] as const;

export interface Vessel {
  id: string;
  /** Its identities, the latest first (by last seen). */
  identities: SelfReportedIdentity[];
  /** Its registry records, the latest first (by the end of their span, an open span first). */
  registry: RegistryRecord[];
}

/** What describes a vessel: a self-reported identity or a registry record (only these carry IMO and call sign). */
type Described = { ssvid: string | null; shipname: string | null; flag: string | null; imo?: string | null; callsign?: string | null };

/**
 * Each field's meaning, written once: the key a record has for it and the key a value compared with
 * it has. The maps are keyed by the first, `where` and exact identifiers look up the second, and a
 * vessel's records are tested by comparing the two.
 */
const FIELD_KEYS: Record<WhereField, { of(d: Described): string | null; value(text: string): string }> = {
  shipname: { of: (d) => (d.shipname === null ? null : normalizedShipname(d.shipname)), value: normalizedShipname },
  ssvid: { of: (d) => d.ssvid, value: (t) => t },
  flag: { of: (d) => d.flag?.toUpperCase() ?? null, value: (t) => t.toUpperCase() },
  imo: { of: (d) => d.imo ?? null, value: (t) => t },
  callsign: { of: (d) => d.callsign?.toUpperCase() ?? null, value: (t) => t.toUpperCase() },
};

/** A vessel's match level against the registry: SEVERAL_FIELDS with registry records, else NO_MATCH. */
export function matchLevel(vessel: Vessel): 'SEVERAL_FIELDS' | 'NO_MATCH' {
  return vessel.registry.length > 0 ? 'SEVERAL_FIELDS' : 'NO_MATCH';
}

const latestFirst = (a: RegistryRecord, b: RegistryRecord) => {
  const [ea, eb] = [a.dateTo ?? '9999', b.dateTo ?? '9999'];
  return ea !== eb ? (ea > eb ? -1 : 1) : (a.dateFrom ?? '') > (b.dateFrom ?? '') ? -1 : (a.dateFrom ?? '') < (b.dateFrom ?? '') ? 1 : 0;
};

export interface VesselCriteria {
  /** Free text of at least 3 characters: an identifier, or a name or part of one. */
  query?: string;
  where?: WhereExpression;
}

/** One text of lines, each line an identity's name or MMSI, and the vessel each line belongs to. */
class Lines {
  readonly text: string;
  /** Where each line starts in the text (after its newline). */
  private readonly starts: Int32Array;
  readonly owners: Int32Array;

  constructor(lines: readonly string[], owners: readonly number[]) {
    this.starts = new Int32Array(lines.length);
    let at = 0;
    for (let i = 0; i < lines.length; i++) {
      this.starts[i] = at + 1;
      at += lines[i]!.length + 1;
    }
    this.text = `\n${lines.join('\n')}\n`;
    this.owners = Int32Array.from(owners);
  }

  /** The line holding a position of the text. */
  lineAt(position: number): number {
    let [lo, hi] = [0, this.starts.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= position) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  start(line: number): number {
    return this.starts[line]!;
  }

  end(line: number): number {
    return (line + 1 < this.starts.length ? this.starts[line + 1]! : this.text.length) - 1;
  }

  /** Every occurrence of `part`, as (line, position) pairs. */
  *find(part: string): Generator<[number, number]> {
    for (let at = this.text.indexOf(part); at !== -1; at = this.text.indexOf(part, at + 1)) yield [this.lineAt(at), at];
  }
}

export class VesselDirectory {
  /** Sorted by latest name, then id: equal matches come in this order. */
  private readonly vessels: Vessel[];
  private readonly byId = new Map<string, number>();
  /** Per field, the vessels by their records' key for it (FIELD_KEYS). */
  private readonly byField = Object.fromEntries(WHERE_FIELDS.map((f) => [f, new Map<string, number[]>()])) as Record<WhereField, Map<string, number[]>>;
  /** Names without spaces or punctuation (FRIOFORWIN), and folded with single spaces (FRIO FORWIN). */
  private readonly compact: Lines;
  private readonly spaced: Lines;
  private readonly ssvids: Lines;

  /** Registry records of vessels no loaded event carries are left out: the directory is the events' vessels. */
  constructor(identities: readonly SelfReportedIdentity[], registry: readonly RegistryRecord[] = []) {
    const records = new Map<string, RegistryRecord[]>();
    for (const r of registry) (records.get(r.vesselId) ?? records.set(r.vesselId, []).get(r.vesselId)!).push(r);
    const grouped = new Map<string, SelfReportedIdentity[]>();
    for (const i of identities) {
      const list = grouped.get(i.vesselId);
      if (list) list.push(i);
      else grouped.set(i.vesselId, [i]);
    }
    const keyed: { name: string; vessel: Vessel }[] = [];
    for (const [id, list] of grouped) {
      if (list.length > 1) list.sort((a, b) => (a.lastSeen === b.lastSeen ? (a.firstSeen < b.firstSeen ? -1 : 1) : a.lastSeen > b.lastSeen ? -1 : 1));
      keyed.push({ name: FIELD_KEYS.shipname.of(list[0]!) ?? '', vessel: { id, identities: list, registry: (records.get(id) ?? []).sort(latestFirst) } });
    }
    // Name, then id: compared apart, as a joined key (a string built per vessel) took a second to sort at 10M.
    keyed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.vessel.id < b.vessel.id ? -1 : a.vessel.id > b.vessel.id ? 1 : 0));
    this.vessels = keyed.map((k) => k.vessel);

    const [compact, spaced, ssvids, nameOwners, ssvidOwners] = [[], [], [], [], []] as [string[], string[], string[], number[], number[]];
    this.vessels.forEach((v, n) => {
      this.byId.set(v.id, n);
      for (const d of describedBy(v)) {
        for (const field of WHERE_FIELDS) {
          const key = FIELD_KEYS[field].of(d);
          if (key === null) continue;
          const list = this.byField[field].get(key);
          if (!list) this.byField[field].set(key, [n]);
          else if (list[list.length - 1] !== n) list.push(n);
          if (field === 'shipname') {
            compact.push(key);
            spaced.push(foldedName(d.shipname!));
            nameOwners.push(n);
          } else if (field === 'ssvid') {
            ssvids.push(key);
            ssvidOwners.push(n);
          }
        }
      }
    });
    this.compact = new Lines(compact, nameOwners);
    this.spaced = new Lines(spaced, nameOwners);
    this.ssvids = new Lines(ssvids, ssvidOwners);
  }

  get size(): number {
    return this.vessels.length;
  }

  vessel(id: string): Vessel | undefined {
    const n = this.byId.get(id);
    return n === undefined ? undefined : this.vessels[n];
  }

  /**
   * Every vessel meeting the criteria, best first: with a query, exact identifiers (vessel id,
   * MMSI), then the name equal to it, starting with it, holding its words as word starts, holding
   * it anywhere, then MMSIs starting with it; equal matches by name, then id.
   */
  search(criteria: VesselCriteria): Vessel[] {
    const allowed = criteria.where ? this.matching(criteria.where) : undefined;
    if (criteria.query === undefined) return [...(allowed ?? [])].sort((a, b) => a - b).map((n) => this.vessels[n]!);
    const rank = new Map<number, number>();
    const offer = (n: number, r: number) => {
      if (allowed && !allowed.has(n)) return;
      const known = rank.get(n);
      if (known === undefined || r < known) rank.set(n, r);
    };
    const query = criteria.query.trim();
    const id = this.byId.get(query);
    if (id !== undefined) offer(id, 0);
    for (const field of ['ssvid', 'imo', 'callsign'] as const) for (const n of this.byField[field].get(FIELD_KEYS[field].value(query)) ?? []) offer(n, 0);
    const name = normalizedShipname(query);
    if (name !== '') {
      for (const [line, at] of this.compact.find(name)) {
        const start = this.compact.start(line);
        offer(this.compact.owners[line]!, at !== start ? 4 : this.compact.end(line) - start === name.length ? 1 : 2);
      }
      this.offerWordStarts(nameWords(query), offer);
    }
    // A newline before the query: MMSIs that start with it (digits only, so it never spans two lines).
    if (/^\d+$/.test(query)) for (const [, at] of this.ssvids.find(`\n${query}`)) offer(this.ssvids.owners[this.ssvids.lineAt(at + 1)]!, 5);
    const ranked = MATCH_RANKS.map((): number[] => []);
    for (const [n, r] of rank) ranked[r]!.push(n);
    return ranked.flatMap((ns) => ns.sort((a, b) => a - b)).map((n) => this.vessels[n]!);
  }

  /** Names holding every word of the query as the start of one of their words (rank 3). */
  private offerWordStarts(words: string[], offer: (n: number, rank: number) => void): void {
    if (words.length === 0) return;
    // The longest word has the fewest occurrences to check.
    const [first, ...rest] = [...words].sort((a, b) => b.length - a.length);
    const seen = new Set<number>();
    for (const [line, at] of this.spaced.find(first!)) {
      const before = this.spaced.text[at - 1];
      if ((before !== ' ' && before !== '\n') || seen.has(line)) continue;
      seen.add(line);
      const lineWords = this.spaced.text.slice(this.spaced.start(line), this.spaced.end(line)).split(' ');
      if (rest.every((w) => lineWords.some((x) => x.startsWith(w)))) offer(this.spaced.owners[line]!, 3);
    }
  }

  /** The vessels one of whose identities meets the expression, found from the maps. */
  private matching(e: WhereExpression): Set<number> {
    if (e.op !== 'equals') {
      if (e.op === 'or') return new Set(e.operands.flatMap((o) => [...this.matching(o)]));
      // The smallest operand's vessels, each then checked against the whole expression.
      const sets = e.operands.map((o) => this.matching(o)).sort((a, b) => a.size - b.size);
      return new Set([...sets[0]!].filter((n) => describedBy(this.vessels[n]!).some((d) => satisfies(d, e))));
    }
    return new Set(this.byField[e.field].get(FIELD_KEYS[e.field].value(e.value.trim())) ?? []);
  }
}

/** Everything that describes a vessel: its identities and its registry records. */
function describedBy(v: Vessel): Described[] {
  return [...v.identities, ...v.registry];
}

/** Whether one identity or registry record meets the whole expression (a vessel matches when one of them does). */
function satisfies(identity: Described, e: WhereExpression): boolean {
  switch (e.op) {
    case 'and':
      return e.operands.every((o) => satisfies(identity, o));
    case 'or':
      return e.operands.some((o) => satisfies(identity, o));
    case 'equals': {
      const key = FIELD_KEYS[e.field].of(identity);
      return key !== null && key === FIELD_KEYS[e.field].value(e.value.trim());
    }
  }
}
