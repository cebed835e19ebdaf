// Which access path answers a query, chosen once per query object from the plan it carries
// (query.filters): the route's count, its page and its list page then all come from that path.
// Each path is one file behind AccessPath; docs/performance.md ("Access paths") gives what each
// costs. The order below is the order of preference: the first path that can answer, answers.
import type { EventQuery } from '../../query/types.ts';
import type { AccessPath, PageReader, PathContext, PathName } from './paths.ts';
import { pageOf } from './held-page.ts';
import { inStoredOrder } from './stored-order.ts';
import { pointFilesAnswer } from './vessel-history.ts';
import { spatialPlan } from './spatial-table.ts';
import { regionPlan } from '../region-plan.ts';
import { servedByVesselTable } from '../vessel-plan.ts';
import { PointFilesPath } from './point-files-path.ts';
import { PlacesPath } from './places-path.ts';
import { RegionsPath } from './regions-path.ts';
import { VesselsPath } from './vessels-path.ts';
import { EventsPath, SortedPages } from './events-path.ts';
import { StoredOrderPages } from './stored-order-path.ts';
import { LayeredPath, layeredFrom } from './layered-path.ts';

export type { AccessPath, PageReader, PathContext, PathName };

export function chooseAccessPath(query: EventQuery, ctx: PathContext): AccessPath {
  if (query.filters.matchesNothing) return NOTHING;
  if (layeredFrom(query, ctx)) return new LayeredPath(ctx, query, (stored) => chooseAccessPath(stored, ctx));
  if (pointFilesAnswer(query, ctx.points)) return new PointFilesPath(query, ctx.points);
  const pages: PageReader = inStoredOrder(query) ? new StoredOrderPages(ctx) : new SortedPages(ctx);
  const places = spatialPlan(query, ctx.cells);
  if (places) return new PlacesPath(ctx, places, pages);
  const region = regionPlan(query, ctx.regionVersions);
  if (region) return new RegionsPath(ctx, region, pages);
  if (servedByVesselTable(query)) return new VesselsPath(ctx, query, pages);
  return new EventsPath(ctx, query, pages);
}

/** A query no event can meet (plan.ts, matchesNothing): answered without a statement. */
const NOTHING: AccessPath = {
  name: 'nothing',
  count: async () => 0,
  countOn: async () => 0,
  search: async () => pageOf([]),
  listPage: async () => ({ total: 0 }),
};
