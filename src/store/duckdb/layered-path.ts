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
import type { DuckDBConnection } from '@duckdb/node-api';
import { atVersions } from '../../query/plan.ts';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { countThenSearch, type ListPage, type PageStream } from '../store.ts';
import { pageStream } from '../entry-bytes.ts';
import { ORDER_BY, SORT_KEYS } from '../sql.ts';
import type { AccessPath, PathContext } from './paths.ts';
import { compileRows, compileSearch } from './compile.ts';
import { countRows } from './events-path.ts';
import { streamRows } from './statements.ts';
import { ENTRY_BYTES_SQL, entryChunks } from './entry-stream.ts';
import { heldPageOf, pageOf } from './held-page.ts';
import { readRows } from './statements.ts';
import { anyLayered, correctionsFrom, eventsFrom, type Layers } from './layers.ts';
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

/**
 * Pages whose offset, limit and hidden stored rows add up to at most this many are merged in JS
 * (LayeredPath.merged); deeper ones are found in SQL.
 */
export const LAYERED_MERGED_MAX = 2_000;

/** Entries of a long page found at once (LayeredPath.inParts). */
export const LAYERED_PAGE_PART = 50_000;

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
    if (query.limit > this.ctx.layeredPagePart) return this.inParts(query, total);
    if (this.base) {
      // Read up to the most a merge can take: a broad list may hide tens of thousands of stored rows.
      const most = this.ctx.layeredMergedMax - query.offset - query.limit;
      const hidden = most >= 0 ? await this.hiddenStored(most + 1) : undefined;
      if (hidden && hidden.size <= most) return pageOf(await this.merged(query, hidden, await this.added(query)));
    }
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
   * A list's total and page. Near the list's start, one statement reads all the layers give the
   * page (the sum of the signs, the hidden stored rows, the layers' first rows) beside the stored
   * versions' count: each statement on the layers scans all of their rows that meet the query.
   */
  async listPage(query: ListQuery): Promise<ListPage> {
    const most = this.ctx.layeredMergedMax - query.offset - query.limit;
    if (!this.base || query.limit > this.ctx.layeredPagePart || most < 0) return countThenSearch(this, query);
    const [stored, change] = await Promise.all([this.base.count(), this.nearStart(query, most)]);
    const total = stored + change.sum;
    if (query.offset >= total) return { total };
    if (change.hidden.size <= most) return { total, page: pageOf(await this.merged(query, change.hidden, change.added)) };
    return { total, page: await this.search(query, total) };
  }

  /** What the layers give a page near the list's start, read in one statement (listPage). */
  private async nearStart(query: ListQuery, most: number): Promise<{ sum: number; hidden: Set<string>; added: Placed[] }> {
    const rows = compileRows(this.onStored, { from: this.corrections });
    const n = rows.params.length;
    const stored = [...new Set(versionIdsOf(this.onStored))].join(', ');
    const found = await this.ctx.pool.use('light', (c) => readRows(c,
      `WITH changed AS MATERIALIZED (SELECT origin, kind, id, sign, start_ts, end_ts, entry ${rows.sql})
       SELECT 0, NULL::VARCHAR, NULL::VARCHAR, coalesce(sum(sign), 0)::DOUBLE, NULL::VARCHAR FROM changed
       UNION ALL SELECT * FROM (SELECT 1, kind, id, NULL::DOUBLE, NULL::VARCHAR FROM changed WHERE sign < 0 AND origin IN (${stored}) LIMIT ${Math.floor(most) + 1})
       UNION ALL SELECT * FROM (${addedSql('changed', query, `$${n + 1}`)})`,
      [...rows.params, query.offset + query.limit],
    ));
    return {
      sum: found.find((r) => r[0] === 0)![3] as number,
      hidden: new Set(found.filter((r) => r[0] === 1).map((r) => `${r[1]}\u0000${r[2]}`)),
      added: found.filter((r) => r[0] === 2).map((r) => placedOf(r.slice(1))),
    };
  }

  /**
   * A long page as consecutive pages of `layeredPagePart` entries, each found and read in turn:
   * found at once, a million rows' sort keys outgrew the server's default 160MB.
   */
  private inParts(query: ListQuery, total?: number): PageStream {
    const self = this;
    const size = this.ctx.layeredPagePart;
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

  /** Up to `most` of the stored rows the layers hide that meet the query, as kind and id. */
  private async hiddenStored(most: number): Promise<Set<string>> {
    const rows = compileRows(this.onStored, { from: this.corrections });
    const stored = [...new Set(versionIdsOf(this.onStored))].join(', ');
    const found = await this.ctx.pool.use('light', (c) => readRows(c, `SELECT kind, id ${rows.sql} AND sign < 0 AND origin IN (${stored}) LIMIT ${Math.floor(most)}`, rows.params));
    return new Set(found.map(([kind, id]) => `${kind}\u0000${id}`));
  }

  /**
   * A page near the list's start: the stored list's first entries (read on the path that serves
   * the stored versions) less those the layers hide, merged with the layers' first rows that meet
   * the query and no later layer hides, sorted as the engine sorts, then cut. A stored entry within
   * the page has at most `hidden.size` hidden ones before it, and a layer's row at most as many of
   * the layers' rows before it as its place: offset + limit (+ hidden) of each hold the page.
   */
  private async merged(query: ListQuery, hidden: Set<string>, added: Placed[]): Promise<string[]> {
    const onStored = rebased(query, this.ctx.layers);
    const column = SORT_KEYS[query.sort].column;
    const placed: Placed[] = [];
    for await (const texts of await this.base!.search({ ...onStored, offset: 0, limit: query.offset + query.limit + hidden.size })) {
      for (const entry of texts) {
        const e = JSON.parse(entry) as { id: string; type: string; start: string; end: string | null };
        const at = e[column === 'start_ts' ? 'start' : 'end'];
        const key = `${e.type}\u0000${e.id}`;
        if (!hidden.has(key)) placed.push({ us: at ? Date.parse(at) * 1000 : null, id: e.id, key, entry });
      }
    }
    return [...placed, ...added].sort(comparator(query.sort)).slice(query.offset, query.offset + query.limit).map((p) => p.entry);
  }

  /** The layers' first offset + limit rows that meet the query and no later layer hides. */
  private async added(query: ListQuery): Promise<Placed[]> {
    const rows = compileRows(this.onStored, { from: this.corrections });
    const n = rows.params.length;
    const found = await this.ctx.pool.use('light', (c) => readRows(c,
      `WITH changed AS (SELECT origin, kind, id, sign, start_ts, end_ts, entry ${rows.sql}) ${addedSql('changed', query, `$${n + 1}`)}`,
      [...rows.params, query.offset + query.limit],
    ));
    return found.map((r) => placedOf(r.slice(1)));
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

/** The statement of the layers' first rows (their kind, id, sort time, entry) among `changed`, `limit` of them. */
function addedSql(changed: string, query: ListQuery, limit: string): string {
  return `SELECT 2, kind, id, epoch_us(${SORT_KEYS[query.sort].column})::DOUBLE, entry FROM ${changed} a
    WHERE sign > 0 AND NOT EXISTS (SELECT 1 FROM ${changed} h WHERE h.sign < 0 AND h.origin = a.origin AND h.id = a.id)
    ORDER BY ${ORDER_BY[query.sort]} LIMIT ${limit}`;
}

/** A layer's row of addedSql (less its first column) placed for a merge. */
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
