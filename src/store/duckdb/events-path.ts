// The events path: the query counted on the events table, and its page read sorted (SortedPages)
// or in storage order (stored-order-path.ts). It answers whatever no other path can.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { countThenSearch, type ListPage, type PageStream } from '../store.ts';
import { wholeVersionsCount } from '../whole-versions.ts';
import type { AccessPath, PageReader, PathContext, PathName } from './paths.ts';
import type { Lane } from './pool.ts';
import { compileRows, compileSearch, type Source } from './compile.ts';
import { heldPageOf } from './held-page.ts';
import { readRows, streamRows } from './statements.ts';
import { ENTRY_BYTES_SQL, entryChunks } from './entry-stream.ts';
import { entrySourcesOn } from './entries-by-id.ts';
import { sortedPage } from './sorted-page.ts';
import type { StartRange } from './stored-order.ts';

export class EventsPath implements AccessPath {
  readonly name: PathName;
  /** The pool's lane of the count: a count on the events table is heavy. */
  protected readonly lane: Lane = 'heavy';

  constructor(private readonly ctx: PathContext, protected readonly query: EventQuery, private readonly pages: PageReader, name?: PathName) {
    this.name = name ?? pages.name;
  }

  count(): Promise<number> {
    return this.ctx.pool.use(this.lane, (c) => this.countOn(c));
  }

  countOn(c: DuckDBConnection): Promise<number> {
    const whole = wholeVersionsCount(this.query, (versionId) => this.ctx.storedRowCount(versionId));
    return whole === undefined ? countRows(c, this.query) : Promise.resolve(whole);
  }

  search(query: ListQuery, total?: number): Promise<PageStream> {
    return this.pages.search(query, total, this);
  }

  listPage(query: ListQuery): Promise<ListPage> {
    return this.pages.listPage(query, this);
  }
}


/** The number of the query's rows in a table (events unless the source says otherwise). */
export async function countRows(c: DuckDBConnection, query: EventQuery, source?: Source): Promise<number> {
  const rows = compileRows(query, source);
  return (await readRows(c, `SELECT count(*)::DOUBLE ${rows.sql}`, rows.params))[0]![0] as number;
}

/**
 * A page sorted by the engine: every matching row of events, ordered, then offset and limit. A
 * short list is sorted with its entries; a longer one on its sort columns alone (sorted-page.ts).
 */
export class SortedPages implements PageReader {
  readonly name = 'events';

  constructor(private readonly ctx: PathContext) {}

  async search(query: ListQuery, total: number | undefined, path: AccessPath): Promise<PageStream> {
    const stored = query.datasets.reduce((sum, d) => sum + d.resolved.rowCount, 0);
    const { page } = await heldPageOf(this.ctx.pool, async (c) => {
      const most = this.ctx.sortedWithEntriesMax;
      const listTotal = stored <= most ? stored : total ?? (await path.countOn(c));
      if (listTotal > most) {
        return { page: await sortedPage(c, query, listTotal, () => this.startRangeOf(c, query), entrySourcesOn(this.ctx, c, query)) };
      }
      const search = compileSearch(query, ENTRY_BYTES_SQL);
      return { page: entryChunks(await streamRows(c, search.sql, search.params)) };
    });
    return page;
  }

  /** The start range of the query's versions together. */
  private async startRangeOf(c: DuckDBConnection, query: ListQuery): Promise<StartRange> {
    const ranges: StartRange[] = [];
    for (const d of query.datasets) ranges.push(await this.ctx.startRangeOf(c, d.resolved.versionId));
    return { firstUs: Math.min(...ranges.map((r) => r.firstUs)), lastUs: Math.max(...ranges.map((r) => r.lastUs)) };
  }

  listPage(query: ListQuery, path: AccessPath): Promise<ListPage> {
    return countThenSearch(path, query);
  }
}
