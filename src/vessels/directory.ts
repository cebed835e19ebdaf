// The vessels of the loaded events, found by id, by free text and by `where`
// (docs/api.md, "Vessels"). Built once per opened database from its self-reported identities
// (src/store/vessel-identities.ts) and kept in memory: 165,290 vessels at 10M events, 828,834 at
// 50M.
//
// A search never walks the vessels one by one: at 10M events that took 450-600 ms a query. Names
// are kept as one text per form (compact, and folded with single spaces), one line per identity,
// and MMSIs as a third; they are found with the engine's string search, exact values as whole
// lines. Flags, IMOs and call signs have maps (docs/performance.md, "Vessel search").
//
// Identities stay packed rows (IdentityRow), made objects only for the vessels an answer shows:
// at 50M events, an object per identity and a map per name and MMSI held 700 MB of heap, and
// building them took 8 to 10 s (docs/performance.md, "Vessel search").
import { identityFields, identityOfRow, type IdentityRow, type RegistryRecord, type SelfReportedIdentity } from '../domain/vessel-identity.ts';
import type { WhereExpression, WhereField } from '../query/vessel-where.ts';
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
export function matchLevel(vessel: Pick<Vessel, 'registry'>): 'SEVERAL_FIELDS' | 'NO_MATCH' {
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

/**
 * One text of lines, each line an identity's name or MMSI, and the vessel each line belongs to. A
 * newline inside a value (never in a name, as names are kept) is held as U+0000, in lines and in
 * what is looked for alike, so that it never splits a line.
 */
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
    this.text = `\n${lines.map(oneLine).join('\n')}\n`;
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

  /** Every occurrence of `part` (without a newline unless it is one between lines), as (line, position) pairs. */
  *find(part: string): Generator<[number, number]> {
    for (let at = this.text.indexOf(part); at !== -1; at = this.text.indexOf(part, at + 1)) yield [this.lineAt(at), at];
  }

  /** The owners of the lines equal to `value`. */
  ownersOf(value: string): number[] {
    return [...this.find(`\n${oneLine(value)}\n`)].map(([, at]) => this.owners[this.lineAt(at + 1)]!);
  }
}

const oneLine = (value: string) => (value.includes('\n') ? value.replaceAll('\n', '\u0000') : value);

/** The vessels a search found, best first; each made a Vessel only when a page of them is taken. */
export class VesselMatches {
  constructor(private readonly found: readonly number[], private readonly vesselAt: (n: number) => Vessel) {}

  get length(): number {
    return this.found.length;
  }

  slice(start = 0, end = this.found.length): Vessel[] {
    return this.found.slice(start, end).map(this.vesselAt);
  }
}

/** The fields a `where` finds through a map; names and MMSIs are found in their texts. */
const MAPPED_FIELDS = ['flag', 'imo', 'callsign'] as const;
type MappedField = (typeof MAPPED_FIELDS)[number];

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const [ID, SSVID, SHIPNAME, FLAG, FIRST_SEEN, LAST_SEEN] = [0, 1, 2, 3, 6, 7];

/** The order of identity rows: by vessel id, then last seen from the latest, then first seen. */
function compareRows(x: readonly (string | null)[], y: readonly (string | null)[]): number {
  return compareText(x[ID]!, y[ID]!) || compareText(y[LAST_SEEN]!, x[LAST_SEEN]!) || compareText(x[FIRST_SEEN]!, y[FIRST_SEEN]!);
}

/** The rows in that order (a store gives them so). */
function sortedRows(rows: readonly IdentityRow[]): IdentityRow[] {
  const keyed = rows.map((r) => ({ r, fields: identityFields(r) }));
  return keyed.sort((x, y) => compareRows(x.fields, y.fields)).map((k) => k.r);
}

