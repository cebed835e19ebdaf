// The filter plan's vocabulary: the logical fields of an event, the conditions on them, and a
// query's plan. Types alone, so that the query (types.ts) can carry its plan and the planner
// (plan.ts) can read the query, neither importing the other.
import type { RegionMember } from '../domain/regions.ts';
import type { Polygon } from '../geo/geojson.ts';

/** Fields with one value per event (or none). */
export type ValueField =
  | 'version' // the dataset version the event was loaded in
  | 'id'
  | 'vessel' // the entry's own vessel id
  | 'kind'
  | 'vesselFlag'
  | 'vesselType'
  | 'nextPort' // the vessel's next port id
  | 'portVisitConfidence'
  | 'portVisitAnchorage' // the port of a port visit's intermediate anchorage
  | 'encounterType'
  | 'gapIntentionalDisabling';
export type TimeField = 'start' | 'end';
export type Field = ValueField | TimeField;

export type Condition =
  | { is: 'true' }
  | { is: 'false' }
  | { is: 'and'; all: Condition[] }
  | { is: 'or'; any: Condition[] }
  | { is: 'not'; condition: Condition }
  /** The field has one of the values (never true when it has none). */
  | { is: 'oneOf'; field: ValueField; values: readonly (string | number | boolean)[] }
  /** The field has no value: an open event's end, a vessel without a flag. */
  | { is: 'missing'; field: Field }
  | { is: 'atOrAfter'; field: TimeField; ms: number }
  | { is: 'before'; field: TimeField; ms: number }
  /** The event's vessel belongs to one of the vessel groups. */
  | { is: 'inVesselGroups'; groups: readonly string[] }
  /** The event's `regions` member lists the region. */
  | { is: 'inRegion'; member: RegionMember; id: string }
  /** The event's position lies in one of the polygons (even-odd rule within each). */
  | { is: 'inPolygons'; polygons: readonly Polygon[] }
  /**
   * The event lasts at least / less than `ms`: from its start to its end, or, while it is open,
   * to the moment its dataset version was last updated (`openUntil`, by version).
   */
  | { is: 'lastsAtLeast' | 'lastsLessThan'; ms: number; openUntil: readonly { version: number; ms: number }[] };

/**
 * A query's plan, built once when the query is normalised (src/query/normalize.ts) and carried by
 * it: every engine and every access path reads this one, and none plans the filters again.
 */
export interface FilterPlan {
  /** Every condition an event must meet, in the order engines evaluate them best. */
  readonly conditions: readonly Condition[];
  /**
   * One of the conditions is false (an area no event lies within reach of, a buffer that shrinks a
   * shape away): no event can meet the query, and a store answers without a statement.
   */
  readonly matchesNothing: boolean;
  /** The fields the conditions read, and the kinds of condition that need more than fields. */
  readonly fields: ReadonlySet<Field>;
  readonly other: ReadonlySet<Condition['is']>;
}

