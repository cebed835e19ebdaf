// The vessels path: a vessel's history where a version has no usable point file, or too many
// vessels are named for the point files to pay. vessel_events (vessel-table.ts), sorted by vessel,
// counts it, on the light lane; vessel_events holds no entries, so its page is read from events,
// as the events path reads its own.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { EventQuery } from '../../query/types.ts';
import type { PageReader, PathContext } from './paths.ts';
import { countRows, EventsPath } from './events-path.ts';
import type { Lane } from './pool.ts';
import { vesselSource } from './vessel-table.ts';

export class VesselsPath extends EventsPath {
  protected override readonly lane: Lane = 'light';

  constructor(ctx: PathContext, query: EventQuery, pages: PageReader) {
    super(ctx, query, pages, 'vessels');
  }

  override countOn(c: DuckDBConnection): Promise<number> {
    return countRows(c, this.query, vesselSource(this.query));
  }
}
