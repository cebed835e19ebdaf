// From PostgreSQL layout 1 (one unpartitioned events table) to layout 2 (a partition per version,
// schema.ts), in one transaction under the writer lock: the old table is renamed, the new one made,
// each version's rows copied into its own partition and attached, the old table dropped; from
// layout 2 to 3 (the versions' marks, lineage.ts); and from 3 to 4 (the record in columns,
// record-columns.ts). A migration that fails or is stopped leaves the database as it was.
import type pg from 'pg';
import { EVENT_COLUMNS, eventPartition, SCHEMA_VERSION } from './schema.ts';
import { attachPartition, createPartition } from './partitions.ts';
import { RECORD_COLUMNS } from './record-columns.ts';
import { DISTANCE_FIELDS } from '../../domain/record.ts';

/**
 * Moves layout 1's events into layout 2's partitions; `createSchema` makes layout 2's tables and
 * indexes once the old table is out of the way. Resolves to the versions and rows moved.
 */
export async function migrateLayout1(client: pg.ClientBase, createSchema: () => Promise<void>): Promise<{ versions: number; rows: number; split: number }> {
  const split = await splitRecords(client);
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
  return { versions: versions.length, rows, split };
}

/**
 * Layout 2 to 4: the tables of rows per version gain the versions' marks (lineage.ts), which no row
 * of layout 2 sets, and their index-only scans' indexes are built again to include them; then as
 * layout 3.
 */
export async function migrateLayout2(client: pg.ClientBase, createSchema: () => Promise<void>): Promise<{ versions: number; rows: number; split: number }> {
  for (const index of ['events_version_start', 'region_events_key', 'spatial_events_key']) await client.query(`DROP INDEX IF EXISTS ${index}`);
  return migrateLayout3(client, createSchema);
}

/** Layout 3 to 4: each row's record split into the record's columns (splitRecords). */
export async function migrateLayout3(client: pg.ClientBase, createSchema: () => Promise<void>): Promise<{ versions: number; rows: number; split: number }> {
  const split = await splitRecords(client);
  await createSchema();
  await client.query(`UPDATE meta SET value = $1 WHERE key = 'schema_version'`, [String(SCHEMA_VERSION)]);
  return { versions: 0, rows: 0, split };
}

/** A JSON member as the record's JSON columns hold it: SQL NULL for JSON's null, as the loader writes them. */
const jsonMember = (path: string) => `CASE WHEN json_typeof(record${path}) <> 'null' THEN record${path} END`;

/** Each record column (record-columns.ts) from the JSON record of layouts 1 to 3 (src/domain/record.ts EventRecord). */
const FROM_RECORD: Record<string, string> = {
  seg_id: `record->>'segId'`,
  lon_min: `(record->>'lonMin')::float8`,
  lat_min: `(record->>'latMin')::float8`,
  lon_max: `(record->>'lonMax')::float8`,
  lat_max: `(record->>'latMax')::float8`,
  ...Object.fromEntries(DISTANCE_FIELDS.map((d) => [d.source, `(record->'distances'->>'${d.member}')::float8`])),
  vessel_ssvid: `record->'vessel'->>'ssvid'`,
  vessel_name: `record->'vessel'->>'name'`,
  vessel_authorizations: jsonMember(`->'vessel'->'public_authorizations'`),
  next_port: jsonMember(`->'vessel'->'next_port'`),
  other_vessel: jsonMember(`->'otherVessel'`),
  info: jsonMember(`->'info'`),
};

/**
 * The events' records of a database written before layout 4, one JSON text a row, split into the
 * record's columns, and the text dropped; resolves to the rows split (none where `events` has no
 * record). Every partition's rows are written again, once.
 */
async function splitRecords(client: pg.ClientBase): Promise<number> {
  const has = (await client.query(`SELECT 1 FROM pg_attribute WHERE attrelid = 'events'::regclass AND attname = 'record' AND NOT attisdropped`)).rowCount ?? 0;
  if (has === 0) return 0;
  await client.query(`ALTER TABLE events ${RECORD_COLUMNS.map(([name, type]) => `ADD COLUMN IF NOT EXISTS ${name} ${type}`).join(', ')}`);
  const split = (await client.query(`UPDATE events SET ${RECORD_COLUMNS.map(([name]) => `${name} = ${FROM_RECORD[name]}`).join(', ')}`)).rowCount ?? 0;
  await client.query('ALTER TABLE events DROP COLUMN record');
  return split;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
