// From PostgreSQL layout 1 (one unpartitioned events table) to layout 2 (a partition per version,
// schema.ts), in one transaction under the writer lock: the old table is renamed, the new one made,
// each version's rows copied into its own partition and attached, the old table dropped; and from
// layout 2 to 3 (the versions' marks, lineage.ts). A migration that fails or is stopped leaves the
// database as it was.
import type pg from 'pg';
import { EVENT_COLUMNS, eventPartition, SCHEMA_VERSION } from './schema.ts';
import { attachPartition, createPartition } from './partitions.ts';

/**
 * Moves layout 1's events into layout 2's partitions; `createSchema` makes layout 2's tables and
 * indexes once the old table is out of the way. Resolves to the versions and rows moved.
 */
export async function migrateLayout1(client: pg.ClientBase, createSchema: () => Promise<void>): Promise<{ versions: number; rows: number }> {
  // Every index of the old table goes (their names are layout 2's), whatever its name.
  const indexes = (await client.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'events'`)).rows.map((r) => r.indexname as string);
  for (const name of indexes) await client.query(`DROP INDEX ${quoteIdent(name)}`);
  await client.query('ALTER TABLE events RENAME TO events_layout_1');
  await createSchema();
  const versions = (await client.query(`SELECT version_id FROM dataset_versions ORDER BY version_id`)).rows.map((r) => Number(r.version_id));
  const columns = EVENT_COLUMNS.map(([n]) => n).join(', ');
  let rows = 0;
  for (const versionId of versions) {
    await createPartition(client, versionId);
    rows += (await client.query(`INSERT INTO ${eventPartition(versionId)} (${columns}) SELECT ${columns} FROM events_layout_1 WHERE version_id = $1`, [versionId])).rowCount ?? 0;
    await attachPartition(client, versionId);
  }
  await client.query('DROP TABLE events_layout_1');
  await client.query(`UPDATE meta SET value = $1 WHERE key = 'schema_version'`, [String(SCHEMA_VERSION)]);
  return { versions: versions.length, rows };
}

/**
 * Layout 2 to 3: the tables of rows per version gain the versions' marks (lineage.ts), which no row
 * of layout 2 sets, and their index-only scans' indexes are built again to include them.
 */
export async function migrateLayout2(client: pg.ClientBase, createSchema: () => Promise<void>): Promise<{ versions: number; rows: number }> {
  for (const index of ['events_version_start', 'region_events_key', 'spatial_events_key']) await client.query(`DROP INDEX IF EXISTS ${index}`);
  await createSchema();
  await client.query(`UPDATE meta SET value = $1 WHERE key = 'schema_version'`, [String(SCHEMA_VERSION)]);
  return { versions: 0, rows: 0 };
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
