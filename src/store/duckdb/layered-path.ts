// The layered path: a query over a layered version (layers.ts). Its rows are its stored version's
// plus its layers' signed rows (each layer's rows, less the rows it hides), so:
// - its total is the stored version's total on the path that serves it (the query rebased on the
//   stored version, which keeps the layered version's reach and time of last update), plus the sum
//   of the signs of the layers' rows that meet the query;
// - a page near the list's start is the stored version's first entries merged with the layers'
//   first rows, less those hidden;
// - a deeper page is found on the sort columns of the rows as if stored (sorted-page.ts), its
//   entries then read from the table that holds each (the stored version's, or a layer's).
// docs/performance.md ("Updates") gives what this costs against a version written whole.
import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { atVersions } from '../../query/plan.ts';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { countThenSearch, type ListPage, type PageStream } from '../store.ts';
import { pageStream } from '../entry-bytes.ts';
import { ORDER_BY, SORT_KEYS } from '../sql.ts';
import type { AccessPath, PathContext } from './paths.ts';
import { compileRows, compileSearch } from './compile.ts';
import { countRows } from './events-path.ts';
import { ENTRY_BYTES_SQL, entryChunks } from './entry-stream.ts';
import { heldPageOf, pageOf } from './held-page.ts';
import { readRows, streamRows } from './statements.ts';
import { anyLayered, correctionsFrom, eventsFrom, storedHiddenOf, type Layers } from './layers.ts';
import type { LayeredLimits } from './layer.ts';
import { countWithin, sortedPage, type BoundCount } from './sorted-page.ts';
import type { EntrySources } from './entries-by-id.ts';
import type { StartRange } from './stored-order.ts';

/** The versions a query reads. */
export const versionIdsOf = (query: EventQuery): number[] => query.datasets.map((d) => d.resolved.versionId);

/** The FROM of a query's rows when it reads a layered version; undefined when events holds them all. */
export function layeredFrom(query: EventQuery, ctx: Pick<PathContext, 'layers'>): string | undefined {
  const versionIds = versionIdsOf(query);
  return anyLayered(ctx.layers, versionIds) ? eventsFrom(ctx.layers, versionIds) : undefined;
}

/**
 * The query on the stored versions its layered ones start from. A layered version keeps its own
 * time of last update (open events last until it) and reach (which prunes only): the plan is made
 * again with the version ids alone changed.
 */
export function rebased<Q extends EventQuery>(query: Q, layers: Layers): Q {
  return atVersions(query, (d) => layers.get(d.resolved.versionId)?.chain[0] ?? d.resolved.versionId);
}

/**
 * Whether a query can be rebased: it reads each dataset once. Rebased, a layered version and the
 * version it applies to would be one version, read once, and an entry's id would not say which
 * it came from.
 */
export function rebasable(query: EventQuery): boolean {
  const kinds = query.datasets.map((d) => d.resolved.kind);
  return new Set(kinds).size === kinds.length;
}

export const LAYERED_LIMITS: LayeredLimits = { mergedMax: 2_000, pagePart: 50_000, mergedSlack: 32, hiddenRead: 2_000 };

/** What the layers give a page near the list's start (LayeredPath.changes). */
interface Changes {
  /** The sum of the signs of the layers' rows that meet the query. */
  sum: number;
  /** The stored rows the layers hide that meet the query, as kind and id; none when more than `hiddenRead`. */
  hidden?: Set<string>;
  /** The layers' first offset + limit rows that meet the query and no later layer hides. */
  added: Placed[];
}

/** An entry's place in a list: its sort time (null: no end) and id. */
interface Placed {
  us: number | null;
  id: string;
  /** Kind and id. */
  key: string;
  entry: string;
}

export class LayeredPath implements AccessPath {
  readonly name = 'layered';
  /** The path of the query rebased on the stored versions; none where it is not rebasable, whose rows are read as if stored. */
  private readonly base: AccessPath | undefined;
  private readonly onStored: EventQuery;
  private readonly rows: string;

  constructor(private readonly ctx: PathContext, private readonly query: EventQuery, choose: (query: EventQuery) => AccessPath) {
    this.onStored = rebased(query, ctx.layers);
    this.base = rebasable(query) ? choose(this.onStored) : undefined;
    this.rows = eventsFrom(ctx.layers, versionIdsOf(query));
  }

