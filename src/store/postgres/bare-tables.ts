// A load's new partitions, written as bare tables before they are attached. A load's work past the
// copy (the events' indexes, the rows by region, by place and by vessel) is a set of independent
// statements, which the writer's one connection ran one after another on one core while the
// other stood idle (docs/performance.md, "The PostgreSQL engine: loads"). So a load copies its
// events into bare tables on a second connection and commits them, and both connections then
// build the rest from those committed tables at once; the writer's own transaction attaches every
// table at its end. A bare table is never attached to a table that readers query, so no reader
// sees it; a load that dies leaves its committed bare tables, which the next writer removes before
// anything else (dropLeftoverBareTables), and a load that fails removes its own.
import type pg from 'pg';

/** The partitioned tables whose partitions a writer writes bare, one per dataset version, each named `<table>_v<version id>`. */
export const PARTITIONED_TABLES = ['events', 'region_events', 'spatial_events', 'vessel_events'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

export const partitionName = (parent: PartitionedTable, versionId: number): string => `${parent}_v${Number(versionId)}`;

/** The constraint a bare table carries so that attaching it need not read it to check its rows are the version's. */
const versionCheck = (parent: PartitionedTable, versionId: number) => `${partitionName(parent, versionId)}_version`;

/**
 * Creates the bare table of a version's rows of `parent`: its columns (with what `like` adds), the
 * constraint that its rows are the version's, and `storage` parameters if any.
 */
export async function createBareTable(c: pg.ClientBase, parent: PartitionedTable, versionId: number, options: { like?: string; storage?: string } = {}): Promise<void> {
  const name = partitionName(parent, versionId);
  await c.query(
    `CREATE TABLE ${name} (LIKE ${parent}${options.like ? ` ${options.like}` : ''}, CONSTRAINT ${versionCheck(parent, versionId)} CHECK (version_id = ${Number(versionId)}))${options.storage ? ` WITH (${options.storage})` : ''}`,
  );
}

/**
 * The statements that build, on a version's bare table, each index `parent` has, as PostgreSQL
 * defines it (the same columns, methods, collations and included columns), so that attaching the
 * table takes them as its partition's indexes rather than building them again.
 */
export async function parentIndexStatements(c: pg.ClientBase, parent: PartitionedTable, versionId: number): Promise<string[]> {
  const rows = (await c.query<{ def: string }>('SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = $1::regclass ORDER BY indexrelid', [parent])).rows;
  return rows.map(({ def }) => {
    // "CREATE [UNIQUE] INDEX name ON ONLY [schema.]parent USING ...": unnamed on the partition, as
    // PostgreSQL names the indexes it builds when it attaches one.
    const statement = def.replace(/^CREATE (UNIQUE )?INDEX \S+ ON ONLY \S+ /, (_, unique: string | undefined) => `CREATE ${unique ?? ''}INDEX ON ${partitionName(parent, versionId)} `);
    if (statement === def) throw new Error(`unexpected index definition of ${parent}: ${def}`);
    return statement;
  });
}

/** Attaches a version's bare table to `parent` (its indexes built, its rows checked by its constraint), then drops the constraint, which the partition's own bound now states. */
export async function attachBareTable(c: pg.ClientBase, parent: PartitionedTable, versionId: number): Promise<void> {
  const name = partitionName(parent, versionId);
  await c.query(`ALTER TABLE ${parent} ATTACH PARTITION ${name} FOR VALUES IN (${Number(versionId)})`);
  await c.query(`ALTER TABLE ${name} DROP CONSTRAINT ${versionCheck(parent, versionId)}`);
}

/**
 * Drops every table named as a partition of the tables above that is not one: what a load that died
 * left, committed on its second connection. Run by a writer holding the writer lock, so no load is
 * writing such tables; resolves to their names.
 */
export async function dropLeftoverBareTables(c: pg.ClientBase): Promise<string[]> {
  const names = (await c.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class
      WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r' AND NOT relispartition
        AND relname ~ $1 ORDER BY 1`,
    [`^(${PARTITIONED_TABLES.join('|')})_v[0-9]+$`],
  )).rows.map((r) => r.name);
  for (const name of names) await c.query(`DROP TABLE ${name}`);
  return names;
}
