// The normalised query: what every layer after parsing works on (store, shape, stats).
import type { ResolvedDataset } from './datasets.ts';
import type { EventTypeFilterValue, Operator, SortValue, TimeFilterMode } from './enumerations.ts';
import type { RegionMember } from '../domain/regions.ts';
import type { Polygon } from '../geo/geojson.ts';
import type { Box } from '../geo/grid.ts';
import type { BufferOperation, BufferUnit } from '../geo/buffer.ts';
import type { FilterPlan } from './conditions.ts';

/**
 * Where events must be: named regions matched on their `regions` members (no buffer), or polygons
 * their position lies in (a geometry, or buffered regions). An empty polygon list matches nothing.
 */
export type AreaFilter =
  | { type: 'regions'; regions: { dataset: string; member: RegionMember; id: string }[] }
  | {
      type: 'polygons';
      polygons: Polygon[];
      /** What the polygons were made from, for the query's echo: the request's geometry, or named regions... */
      from: 'geometry' | { dataset: string; id: string }[];
      /** ...and the buffer applied to it, if any. */
      buffer?: { value: number; unit: BufferUnit; operation: BufferOperation };
      /**
       * Set when the buffer was not computed: the buffered area lies within this box
       * [minLon, minLat, maxLon, maxLat] and no event of the query's dataset versions does, so
       * polygons is empty (src/geo/buffer-reach.ts).
       */
      outOfReach?: Box;
    };

export interface ValueFilter<T extends string> {
  values: T[];
  operator: Operator;
}

export interface TimeWindow {
  /** Inclusive, epoch milliseconds. */
  startMs?: number;
  /** Exclusive, epoch milliseconds. */
  endMs?: number;
  mode: TimeFilterMode;
}

export interface EventQuery {
  datasets: ResolvedDataset[];
  vesselIds?: string[];
  eventIds?: string[];
  types?: ValueFilter<EventTypeFilterValue>;
  flags?: ValueFilter<string>;
  /** Lower case, as stored in `vessel.type`. */
  vesselTypes?: ValueFilter<string>;
  vesselGroups?: string[];
  /** Port visits only: '2', '3', '4'. */
  confidences?: ValueFilter<string>;
  /** Encounters only; lower case as stored, `carrier-fishing`. */
  encounterTypes?: ValueFilter<string>;
  /** Gaps only. */
  gapIntentional?: boolean;
  /** Gaps only: which of closed (true) and open (false) to keep; absent when both. */
  gapClosed?: boolean;
  /** Port visits only: the intermediate anchorage's port id. */
  portIds?: ValueFilter<string>;
  nextPortIds?: ValueFilter<string>;
  /** Duration bounds in ms: minimum inclusive, maximum exclusive. */
  duration?: { minMs?: number; maxMs?: number };
  area?: AreaFilter;
  time: TimeWindow;
  /** The members above as conditions (plan.ts), built once by normalize.ts: what every store reads. */
  filters: FilterPlan;
}

/** How entries are written (docs/api.md, "Entry shaping"). */
export interface EntryShape {
  /** Dotted paths to keep; absent keeps everything. */
  includes?: string[];
  includeRegions: boolean;
  summary: boolean;
}

export interface ListQuery extends EventQuery {
  sort: SortValue;
  limit: number;
  offset: number;
  shape: EntryShape;
}

/** Who is asking: the access layer answers whether a dataset id may be read. */
export interface DatasetAccess {
  canRead(datasetId: string): boolean;
}
