// The regions path: a query on one region read from region_events, the rows sorted by region
// (region-table.ts). It counts there; a page in storage order is placed there and read from events,
// any other page is read sorted.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ListQuery } from '../../query/types.ts';
import { countBesidePage, countThenSearch, type ListPage, type PageStream } from '../store.ts';
import type { EntryChunk } from '../entry-bytes.ts';
import type { AccessPath, PageReader, PathContext } from './paths.ts';
import { heldPageOf } from './held-page.ts';
import { COUNTED_STARTS_LIMIT, regionCount, regionCountAndStart, regionPageStart } from './region-table.ts';
import type { RegionPlan } from '../region-plan.ts';
import { nothing, storedOrderPage } from './stored-order.ts';

export class RegionsPath implements AccessPath {
  readonly name = 'regions';

  constructor(private readonly ctx: PathContext, private readonly plan: RegionPlan, private readonly pages: PageReader) {}

  count(): Promise<number> {
    return this.ctx.pool.use('heavy', (c) => this.countOn(c));
  }

  countOn(c: DuckDBConnection): Promise<number> {
    return regionCount(c, this.plan);
  }

  async search(query: ListQuery, total?: number): Promise<PageStream> {
    if (this.pages.name !== 'stored order') return this.pages.search(query, total, this);
    const { page } = await heldPageOf(this.ctx.pool, async (c) => this.storedPage(c, query, total ?? (await this.countOn(c))));
    return page;
  }

  /**
   * An ascending page is found while it is counted, or in the same pass as its count when it ends
   * near the list's beginning; the page is then checked against the count (the two read different
   * tables). Any other list counts, then searches.
   */
  async listPage(query: ListQuery): Promise<ListPage> {
    if (this.pages.name !== 'stored order' || query.sort === '-start') return countThenSearch(this, query);
    if (query.offset + query.limit <= COUNTED_STARTS_LIMIT) {
      // One pass over the region's rows gives the total and places the page, then the page is read.
      const { total, page } = await heldPageOf(this.ctx.pool, async (c) => {
        const counted = await regionCountAndStart(c, this.plan, query);
        return { total: counted.total, page: counted.from ? await storedOrderPage(c, query, counted.total, counted.from) : nothing() };
      });
      if (query.offset < total) return { total, page };
      await page.discard();
      return { total };
    }
    const found = heldPageOf(this.ctx.pool, (c) => this.storedPage(c, query, undefined));
    const { total, found: held } = await countBesidePage(query, this.count(), found);
    if (!held) return { total };
    if (held.rows !== Math.min(query.limit, total - query.offset)) {
      await held.page.discard();
      throw new Error(`region_events gave a page of ${held.rows} rows at offset ${query.offset} of the ${total} it counted`);
    }
    return { total, page: held.page };
  }

  /**
   * A page of the region in storage order: region_events finds where it begins, events reads it
   * from there. Without the total (an ascending page found while it is counted), `rows` is the
   * page's size, for the caller to check against the count.
   */
  private async storedPage(c: DuckDBConnection, query: ListQuery, total: number | undefined): Promise<{ page: AsyncIterable<EntryChunk>; rows: number }> {
    const from = await regionPageStart(c, this.plan, query, total);
    return from ? { page: await storedOrderPage(c, query, total ?? Number.NaN, from), rows: from.rows } : { page: nothing(), rows: 0 };
  }
}
