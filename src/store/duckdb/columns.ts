// The field registry of the read side: the SELECT list and the row -> EventRecord mapping, in one
// place. Values arrive as JS values (structs as objects, lists as arrays).
import type { EventRecord } from '../../domain/record.ts';
import { RECORD_ROW_COLUMNS, recordFromRow } from '../record-row.ts';
import { EVENT_KINDS, type EventKind } from '../../domain/kinds.ts';

/** Timestamps leave the engine as epoch milliseconds: cheap to convert and exact to the ms. */
const COMMON_COLUMNS = RECORD_ROW_COLUMNS.map((c) => (c === 'start_ms' ? 'epoch_ms(start_ts)::DOUBLE' : c === 'end_ms' ? 'epoch_ms(end_ts)::DOUBLE' : c));

/**
 * The SELECT list for rows of some kinds. The kind blocks come last: exactly one of these struct
 * columns is set on each row, and the blocks of kinds the query cannot return are read as NULL,
 * because every column read costs a decompression per vector it touches (the port-visit block,
 * with its nested anchorages, costs as much as ten plain columns).
 */
export function selectColumns(kinds: Iterable<EventKind>): string {
  const wanted = new Set(kinds);
  return [...COMMON_COLUMNS, ...EVENT_KINDS.map((k) => (wanted.has(k) ? k : 'NULL'))].join(', ');
}

export const SELECT_COLUMNS = selectColumns(EVENT_KINDS);

/** The record of a row of SELECT_COLUMNS (or selectColumns'): its kind's block is its kind's column. */
export const toRecord = (row: readonly unknown[]): EventRecord => recordFromRow(row, (at, kind) => row[at + EVENT_KINDS.indexOf(kind)]);
