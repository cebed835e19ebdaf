// The partitions of `events`, one per dataset version (schema.ts eventPartition). A load fills a
// bare table and attaches it (bare-tables.ts), with its indexes built whole from the whole table: a
// COPY into an indexed table updated five B-trees, six GIN and a GiST index row by row. Attaching
// takes a lock that readers do not wait for; dropping a version drops its table, under a lock that
// they do, for as long as the dropping transaction lasts (a catalog change, not a DELETE and a VACUUM).
import type pg from 'pg';
import { attachBareTable, createBareTable } from './bare-tables.ts';
import { hiddenEventPartition, hiddenPartitionId } from './lineage.ts';
import { eventPartition } from './schema.ts';

/** Whether an update of lineage `partition` has kept the rows it hid in a partition of their own. */
export async function hasHiddenPartition(client: pg.ClientBase, partition: number): Promise<boolean> {
  return (await client.query('SELECT to_regclass($1) IS NOT NULL AS found', [hiddenEventPartition(partition)])).rows[0].found as boolean;
}

/**
 * Creates the partition of the rows hidden from lineage `partition` when it has none, in the writer's
 * transaction: created bare and attached (`CREATE TABLE ... PARTITION OF` would lock `events` against
 * every reader until the update commits; attaching takes a lock they do not wait for).
 */
export async function ensureHiddenPartition(client: pg.ClientBase, partition: number): Promise<void> {
  if (await hasHiddenPartition(client, partition)) return;
  const name = hiddenEventPartition(partition);
  await client.query(`CREATE TABLE ${name} (LIKE events INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING COMPRESSION)`);
  await client.query(`ALTER TABLE events ATTACH PARTITION ${name} FOR VALUES IN (${hiddenPartitionId(partition)})`);
}

/** A bare table for a version's events, with the columns of `events` (its point generated and its texts compressed as there). */
export async function createPartition(client: pg.ClientBase, versionId: number): Promise<void> {
  await createBareTable(client, 'events', versionId, { like: 'INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING COMPRESSION' });
}

/** Attaches a filled partition, building each index it does not have yet. */
export async function attachPartition(client: pg.ClientBase, versionId: number): Promise<void> {
  await attachBareTable(client, 'events', versionId);
}

/** Drops a version's partition, and the partition of the rows its lineage's updates hid. */
export async function dropPartition(client: pg.ClientBase, versionId: number): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${eventPartition(versionId)}, ${hiddenEventPartition(versionId)}`);
}