export class VesselDirectory {
  /**
   * The identity rows, vessel by vessel in the order of their ids, each vessel's latest first. A
   * vessel's number is its place in that order; each row is parsed again when a vessel is shown,
   * and only then.
   */
  private readonly rows: readonly IdentityRow[];
  /** Vessel n's rows: from firstRow[n] up to firstRow[n + 1]. */
  private readonly firstRow: Int32Array;
  /** The vessel ids in ascending order (vessel n's is ids[n]): lookups by id bisect them. */
  private readonly ids: string[] = [];
  /** Each vessel's place in the order of latest name, then id: equal matches come in this order. */
  private readonly nameRank: Int32Array;
  private readonly registry = new Map<number, RegistryRecord[]>();
  /** Per mapped field, the vessels by their records' key for it (FIELD_KEYS). */
  private readonly byField = Object.fromEntries(MAPPED_FIELDS.map((f) => [f, new Map<string, number[]>()])) as Record<MappedField, Map<string, number[]>>;
  /** Names without spaces or punctuation (FRIOFORWIN), and folded with single spaces (FRIO FORWIN). */
  private readonly compact: Lines;
  private readonly spaced: Lines;
  private readonly ssvids: Lines;

  /**
   * Identity rows in any order; the stores give them in the directory's (compareRows), which
   * spares a sort. Registry records of vessels no loaded event carries are left out: the
   * directory is the events' vessels. Each row is split into its fields as it is read, and the
   * fields dropped: held for every row at once they took 600 MB more at 50M events.
   */
  constructor(identities: readonly IdentityRow[], registry: readonly RegistryRecord[] = []) {
    // Each vessel's first row, id and latest name, in one pass over rows in order; rows out of
    // order are sorted first, and the pass run again.
    const firstRows: number[] = [];
    const names: string[] = [];
    const group = (rows: readonly IdentityRow[]): boolean => {
      let previous: (string | null)[] | undefined;
      for (let k = 0; k < rows.length; k++) {
        const fields = identityFields(rows[k]!);
        if (previous && compareRows(previous, fields) > 0) return false;
        previous = fields;
        if (k > 0 && fields[ID] === this.ids[this.ids.length - 1]) continue;
        firstRows.push(k);
        this.ids.push(fields[ID]!);
        names.push(fields[SHIPNAME] === null ? '' : normalizedShipname(fields[SHIPNAME]!));
      }
      return true;
    };
    this.rows = identities;
    if (!group(identities)) {
      [firstRows.length, names.length, this.ids.length] = [0, 0, 0];
      this.rows = sortedRows(identities);
      group(this.rows);
    }
    firstRows.push(this.rows.length);
    this.firstRow = Int32Array.from(firstRows);
    // Name, then id, compared apart: as a joined key (a string built per vessel) it took a second
    // longer at 10M. Vessels are numbered in id order, so equal names compare their numbers.
    const byName = Array.from(names, (_, n) => n).sort((a, b) => compareText(names[a]!, names[b]!) || a - b);
    this.nameRank = new Int32Array(byName.length);
    byName.forEach((n, rank) => (this.nameRank[n] = rank));

    for (const r of registry) {
      const n = this.numberOf(r.vesselId);
      if (n === undefined) continue;
      (this.registry.get(n) ?? this.registry.set(n, []).get(n)!).push(r);
    }
    for (const records of this.registry.values()) records.sort(latestFirst);

    const [compact, spaced, ssvids, nameOwners, ssvidOwners] = [[], [], [], [], []] as [string[], string[], string[], number[], number[]];
    const describe = (n: number, d: Described, compactName = d.shipname === null ? null : FIELD_KEYS.shipname.of(d)) => {
      for (const field of MAPPED_FIELDS) {
        const key = FIELD_KEYS[field].of(d);
        if (key === null) continue;
        const list = this.byField[field].get(key);
        if (!list) this.byField[field].set(key, [n]);
        else if (list[list.length - 1] !== n) list.push(n);
      }
      if (d.shipname !== null) {
        compact.push(compactName!);
        spaced.push(foldedName(d.shipname));
        nameOwners.push(n);
      }
      if (d.ssvid !== null) {
        ssvids.push(d.ssvid);
        ssvidOwners.push(n);
      }
    };
    for (let n = 0; n < this.ids.length; n++) {
      for (let row = this.firstRow[n]!; row < this.firstRow[n + 1]!; row++) {
        const f = identityFields(this.rows[row]!);
        // The latest name is compacted already.
        describe(n, { ssvid: f[SSVID] ?? null, shipname: f[SHIPNAME] ?? null, flag: f[FLAG] ?? null }, row === this.firstRow[n] && f[SHIPNAME] !== null ? names[n] : undefined);
      }
      for (const r of this.registry.get(n) ?? []) describe(n, r);
    }
    this.compact = new Lines(compact, nameOwners);
    this.spaced = new Lines(spaced, nameOwners);
    this.ssvids = new Lines(ssvids, ssvidOwners);
  }

