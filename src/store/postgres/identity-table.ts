// vessel_identities on PostgreSQL: each version's distinct self-reported vessel identities, read
// from each row's vessel columns and an encounter's second vessel (record-columns.ts). The writer
// groups them once per version it adds, as the DuckDB loader does (src/store/duckdb/identity-table.ts),
// so that the Vessels API reads a few rows per vessel rather than grouping every event; a version
// written before the table is grouped from its events until the next write adds its rows.
import type pg from 'pg';
import { versionsListedIn, versionsMissingFrom } from './version-tables.ts';
import type { IdentityRow } from '../../domain/vessel-identity.ts';
import { identityRowsOf } from '../vessel-identities.ts';

export const CREATE_IDENTITY_TABLES = [
  `CREATE TABLE IF NOT EXISTS vessel_identities (
     version_id smallint NOT NULL, vessel_id text COLLATE "C" NOT NULL, ssvid text, shipname text, flag text, type text, gear_type text,
     first_seen timestamp NOT NULL, last_seen timestamp NOT NULL, events bigint NOT NULL)`,
  // A version's rows, and an update's of the vessels it touched (layered-summaries.ts), found
  // without reading every version's: the table holds a copy of the catalogue's identities per
  // version, 2.7M rows once the 10M catalogue's fishing version was updated 18 times.
  'CREATE INDEX IF NOT EXISTS vessel_identities_version ON vessel_identities (version_id, vessel_id)',
  'CREATE TABLE IF NOT EXISTS identity_versions (version_id smallint PRIMARY KEY)',
];

/**
 * Each row's vessels (`v`: id, ssvid, name, flag, type, gear_type) of events aliased `e`: its own,
 * from its columns, and an encounter's second, its JSON parsed once (json_to_record): `->>` parses
 * the whole text again for every field, 59.8 s against 10.1 for the 1M demo's records, the same rows
 * (2026-11-28, docs/performance.md, "The PostgreSQL engine: loads"). The columns' "C" collation is
 * set aside, as the second vessel's JSON has none.
 */
const ROW_VESSELS = `LATERAL (SELECT ${['vessel_id', 'vessel_ssvid', 'vessel_name', 'vessel_flag', 'vessel_type', 'vessel_gear_type'].map((c) => `e.${c} COLLATE "default"`).join(', ')}
      UNION ALL SELECT o.id, o.ssvid, o.name, o.flag, o.type, o.gear_type
        FROM json_to_record(CASE WHEN json_typeof(e.other_vessel) = 'object' THEN e.other_vessel END) AS o(id text, ssvid text, name text, flag text, type text, gear_type text)
       WHERE o.id IS NOT NULL) AS v(id, ssvid, name, flag, type, gear_type)`;

/** The identities of the versions' events, grouped per version: the vessel's own and an encounter's second vessel. */
export function groupedSql(versions: string): string {
  return `SELECT e.version_id, v.id, v.ssvid, v.name, v.flag, v.type, v.gear_type, min(e.start_ts), max(coalesce(e.end_ts, e.start_ts)), count(*)
    FROM events e, ${ROW_VESSELS}
    WHERE e.version_id = ANY(${versions}) GROUP BY 1, 2, 3, 4, 5, 6, 7`;
}

/**
 * The identities of the events of `source` (a table with the events' columns, aliased `e`) that
 * meet `where`, grouped: vessel id, MMSI, name, flag, type, gear, first and last seen (as
 * IDENTITY_TIME's text), events.
 */
export function identityGroupsSql(source: string, where: string): string {
  return `SELECT v.id, v.ssvid, v.name, v.flag, v.type, v.gear_type, to_char(min(e.start_ts), ${IDENTITY_TIME}), to_char(max(coalesce(e.end_ts, e.start_ts)), ${IDENTITY_TIME}), count(*)::float8
    FROM ${source} e, ${ROW_VESSELS}
    WHERE ${where} GROUP BY 1, 2, 3, 4, 5, 6`;
}

/** Timestamps as text that sorts as they do. */
export const IDENTITY_TIME = `'YYYY-MM-DD HH24:MI:SS.US'`;

/** Writes the rows of every version not yet in vessel_identities (the versions a load or update adds). */
export async function writeMissingIdentityRows(c: pg.ClientBase): Promise<void> {
  const missing = await versionsMissingFrom(c, 'identity_versions');
  if (missing.length === 0) return;
  await c.query(`INSERT INTO vessel_identities ${groupedSql('$1::smallint[]')}`, [missing]);
  await c.query('INSERT INTO identity_versions SELECT unnest($1::smallint[])', [missing]);
}

/**
 * Writes identity rows grouped elsewhere (the staged file's, copy-events.ts identities) for the
 * versions named, which then count as written: rows as vessel_identities' columns, the version
 * mapped to its PostgreSQL id.
 */
export async function insertIdentityRows(c: pg.ClientBase, rows: readonly unknown[][], versionIds: readonly number[]): Promise<void> {
  for (let i = 0; i < rows.length; i += IDENTITY_CHUNK) {
    const chunk = rows.slice(i, i + IDENTITY_CHUNK);
    const column = (n: number) => chunk.map((r) => r[n]);
    await c.query(
      `INSERT INTO vessel_identities SELECT * FROM unnest($1::smallint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamp[], $9::timestamp[], $10::bigint[])`,
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(column),
    );
  }
  await c.query('INSERT INTO identity_versions SELECT unnest($1::smallint[])', [versionIds]);
}

/** Identity rows per INSERT: ten arrays of this many values. */
const IDENTITY_CHUNK = 20_000;

export async function dropIdentityRows(c: pg.ClientBase, versionId: number): Promise<void> {
  for (const table of ['vessel_identities', 'identity_versions']) await c.query(`DELETE FROM ${table} WHERE version_id = $1`, [versionId]);
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;

/**
 * The identities of the versions, grouped again across them and packed (IdentityRow), ordered as
 * the directory orders them (by vessel id, then last seen from the latest, then first seen): from
 * vessel_identities where it holds them, else from the records.
 */
export async function readVesselIdentities(c: pg.ClientBase, versionIds: number[]): Promise<IdentityRow[]> {
  if (versionIds.length === 0) return [];
  const held = await versionsListedIn(c, 'identity_versions');
  const stored = versionIds.filter((v) => held.has(v));
  const grouped = versionIds.filter((v) => !held.has(v));
  const values: number[][] = [];
  const sources: string[] = [];
  if (stored.length > 0) {
    values.push(stored);
    sources.push(`SELECT vessel_id, ssvid, shipname, flag, type, gear_type, first_seen, last_seen, events FROM vessel_identities WHERE version_id = ANY($${values.length}::smallint[])`);
  }
  if (grouped.length > 0) {
    values.push(grouped);
    sources.push(`SELECT c1, c2, c3, c4, c5, c6, c7, c8, c9 FROM (${groupedSql(`$${values.length}::smallint[]`)}) g(v, c1, c2, c3, c4, c5, c6, c7, c8, c9)`);
  }
  const sql = `SELECT c1, c2, c3, c4, c5, c6, to_char(min(c7), ${ISO}), to_char(max(c8), ${ISO}), sum(c9)::float8
    FROM (${sources.join(' UNION ALL ')}) t(c1, c2, c3, c4, c5, c6, c7, c8, c9) GROUP BY 1, 2, 3, 4, 5, 6
    ORDER BY c1 COLLATE "C", max(c8) DESC, min(c7)`;
  const rows = (await c.query({ text: sql, values, rowMode: 'array' })).rows as unknown[][];
  return identityRowsOf(rows);
}
