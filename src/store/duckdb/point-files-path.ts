// The point files path: a vessel's history read from each version's point file (vessel-history.ts),
// a few block reads and no statement. Its matches are read once, for the count and then the page.
import type { EventQuery, ListQuery } from '../../query/types.ts';
import type { ListPage, PageStream } from '../store.ts';
import { countThenSearch } from '../store.ts';
import type { AccessPath } from './paths.ts';
import { pageOf } from './held-page.ts';
import type { PointFile } from './point-file-format.ts';
import { historyMatches, historyPage, type HistoryMatch } from './vessel-history.ts';

export class PointFilesPath implements AccessPath {
  readonly name = 'point files';
  private matches?: Promise<HistoryMatch[]>;

  constructor(private readonly query: EventQuery, private readonly points: ReadonlyMap<number, PointFile>) {}

  private history(): Promise<HistoryMatch[]> {
    this.matches ??= historyMatches(this.query, this.points);
    return this.matches;
  }

  async count(): Promise<number> {
    return (await this.history()).length;
  }

  countOn(): Promise<number> {
    return this.count();
  }

  async search(query: ListQuery): Promise<PageStream> {
    return pageOf(historyPage(await this.history(), query));
  }

  listPage(query: ListQuery): Promise<ListPage> {
    return countThenSearch(this, query);
  }
}