  get size(): number {
    return this.ids.length;
  }

  vessel(id: string): Vessel | undefined {
    const n = this.numberOf(id);
    return n === undefined ? undefined : this.vesselAt(n);
  }

  /** The number of the vessel with this id, found by bisection of the ids. */
  private numberOf(id: string): number | undefined {
    let [lo, hi] = [0, this.ids.length - 1];
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compareText(this.ids[mid]!, id);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Vessels in the order equal matches come: by latest name, then id. */
  private readonly byNameRank = (a: number, b: number) => this.nameRank[a]! - this.nameRank[b]!;

  private readonly vesselAt = (n: number): Vessel => {
    const identities = this.rows.slice(this.firstRow[n], this.firstRow[n + 1]).map(identityOfRow);
    return { id: this.ids[n]!, identities, registry: this.registry.get(n) ?? [] };
  };

  /**
   * Every vessel meeting the criteria, best first: with a query, exact identifiers (vessel id,
   * MMSI), then the name equal to it, starting with it, holding its words as word starts, holding
   * it anywhere, then MMSIs starting with it; equal matches by name, then id. With `levels`, only
   * the vessels at those match levels (matchLevel).
   */
  search(criteria: VesselCriteria, levels?: ReadonlySet<string>): VesselMatches {
    const found = this.found(criteria);
    return new VesselMatches(levels ? found.filter((n) => levels.has(matchLevel({ registry: this.registry.get(n) ?? [] }))) : found, this.vesselAt);
  }

  private found(criteria: VesselCriteria): number[] {
    const allowed = criteria.where ? this.matching(criteria.where) : undefined;
    if (criteria.query === undefined) return [...(allowed ?? [])].sort(this.byNameRank);
    const rank = new Map<number, number>();
    const offer = (n: number, r: number) => {
      if (allowed && !allowed.has(n)) return;
      const known = rank.get(n);
      if (known === undefined || r < known) rank.set(n, r);
    };
    const query = criteria.query.trim();
    const id = this.numberOf(query);
    if (id !== undefined) offer(id, 0);
    for (const field of ['ssvid', 'imo', 'callsign'] as const) for (const n of this.vesselsWith(field, query)) offer(n, 0);
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
    return ranked.flatMap((ns) => ns.sort(this.byNameRank));
  }

  /** The vessels one of whose records has this value of the field (FIELD_KEYS). */
  private vesselsWith(field: WhereField, value: string): number[] {
    const key = FIELD_KEYS[field].value(value);
    if (field === 'shipname') return this.compact.ownersOf(key);
    if (field === 'ssvid') return this.ssvids.ownersOf(key);
    return this.byField[field].get(key) ?? [];
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

  /** The vessels one of whose identities meets the expression, found from the texts and maps. */
  private matching(e: WhereExpression): Set<number> {
    if (e.op !== 'equals') {
      if (e.op === 'or') return new Set(e.operands.flatMap((o) => [...this.matching(o)]));
      // The smallest operand's vessels, each then checked against the whole expression.
      const sets = e.operands.map((o) => this.matching(o)).sort((a, b) => a.size - b.size);
      return new Set([...sets[0]!].filter((n) => describedBy(this.vesselAt(n)).some((d) => satisfies(d, e))));
    }
    return new Set(this.vesselsWith(e.field, e.value.trim()));
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
