// The partitions of `events`, one per dataset version (schema.ts eventPartition). A load fills a
// bare table and attaches it (bare-tables.ts), with its indexes built whole from the whole table: a
// COPY into an indexed table updated five B-trees, six GIN and a GiST index row by row. Attaching
// takes a lock that readers do not wait for; dropping a version drops its table, under a lock that
// they do, for as long as the dropping transaction lasts (a catalog change, not a DELETE and a VACUUM).
import type pg from 'pg';
import { attachBareTable, createBareTable } from './bare-tables.ts';
import { changesEventPartitions, changesPartitionId } from './lineage.ts';
import { eventPartition } from './schema.ts';

/** The name of lineage `partition`'s partition of changes (lineage.ts), or undefined while no update has made it. */
export async function changesPartitionOf(client: pg.ClientBase, partition: number): Promise<string | undefined> {
  const names = changesEventPartitions(partition);
  const found = (await client.query('SELECT relname FROM pg_class WHERE relname = ANY($1::text[]) AND relkind = \'r\'', [names])).rows.map((r) => r.relname as string);
  return names.find((n) => found.includes(n));
}

/**
 * The partition of changes of lineage `partition`, created when it has none, in the writer's
 * transaction: created bare and attached (`CREATE TABLE ... PARTITION OF` would lock `events` against
 * every reader until the update commits; attaching takes a lock they do not wait for). Resolves to its name.
 */
export async function ensureChangesPartition(client: pg.ClientBase, partition: number): Promise<string> {
  const found = await changesPartitionOf(client, partition);
  if (found) return found;
  const [name] = changesEventPartitions(partition);
  await client.query(`CREATE TABLE ${name} (LIKE events INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING COMPRESSION)`);
  await client.query(`ALTER TABLE events ATTACH PARTITION ${name} FOR VALUES IN (${changesPartitionId(partition)})`);
  return name;
}

/** A bare table for a version's events, with the columns of `events` (its point generated and its texts compressed as there). */
export async function createPartition(client: pg.ClientBase, versionId: number): Promise<void> {
  await createBareTable(client, 'events', versionId, { like: 'INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING COMPRESSION' });
}

/** Attaches a filled partition, building each index it does not have yet. */
export async function attachPartition(client: pg.ClientBase, versionId: number): Promise<void> {
  await attachBareTable(client, 'events', versionId);
}

/** Drops a version's partition, and the partition of its lineage's changes. */
export async function dropPartition(client: pg.ClientBase, versionId: number): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${[eventPartition(versionId), ...changesEventPartitions(versionId)].join(', ')}`);
}
