// vessel_identities: each version's distinct self-reported vessel identities (the vessel's own
// block, and an encounter's second vessel), with when its events first and last show each and how
// many carry it. The loader writes it with the version, so that opening the Vessels API's
// directory reads some 200,000 rows rather than grouping 10M events (2.8 s plus 1.7 s of
// conversion at 10M, docs/performance.md "Vessel search"). A version written before the table is
// grouped from events until a load or `migrate` writes its rows.
import type { DuckDBConnection } from '@duckdb/node-api';
import { IDENTITY_FIELD, IDENTITY_NULL, IDENTITY_ROW_END, type IdentityRow } from '../../domain/vessel-identity.ts';
import { deleteVersionRows, tableExists, versionsMissingFrom } from './tables.ts';
import { blobColumnValues } from './chunk-columns.ts';

export const CREATE_IDENTITY_TABLES = [
  `CREATE TABLE IF NOT EXISTS vessel_identities (
     version_id USMALLINT NOT NULL, vessel_id VARCHAR NOT NULL, ssvid VARCHAR, shipname VARCHAR, flag VARCHAR, type VARCHAR, gear_type VARCHAR,
     first_seen TIMESTAMP NOT NULL, last_seen TIMESTAMP NOT NULL, events BIGINT NOT NULL)`,
  // The versions whose rows are in vessel_identities: a database written before the table has none.
  `CREATE TABLE IF NOT EXISTS identity_versions (version_id USMALLINT PRIMARY KEY)`,
];

/** The identities of the versions' events, grouped: the vessel's own and an encounter's second vessel. */
export function groupedSql(versionIds: readonly number[], events = 'events'): string {
  const list = versionIds.map(Number).join(', ');
  const grouped = (v: (field: string) => string, where: string) => `
    SELECT version_id, ${['id', 'ssvid', 'name', 'flag', 'type', 'gear_type'].map(v).join(', ')}, min(start_ts), max(coalesce(end_ts, start_ts)), count(*)
      FROM ${events} WHERE version_id IN (${list}) ${where} GROUP BY ALL`;
  return `${grouped((f) => (f === 'id' ? 'vessel_id' : `vessel_${f}`), '')}
    UNION ALL ${grouped((f) => `other_vessel.${f}`, `AND kind = 'encounter' AND other_vessel.id IS NOT NULL`)}`;
}

/** Writes the rows of every version not yet in vessel_identities (all of them in an older file); resolves to how many. */
export async function writeMissingIdentityRows(c: DuckDBConnection): Promise<number> {
  const missing = await versionsMissingFrom(c, 'identity_versions');
  if (missing.length === 0) return 0;
  await c.run(`INSERT INTO vessel_identities SELECT * FROM (${groupedSql(missing)}) ORDER BY 1, 2`);
  await c.run(`INSERT INTO identity_versions SELECT unnest([${missing.join(', ')}])`);
  return missing.length;
}

export function dropIdentityRows(c: DuckDBConnection, versionId: number): Promise<void> {
  return deleteVersionRows(c, ['vessel_identities', 'identity_versions'], versionId);
}

const ISO = `'%Y-%m-%dT%H:%M:%SZ'`;

/**
 * The identities of the versions, packed (IdentityRow) and ordered by vessel id, then last seen
 * from the latest, then first seen: from vessel_identities where it holds them, else grouped from
 * events (`events`: their FROM, layered versions' included, layers.ts). Each row is built as one
 * text: the driver's conversion of 165,290 rows of nine values took 1.7 s at 10M, the text 0.2 s.
 * The rows are streamed a chunk at a time: aggregated into one text, 828,834 identities at 50M
 * events (109 MB) needed more than the server's 160 MB memory limit, and 1.2 GiB of RSS under a
 * higher one (docs/performance.md, "Vessel search").
 */
export async function readVesselIdentities(c: DuckDBConnection, versionIds: number[], events = 'events'): Promise<IdentityRow[]> {
  if (versionIds.length === 0) return [];
  const held = (await tableExists(c, 'identity_versions'))
    ? new Set((await c.runAndReadAll(`SELECT version_id::INTEGER FROM identity_versions`)).getRowsJS().map((r) => r[0] as number))
    : new Set<number>();
  const stored = versionIds.filter((v) => held.has(v));
  const grouped = versionIds.filter((v) => !held.has(v));
  const sources = [
    ...(stored.length > 0 ? [`SELECT * EXCLUDE (version_id) FROM vessel_identities WHERE version_id IN (${stored.join(', ')})`] : []),
    ...(grouped.length > 0 ? [`SELECT * EXCLUDE (version_id) FROM (${groupedSql(grouped, events)})`] : []),
  ];
  // IDENTITY_NULL as chr(0): a NUL inside the statement's text would end it.
  const field = (column: string) => `coalesce(replace(replace(${column}, '${IDENTITY_FIELD}', ' '), '${IDENTITY_ROW_END}', ' '), chr(${IDENTITY_NULL.charCodeAt(0)}))`;
  const columns = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].map(field);
  // Grouped again across the versions: a vessel is in most of them (550,000 rows at 10M, 165,290 identities).
  const sql = `SELECT encode(concat_ws('${IDENTITY_FIELD}', ${columns.join(', ')}, strftime(c7, ${ISO}), strftime(c8, ${ISO}), c9::VARCHAR) || '${IDENTITY_ROW_END}')
    FROM (SELECT c1, c2, c3, c4, c5, c6, min(c7) AS c7, max(c8) AS c8, sum(c9) AS c9
            FROM (${sources.join(' UNION ALL ')}) t(c1, c2, c3, c4, c5, c6, c7, c8, c9) GROUP BY ALL)
    ORDER BY c1, c8 DESC, c7`;
  const result = await c.stream(sql);
  const decoder = new TextDecoder();
  const rows: IdentityRow[] = [];
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    // Each piece holds whole rows, each ending with IDENTITY_ROW_END.
    for (const piece of blobColumnValues(chunk, 0).pieces) for (const row of decoder.decode(piece).slice(0, -1).split(IDENTITY_ROW_END)) rows.push(row);
  }
  return rows;
}
