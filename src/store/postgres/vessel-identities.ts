// The self-reported identities of the latest versions (src/store/vessel-identities.ts), read from
// each row's stored record (its vessel and an encounter's second vessel), which holds the MMSI and
// name that the events table has no column for.
import type pg from 'pg';
import type { SelfReportedIdentity } from '../../domain/vessel-identity.ts';
import { identitiesOf } from '../vessel-identities.ts';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;

export async function readVesselIdentities(c: pg.ClientBase, versionIds: number[]): Promise<SelfReportedIdentity[]> {
  if (versionIds.length === 0) return [];
  const ofVessel = (v: string) => `${v}->>'id', ${v}->>'ssvid', ${v}->>'name', ${v}->>'flag', ${v}->>'type', ${v}->>'gear_type'`;
  const grouped = (v: string) => `
    SELECT ${ofVessel(v)}, to_char(min(start_ts), ${ISO}), to_char(max(coalesce(end_ts, start_ts)), ${ISO}), count(*)::float8
      FROM events WHERE version_id = ANY($1::smallint[]) AND ${v}->>'id' IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6`;
  const sql = `${grouped(`(record->'vessel')`)} UNION ALL ${grouped(`(record->'otherVessel')`)}`;
  const rows = (await c.query({ text: sql, values: [versionIds], rowMode: 'array' })).rows as unknown[][];
  return identitiesOf(rows);
}
