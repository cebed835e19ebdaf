// The vessels path: a vessel's history where a version has no usable point file, or too many
// vessels are named for the point files to pay. vessel_events (vessel-table.ts), sorted by vessel,
// counts it; vessel_events holds no entries, so its page is read from events.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import type { ListPage, PageStream } from '../store.ts';
import type { AccessPath, PageReader, PathContext } from './access-path.ts';
import { countRows } from './events-path.ts';
import { vesselSource } from './vessel-table.ts';

export class VesselsPath implements AccessPath {
  readonly name = 'vessels';

  constructor(private readonly ctx: PathContext, private readonly query: EventQuery, private readonly pages: PageReader) {}

  count(): Promise<number> {
    return this.ctx.pool.use('light', (c) => this.countOn(c));
  }

  countOn(c: DuckDBConnection): Promise<number> {
    return countRows(c, this.query, vesselSource(this.query));
  }

  search(query: ListQuery, total?: number): Promise<PageStream> {
    return this.pages.search(query, total, this);
  }

  listPage(query: ListQuery): Promise<ListPage> {
    return this.pages.listPage(query, this);
  }
}
