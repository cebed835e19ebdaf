// The self-reported identities of the latest versions (src/store/vessel-identities.ts), read from
// the events table in one pass: the vessel's own columns, and the encounter's second vessel.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { SelfReportedIdentity } from '../../domain/vessel-identity.ts';
import { identitiesOf } from '../vessel-identities.ts';
import { readRows } from './read-rows.ts';

const ISO = `'%Y-%m-%dT%H:%M:%SZ'`;

export async function readVesselIdentities(c: DuckDBConnection, versionIds: number[]): Promise<SelfReportedIdentity[]> {
  if (versionIds.length === 0) return [];
  const versions = versionIds.join(', ');
  const sql = `
    SELECT vessel_id, vessel_ssvid, vessel_name, vessel_flag, vessel_type, vessel_gear_type,
           strftime(min(start_ts), ${ISO}), strftime(max(coalesce(end_ts, start_ts)), ${ISO}), count(*)::DOUBLE
      FROM events WHERE version_id IN (${versions}) GROUP BY ALL
    UNION ALL
    SELECT other_vessel.id, other_vessel.ssvid, other_vessel.name, other_vessel.flag, other_vessel.type, other_vessel.gear_type,
           strftime(min(start_ts), ${ISO}), strftime(max(coalesce(end_ts, start_ts)), ${ISO}), count(*)::DOUBLE
      FROM events WHERE version_id IN (${versions}) AND other_vessel.id IS NOT NULL GROUP BY ALL`;
  return identitiesOf(await readRows(c, sql, []));
}
