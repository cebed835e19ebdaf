// The layered path: a query over a layered version (layers.ts), counted and paged on the versions'
// rows as if stored, its page sorted with its entries. A layered version has none of the tables,
// point files or stored order the other paths read until `vessel-events compact` writes it whole
// (docs/performance.md, "Updates", gives what this costs).
import type { DuckDBConnection } from '@duckdb/node-api';
import type { EventQuery, ListQuery } from '../../query/types.ts';
import { countThenSearch, type ListPage, type PageStream } from '../store.ts';
import type { AccessPath, PathContext } from './paths.ts';
import { compileSearch } from './compile.ts';
import { countRows } from './events-path.ts';
import { heldPageOf } from './held-page.ts';
import { streamRows } from './statements.ts';
import { ENTRY_BYTES_SQL, entryChunks } from './entry-stream.ts';
import { anyLayered, eventsFrom } from './layers.ts';

/** The versions a query reads. */
export const versionIdsOf = (query: EventQuery): number[] => query.datasets.map((d) => d.resolved.versionId);

/** The FROM of a query's rows when it reads a layered version; undefined when events holds them all. */
export function layeredFrom(query: EventQuery, ctx: Pick<PathContext, 'layers'>): string | undefined {
  const versionIds = versionIdsOf(query);
  return anyLayered(ctx.layers, versionIds) ? eventsFrom(ctx.layers, versionIds) : undefined;
}

export class LayeredPath implements AccessPath {
  readonly name = 'layered';

  constructor(private readonly ctx: PathContext, private readonly query: EventQuery, private readonly from: string) {}

  count(): Promise<number> {
    return this.ctx.pool.use('heavy', (c) => this.countOn(c));
  }

  countOn(c: DuckDBConnection): Promise<number> {
    return countRows(c, this.query, { from: this.from });
  }

  async search(query: ListQuery): Promise<PageStream> {
    const { page } = await heldPageOf(this.ctx.pool, async (c) => {
      const search = compileSearch(query, ENTRY_BYTES_SQL, { from: this.from });
      return { page: entryChunks(await streamRows(c, search.sql, search.params)) };
    });
    return page;
  }

  listPage(query: ListQuery): Promise<ListPage> {
    return countThenSearch(this, query);
  }
}