  private get corrections(): string {
    return correctionsFrom(this.ctx.layers, versionIdsOf(this.query));
  }

  /** The sum of the signs of the layers' rows that meet the query. */
  private async change(c: DuckDBConnection): Promise<number> {
    const rows = compileRows(this.onStored, { from: this.corrections });
    return (await readRows(c, `SELECT coalesce(sum(sign), 0)::DOUBLE ${rows.sql}`, rows.params))[0]![0] as number;
  }

  async count(): Promise<number> {
    if (!this.base) return this.ctx.pool.use('heavy', (c) => this.countOn(c));
    const [stored, change] = await Promise.all([this.base.count(), this.ctx.pool.use('light', (c) => this.change(c))]);
    return stored + change;
  }

  async countOn(c: DuckDBConnection): Promise<number> {
    if (!this.base) return countRows(c, this.query, { from: this.rows });
    return (await this.base.countOn(c)) + (await this.change(c));
  }

  async search(query: ListQuery, total?: number): Promise<PageStream> {
    if (query.limit > this.ctx.layered.pagePart) return this.inParts(query, total);
    if (this.nearStart(query)) {
      const [stored, change] = await Promise.all([this.storedFirst(query, this.guess(query)), this.changes(query)]);
      const page = await this.merged(query, stored.entries, change);
      if (page) return pageOf(page);
    }
    return this.foundInSql(query, total);
  }

  /** A page found on the rows as if stored: sorted with its entries when the list is short, on its sort columns when long. */
  private async foundInSql(query: ListQuery, total?: number): Promise<PageStream> {
    const { page } = await heldPageOf(this.ctx.pool, async (c) => {
      const listTotal = total ?? (await this.countOn(c));
      if (listTotal <= this.ctx.sortedWithEntriesMax) {
        const search = compileSearch(query, ENTRY_BYTES_SQL, { from: this.rows });
        return { page: entryChunks(await streamRows(c, search.sql, search.params)) };
      }
      return { page: await sortedPage(c, query, listTotal, () => this.startRange(c), this.entrySources(c), { from: this.rows }, this.boundCount(c, query)) };
    });
    return page;
  }

  /**
   * A list's total and page. Near the list's start, one statement reads what the layers give the
   * page (the sum of the signs, the layers' first rows), while the stored versions' path gives
   * their total and first entries: run one after the other, the two took twice as long
   * (docs/performance.md, "Updates").
   */
  async listPage(query: ListQuery): Promise<ListPage> {
    if (!this.nearStart(query)) return countThenSearch(this, query);
    const [stored, change] = await Promise.all([this.storedFirst(query, this.guess(query), true), this.changes(query)]);
    const total = stored.total! + change.sum;
    if (query.offset >= total) return { total };
    const page = await this.merged(query, stored.entries, change);
    return { total, page: page ? pageOf(page) : await this.foundInSql(query, total) };
  }

  /** Whether a page is near enough its list's start to be merged in JS (merged). */
  private nearStart(query: ListQuery): boolean {
    return this.base !== undefined && query.limit <= this.ctx.layered.pagePart && query.offset + query.limit <= this.ctx.layered.mergedMax;
  }

  /** The stored entries first read for a merge: the page's, and a few more for those the layers hide. */
  private guess(query: ListQuery): number {
    const wanted = query.offset + query.limit;
    return wanted + Math.max(0, Math.min(this.ctx.layered.mergedMax - wanted, this.ctx.layered.mergedSlack + Math.ceil(wanted / 8)));
  }

