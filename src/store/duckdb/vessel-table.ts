// vessel_events: for every event, the columns a vessel's history is filtered and sorted on, sorted
// by version, then a 64-bit key of the vessel id, so the key's zone maps find a vessel's rows in one
// row group of each version. Version first (since 2026-11-25; files loaded before keep the key
// first, with the same answers): statistics count a version's distinct vessels here, and read that
// version's rows alone (8 years of encounters on 10M events: 10.9 ms against 58.4; of fishing 80.0
// against 133.2), for 1.9 ms against 1.1 to find one vessel in five versions (docs/performance.md).
// Vessel histories are read from the point files (vessel-history.ts); this table counts a
// history's distinct vessels for statistics, and answers a history's total where a version has no
// usable point file (its page then reads events). Which queries it answers: src/store/vessel-plan.ts.
// The loader writes it (src/store/duckdb/writer.ts).
import { createHash } from 'node:crypto';
import type { EventQuery } from '../../query/types.ts';
import { LONG_LIST } from './render-plan.ts';

export const CREATE_VESSEL_TABLE = `CREATE TABLE IF NOT EXISTS vessel_events (
  vessel_key UBIGINT NOT NULL, version_id USMALLINT NOT NULL, vessel_id VARCHAR NOT NULL, id VARCHAR NOT NULL,
  kind VARCHAR NOT NULL, start_ts TIMESTAMP NOT NULL, end_ts TIMESTAMP)`;

/**
 * Until 2026-11-23 the table also held each entry (zstd), which vessel histories read; the point
 * files hold them now, so a file written before loses the column at its next write.
 */
export const DROP_VESSEL_ENTRIES = `ALTER TABLE vessel_events DROP COLUMN IF EXISTS entry`;

/** The key in SQL (what the loader writes)... */
export const VESSEL_KEY_SQL = (vesselId: string) => `md5_number_upper(${vesselId})`;

/** ...and in JS, so a query carries its keys as constants that the zone maps can test. */
export function vesselKey(vesselId: string): bigint {
  return createHash('md5').update(vesselId, 'utf8').digest().readBigUInt64LE(0);
}

/**
 * The FROM and the extra condition of a query on vessel_events. The keys prune only as literals; a
 * long list of them costs more to plan than it saves, and the vessel condition alone holds.
 */
export function vesselSource(query: EventQuery): { from: string; prune?: string } {
  const keys = [...new Set(query.vesselIds!.map(vesselKey))];
  if (keys.length > LONG_LIST) return { from: 'vessel_events' };
  return { from: 'vessel_events', prune: `vessel_key IN (${keys.map((k) => `${k}::UBIGINT`).join(', ')})` };
}
