// The partitions of `events`, one per dataset version (schema.ts eventPartition). A load fills a
// bare table and attaches it (bare-tables.ts), with its indexes built whole from the whole table: a
// COPY into an indexed table updated five B-trees, six GIN and a GiST index row by row. Attaching
// takes a lock that readers do not wait for; dropping a version drops its table, under a lock that
// they do, for as long as the dropping transaction lasts (a catalog change, not a DELETE and a VACUUM).
import type pg from 'pg';
import { attachBareTable, createBareTable } from './bare-tables.ts';
import { eventPartition } from './schema.ts';

/** A bare table for a version's events, with the columns of `events` (its point generated and its texts compressed as there). */
export async function createPartition(client: pg.ClientBase, versionId: number): Promise<void> {
  await createBareTable(client, 'events', versionId, { like: 'INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING COMPRESSION' });
}

/** Attaches a filled partition, building each index it does not have yet. */
export async function attachPartition(client: pg.ClientBase, versionId: number): Promise<void> {
  await attachBareTable(client, 'events', versionId);
}

export async function dropPartition(client: pg.ClientBase, versionId: number): Promise<void> {
  await client.query(`DROP TABLE IF EXISTS ${eventPartition(versionId)}`);
}