  /**
   * A page near the list's start: the stored list's first entries (read on the path that serves
   * the stored versions) less those the layers hide, merged with the layers' first rows (a layer's
   * row has at most as many of the layers' rows before it as its place: offset + limit of them hold
   * the page), sorted as the engine sorts, then cut. While fewer stored entries are visible than
   * the page needs and the stored list goes on, twice as many are read; undefined past mergedMax.
   */
  private async merged(query: ListQuery, first: Placed[], change: Changes): Promise<string[] | undefined> {
    const wanted = query.offset + query.limit;
    // The stored rows the layers hide that meet the query, when few; else those among the entries read.
    const hiddenAmong = async (entries: Placed[]) => change.hidden ?? (await this.hiddenAmong(entries));
    let entries = first;
    let read = this.guess(query);
    let hidden = await hiddenAmong(entries);
    while (entries.length === read && entries.filter((p) => !hidden.has(p.key)).length < wanted) {
      if (read >= this.ctx.layered.mergedMax) return undefined;
      read = Math.min(this.ctx.layered.mergedMax, 2 * read);
      entries = (await this.storedFirst(query, read)).entries;
      hidden = await hiddenAmong(entries);
    }
    const visible = entries.filter((p) => !hidden.has(p.key));
    return [...visible, ...change.added].sort(comparator(query.sort)).slice(query.offset, query.offset + query.limit).map((p) => p.entry);
  }

  /** The stored list's first `n` entries, placed for a merge, and its total when asked. */
  private async storedFirst(query: ListQuery, n: number, withTotal = false): Promise<{ total?: number; entries: Placed[] }> {
    const first = { ...rebased(query, this.ctx.layers), offset: 0, limit: n };
    const found = withTotal ? await this.base!.listPage(first) : { page: await this.base!.search(first) };
    const column = SORT_KEYS[query.sort].column;
    const entries: Placed[] = [];
    if (found.page) {
      for await (const texts of found.page) {
        for (const entry of texts) {
          const e = JSON.parse(entry) as { id: string; type: string; start: string; end: string | null };
          const at = e[column === 'start_ts' ? 'start' : 'end'];
          entries.push({ us: at ? Date.parse(at) * 1000 : null, id: e.id, key: `${e.type}\u0000${e.id}`, entry });
        }
      }
    }
    return { ...('total' in found ? { total: found.total } : {}), entries };
  }

  /** Which of the stored entries the layers hide, as kind and id. */
  private async hiddenAmong(entries: Placed[]): Promise<Set<string>> {
    if (entries.length === 0) return new Set();
    const found = await this.ctx.pool.use('light', (c) => readRows(c,
      `SELECT kind, id FROM (${storedHiddenOf(this.ctx.layers, versionIdsOf(this.query))}) WHERE id IN (SELECT unnest($1::VARCHAR[]))`,
      [listValue(entries.map((p) => p.id))],
    ));
    return new Set(found.map(([kind, id]) => `${kind}\u0000${id}`));
  }

  /**
   * What the layers give a page near the list's start, in one statement: the sum of the signs of
   * their rows that meet the query, the stored rows they hide that meet it (when there are at most
   * `hiddenRead`), and their first offset + limit rows that meet it and no later layer hides.
   * Their entries are read with them: read after, for the first rows alone, each statement scanned
   * every layer's entries again (a history over one layer 14 -> 44 ms on 10M).
   */
  private async changes(query: ListQuery): Promise<Changes> {
    const rows = compileRows(this.onStored, { from: this.corrections });
    const n = rows.params.length;
    const stored = [...new Set(versionIdsOf(this.onStored))].join(', ');
    const found = await this.ctx.pool.use('light', (c) => readRows(c,
      `WITH changed AS MATERIALIZED (SELECT origin, kind, id, sign, start_ts, end_ts, entry ${rows.sql})
       SELECT 0, NULL::VARCHAR, NULL::VARCHAR, coalesce(sum(sign), 0)::DOUBLE, NULL::VARCHAR FROM changed
       UNION ALL SELECT * FROM (SELECT 1, kind, id, NULL::DOUBLE, NULL::VARCHAR FROM changed WHERE sign < 0 AND origin IN (${stored}) LIMIT ${Math.floor(this.ctx.layered.hiddenRead) + 1})
       UNION ALL SELECT * FROM (SELECT 2, kind, id, epoch_us(${SORT_KEYS[query.sort].column})::DOUBLE, entry FROM changed a
         WHERE sign > 0 AND NOT EXISTS (SELECT 1 FROM changed h WHERE h.sign < 0 AND h.origin = a.origin AND h.id = a.id)
         ORDER BY ${ORDER_BY[query.sort]} LIMIT $${n + 1})`,
      [...rows.params, query.offset + query.limit],
    ));
    const hidden = found.filter((r) => r[0] === 1).map((r) => `${r[1]}\u0000${r[2]}`);
    return {
      sum: found.find((r) => r[0] === 0)![3] as number,
      ...(hidden.length <= this.ctx.layered.hiddenRead ? { hidden: new Set(hidden) } : {}),
      added: found.filter((r) => r[0] === 2).map((r) => placedOf(r.slice(1))),
    };
  }

