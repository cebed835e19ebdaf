// Where each dataset version's events lie, as the cells of the grid in src/geo/grid.ts (half a
// degree square) that hold at least one. Both engines read them when a database is opened (DuckDB
// from spatial_events, PostgreSQL from event_cells, each written by the load), so that a buffer
// that can reach no event is not computed (src/geo/buffer-reach.ts, src/query/area.ts).
import { boxMeetsCells, type Box } from '../geo/grid.ts';

/** Version id -> the keys of its cells holding events, ascending. A version missing was written before the cells were kept. */
export type EventCells = ReadonlyMap<number, Int32Array>;

/**
 * Whether events of the versions may lie in a box: false only when the cells of every version are
 * known and none of them meets the box.
 */
export function cellsMayHoldEventsIn(cells: EventCells, versionIds: readonly number[], box: Box): boolean {
  return versionIds.some((versionId) => {
    const keys = cells.get(versionId);
    return !keys || boxMeetsCells(box, keys);
  });
}

/** Rows of (version id, cell key), in any order, as the map of each version's sorted keys; `versions` lists those known to have none. */
export function eventCellsOf(rows: Iterable<readonly [number, number]>, versions: Iterable<number> = []): Map<number, Int32Array> {
  const keys = new Map<number, number[]>();
  for (const version of versions) keys.set(version, []);
  for (const [version, key] of rows) (keys.get(version) ?? keys.set(version, []).get(version)!).push(key);
  return new Map([...keys].map(([version, list]) => [version, Int32Array.from(list).sort()]));
}
