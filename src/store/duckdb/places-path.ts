// The places path: a polygon query read from spatial_events, the table sorted by place
// (spatial-table.ts). Its count keeps the starts of the events that passed, for the page of the
// same query: the page then reads only the rows up to its last start.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ListQuery } from '../../query/types.ts';
import type { ListPage, PageStream } from '../store.ts';
import { countThenSearch } from '../store.ts';
import type { AccessPath, PageReader, PathContext } from './paths.ts';
import { pageOf } from './held-page.ts';
import { entrySourcesOn } from './entries-by-id.ts';
import { SPATIAL_PAGE_LIMIT, spatialCount, spatialPage, type SpatialCount, type SpatialPlan } from './spatial-table.ts';

/** Starts kept per counted polygon query at most (8 bytes each). */
const MAX_KEPT_STARTS = 1_000_000;

export class PlacesPath implements AccessPath {
  readonly name = 'places';
  private counted?: SpatialCount;

  /** `pages` reads pages longer than the table's page limit. */
  constructor(private readonly ctx: PathContext, private readonly plan: SpatialPlan, private readonly pages: PageReader) {}

  count(): Promise<number> {
    return this.ctx.pool.use('heavy', (c) => this.countOn(c));
  }

  async countOn(c: DuckDBConnection): Promise<number> {
    const counted = await spatialCount(c, this.plan);
    if (counted.total <= MAX_KEPT_STARTS) this.counted = counted;
    return counted.total;
  }

  async search(query: ListQuery, total?: number): Promise<PageStream> {
    if (query.limit > SPATIAL_PAGE_LIMIT) return this.pages.search(query, total, this);
    const counted = this.counted;
    return pageOf(await this.ctx.pool.use('heavy', (c) => spatialPage(c, this.plan, query, entrySourcesOn(this.ctx, c, query), total ?? counted?.total, counted?.starts)));
  }

  listPage(query: ListQuery): Promise<ListPage> {
    return countThenSearch(this, query);
  }
}