  /**
   * A long page as consecutive pages of `pagePart` entries, each found and read in turn:
   * found at once, a million rows' sort keys outgrew the server's default 160MB.
   */
  private inParts(query: ListQuery, total?: number): PageStream {
    const self = this;
    const size = this.ctx.layered.pagePart;
    return pageStream((async function* parts() {
      for (let at = 0; at < query.limit; at += size) {
        const part = await self.search({ ...query, offset: query.offset + at, limit: Math.min(size, query.limit - at) }, total);
        let entries = 0;
        for await (const texts of part) {
          entries += texts.length;
          yield texts;
        }
        if (entries < size) return;
      }
    })(), async () => {});
  }

  /**
   * Rows beyond a bound of a page's window, counted as the total is: on the stored versions'
   * events (the query rebased), plus the signs of the layers' rows; not on the rows as if stored,
   * which join every stored row with the hidden ones (12-14 ms a count on 10M against 1-2).
   */
  private boundCount(c: DuckDBConnection, query: ListQuery): BoundCount | undefined {
    if (!this.base) return undefined;
    const column = SORT_KEYS[query.sort].column;
    const stored = countWithin(c, compileRows(this.onStored), column);
    const changed = countWithin(c, compileRows(this.onStored, { from: this.corrections }), column, 'coalesce(sum(sign), 0)');
    return async (bound) => (await stored(bound)) + (await changed(bound));
  }

  /** The start range of the stored versions the query reads (a window's first guess; counts check it). */
  private async startRange(c: DuckDBConnection): Promise<StartRange> {
    const ranges: StartRange[] = [];
    for (const versionId of new Set(versionIdsOf(this.onStored))) ranges.push(await this.ctx.startRangeOf(c, versionId));
    return { firstUs: Math.min(...ranges.map((r) => r.firstUs)), lastUs: Math.max(...ranges.map((r) => r.lastUs)) };
  }

  /** Entries of stored versions from their point files or events; a layer's from its own table. */
  private entrySources(c: DuckDBConnection): EntrySources {
    const layerTable = new Map([...this.ctx.layers.values()].map((l) => [l.versionId, `${l.alias}.events`]));
    return {
      pointFile: (versionId) => this.ctx.points.get(versionId),
      density: async (versionId) => {
        const range = await this.ctx.startRangeOf(c, this.onStored.datasets[0]!.resolved.versionId);
        const table = layerTable.get(versionId);
        const rows = table
          ? ((await readRows(c, `SELECT count(*)::DOUBLE FROM ${table} WHERE version_id = $1`, [versionId]))[0]![0] as number)
          : this.onStored.datasets.find((d) => d.resolved.versionId === versionId)?.resolved.rowCount ?? 0;
        return rows / Math.max(1, range.lastUs - range.firstUs);
      },
      table: (versionId) => layerTable.get(versionId) ?? 'events',
    };
  }
}

/** A layer's row of LayeredPath.changes (less its first column) placed for a merge. */
function placedOf([kind, id, us, entry]: unknown[]): Placed {
  return { us: us as number | null, id: id as string, key: `${kind}\u0000${id}`, entry: entry as string };
}

/** The engine's order of a sort (sql.ts ORDER_BY): the time, open events placed as it places them, then the id. */
function comparator(sort: ListQuery['sort']): (a: Placed, b: Placed) => number {
  const { ascending, openFirst } = SORT_KEYS[sort];
  const direction = ascending ? 1 : -1;
  return (a, b) => {
    if (a.us === null || b.us === null) {
      if (a.us !== b.us) return (a.us === null) === openFirst ? -1 : 1;
    } else if (a.us !== b.us) return (a.us - b.us) * direction;
    return Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)) * direction;
  };
}
