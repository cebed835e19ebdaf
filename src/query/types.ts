// The normalised query: what every layer after parsing works on (store, shape, stats).
import type { ResolvedDataset } from './datasets.ts';
import type { EventTypeFilterValue, Operator, SortValue, TimeFilterMode } from './kinds.ts';

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
  time: TimeWindow;
}

export interface ListQuery extends EventQuery {
  sort: SortValue;
  limit: number;
  offset: number;
}

/** Who is asking: the access layer answers whether a dataset id may be read. */
export interface DatasetAccess {
  canRead(datasetId: string): boolean;
}
