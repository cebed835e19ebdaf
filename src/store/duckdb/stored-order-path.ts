// Pages in storage order (stored-order.ts) for a path that counts elsewhere: one dataset version
// sorted by start, read with no sort. An ascending page is found while the path counts, on a
// connection of its own: it needs nothing from the total, and on two cores the count's 4 ms no
// longer come before the page's 5-10 (docs/performance.md, "A region's page found while it is
// counted"). A descending page is placed by its total, so it is counted first.
import type { ListQuery } from '../../query/types.ts';
import { countBesidePage, countThenSearch, type ListPage, type PageStream } from '../store.ts';
import type { AccessPath, PageReader, PathContext } from './paths.ts';
import { heldPageOf } from './held-page.ts';
import { startFromEnd, storedOrderPage } from './stored-order.ts';

export class StoredOrderPages implements PageReader {
  readonly name = 'stored order';

  constructor(private readonly ctx: PathContext) {}

  async search(query: ListQuery, total: number | undefined, path: AccessPath): Promise<PageStream> {
    const { page } = await heldPageOf(this.ctx.pool, async (c) => {
      const listTotal = total ?? (await path.countOn(c));
      const versionId = query.datasets[0]!.resolved.versionId;
      const from = await startFromEnd(c, query, listTotal, () => this.ctx.startRangeOf(c, versionId));
      return { page: await storedOrderPage(c, query, listTotal, from) };
    });
    return page;
  }

  async listPage(query: ListQuery, path: AccessPath): Promise<ListPage> {
    if (query.sort === '-start') return countThenSearch(path, query);
    // An ascending page is placed by its offset alone: storedOrderPage reads the total only for -start.
    const found = heldPageOf(this.ctx.pool, async (c) => ({ page: await storedOrderPage(c, query, Number.NaN) }));
    const { total, found: held } = await countBesidePage(query, path.count(), found);
    return held ? { total, page: held.page } : { total };
  }
}
