// The rows an update adds to and hides from a table kept per version beside the events on
// PostgreSQL (region_events, region-table.ts; spatial_events, spatial-table.ts; vessel_events,
// vessel-table.ts), kept beside that table in two of its own columns and index, a partition per lineage (lineage.ts) each: `_added`
// holds the rows an update adds, marked from_version as there, and `_hidden` the rows it hides (of
// either table), as they are there, their to_version the version that hid them. A version's rows
// are then its rows of both tables less those hidden from it. Both stay small beside the table
// itself (7 GB of region_events and 1 GB of spatial_events for the 10M catalogue's fishing
// version), so an update writes into cached pages: hiding 160,000 rows by region by marking them
// in region_events took 109 of an update's 194 s, adding them 15 to 54 s cold, against 1 to 3 s
// each here; marking 41,000 rows by place took 2.2 to 8.8 s (docs/performance.md, "The PostgreSQL
// engine: updates"). `compact` folds them into the table (fold below), so that reads of a lineage
// many updates deep stop paying for them.
import type pg from 'pg';
import type { Condition } from '../../query/plan.ts';
import { SqlBuilder } from '../sql.ts';
import type { VersionScope } from './lineage.ts';
import { REGION_TABLE } from './region-table.ts';
import { SPATIAL_TABLE } from './spatial-table.ts';
import { VESSEL_TABLE } from './vessel-table.ts';

/** A table kept per version beside the events, as its change tables take it. */
export interface ServingTable {
  readonly table: 'region_events' | 'spatial_events' | 'vessel_events';
  /** Its columns with their types, in order, as its CREATE TABLE has them. */
  readonly columns: string;
  /** Its column names, in the same order. */
  readonly names: readonly string[];
  /** Its index: the columns in parentheses, then what it includes. */
  readonly index: string;
  /** The columns that tell its rows of a partition apart, in its index's order, after version_id. */
  readonly key: readonly string[];
  /** Its rows of the events of `source` (a table with the events' columns) that meet `where`, in its column order. */
  rowsOf(source: string, where: string): string;
  /** The storage parameters of its partitions, which those of its change tables take too. */
  readonly storage?: string;
  /**
   * What a hidden row holds in place of a column that nothing reads there: a hidden row is only
   * matched by its key and marks, and counted (vessel_events' entries, some 1 KB a row).
   */
  readonly hiddenAs?: Readonly<Record<string, string>>;
}

/** The `_added` and `_hidden` tables of one table kept per version. */
export class ChangeTables {
  readonly added: string;
  readonly hidden: string;
  /** The table kept per version itself. */
  readonly table: ServingTable['table'];
  /** The table listing the versions it holds (version-tables.ts). */
  readonly versionList: string;

  constructor(private readonly of: ServingTable) {
    const stem = of.table.replace(/_events$/, '');
    this.added = `${stem}_added`;
    this.hidden = `${stem}_hidden`;
    this.table = of.table;
    this.versionList = `${stem}_versions`;
  }

  /** The statements that create both tables (a partition per lineage is created by its first update). */
  get create(): string[] {
    return [this.added, this.hidden].flatMap((table) => [
      `CREATE TABLE IF NOT EXISTS ${table} (${this.of.columns}) PARTITION BY LIST (version_id)`,
      `CREATE INDEX IF NOT EXISTS ${table}_rows ON ${table} ${this.of.index}`,
    ]);
  }

  /** Both tables' partitions of a lineage (the version id of its partition). */
  partitions(lineageId: number): string[] {
    return [this.added, this.hidden].map((table) => `${table}_v${Number(lineageId)}`);
  }

  /** Inserts `select` into `table`'s partition of lineage `lineageId`, created if missing. */
  private async insert(c: pg.ClientBase, table: string, lineageId: number, select: string, params: unknown[]): Promise<void> {
    const storage = this.of.storage ? ` WITH (${this.of.storage})` : '';
    await c.query(`CREATE TABLE IF NOT EXISTS ${table}_v${Number(lineageId)} PARTITION OF ${table} FOR VALUES IN (${Number(lineageId)})${storage}`);
    // As they come, not sorted in the index's order first: these partitions' indexes stay in the
    // page cache, where an insert's place in them costs little. An update's 405,000 rows by region
    // inserted into a partition holding one such update, in turns (psql, 2026-12-03 11:24): 2.7, 3.7
    // and 2.7 s, against 4.5, 4.8 and 4.7 s sorted; in the updates themselves, on a 10M cluster
    // one to six updates deep, the statement took 1.5-2.4 s either way (docs/performance.md).
    await c.query(`INSERT INTO ${table} SELECT * FROM (${select}) r`, params);
  }

  /** Writes the rows of the rows of `source` (with the events' columns) that meet `where`, added by an update to lineage `lineageId`. */
  async add(c: pg.ClientBase, lineageId: number, source: string, where: string, params: unknown[]): Promise<void> {
    await this.insert(c, this.added, lineageId, this.of.rowsOf(source, where), params);
  }

  /**
   * Records that version `hiding` no longer has the rows of the rows of `source` that meet `where`
   * (its base's rows it replaces or removes, all of lineage `lineageId`).
   */
  async hide(c: pg.ClientBase, lineageId: number, hiding: number, source: string, where: string, params: unknown[]): Promise<void> {
    const columns = this.of.names.map((n) => (n === 'to_version' ? `$${params.length + 1}::smallint` : this.of.hiddenAs?.[n] ?? n)).join(', ');
    await this.insert(c, this.hidden, lineageId, `SELECT ${columns} FROM (${this.of.rowsOf(source, where)}) h`, [...params, hiding]);
  }

  /**
   * The condition on `table` (the table itself or its `_added`, not aliased) for the rows of
   * `versionId`: those it holds for it, less those hidden from it when its lineage was updated. A
   * hidden row is told from the row that replaced it, which may have its key, by the version that
   * added it.
   */
  rowsHeld(b: Pick<SqlBuilder, 'param'>, scope: VersionScope, updatedLineages: ReadonlySet<number>, table: string, versionId: number): string {
    const rows = scope.rowsOf(b, versionId);
    const partition = scope.partitionOf(versionId);
    if (!updatedLineages.has(partition)) return rows;
    const sameKey = this.of.key.map((k) => `h.${k} = ${table}.${k}`).join(' AND ');
    return `${rows} AND NOT EXISTS (SELECT 1 FROM ${this.hidden} h WHERE h.version_id = ${b.param(partition)}::smallint AND ${sameKey}
      AND h.from_version IS NOT DISTINCT FROM ${table}.from_version AND h.to_version <= ${b.param(versionId)}::smallint)`;
  }

  /**
   * A total on the table of the rows that meet `conditions`, rendered by `where` for a scope of
   * versions; for a version whose lineage was updated, plus the rows added and less those hidden:
   * three index-only counts (the hidden rows' condition inside one count made it a lookup per row).
   * A compile.ts CompiledSql, named by its shape: compile.ts reaches this module through schema.ts.
   * `ownCount`: the count of the table's own rows meeting `rows()` (the condition, rendered at its
   * first call: a parameter in no statement has no type), where something else counts them too
   * (region-months.ts) or counts them otherwise (spatial-queries.ts, a polygon's cells apart).
   */
  countSql(conditions: readonly Condition[], scope: VersionScope, updatedLineages: ReadonlySet<number>, where: (b: SqlBuilder, scope: VersionScope) => string, ownCount?: (b: SqlBuilder, rows: () => string) => string): { sql: string; params: unknown[] } {
    const b = new SqlBuilder();
    let rendered: string | undefined;
    const rows = () => (rendered ??= where(b, scope));
    const own = ownCount ? ownCount(b, rows) : `(SELECT count(*) FROM ${this.of.table} WHERE ${rows()})`;
    if (!readsUpdates(conditions, scope, updatedLineages)) return { sql: `SELECT (${own})::float8`, params: b.params };
    const hidden = where(b, scope.hiddenRows());
    return {
      sql: `SELECT (${own} + (SELECT count(*) FROM ${this.added} WHERE ${rows()}) - (SELECT count(*) FROM ${this.hidden} WHERE ${hidden}))::float8`,
      params: b.params,
    };
  }

  /**
   * A total on the table of the rows of each of `versions` that meet `where` (the other conditions,
   * rendered once), summed: a count per version, each an index-only scan of one partition, and for
   * a version whose lineage was updated its rows added and less those hidden. One count of an OR of
   * the versions read every partition's index once per version, then the rows' heap pages: a
   * vessel history's total at 10M in 5.2-6.1 ms p50, 2.4-2.8 so (the store, 40 vessels a round,
   * 2026-11-29; docs/performance.md, "The PostgreSQL engine: a vessel's history").
   */
  countPerVersionSql(b: SqlBuilder, versions: readonly number[], scope: VersionScope, updatedLineages: ReadonlySet<number>, where: string): string {
    const and = where ? ` AND ${where}` : '';
    const counts = versions.flatMap((v) => {
      const own = `(SELECT count(*) FROM ${this.of.table} WHERE ${scope.rowsOf(b, v)}${and})`;
      if (!updatedLineages.has(scope.partitionOf(v))) return [own];
      return [own, `(SELECT count(*) FROM ${this.added} WHERE ${scope.rowsOf(b, v)}${and})`, `-(SELECT count(*) FROM ${this.hidden} WHERE ${scope.hiddenRows().rowsOf(b, v)}${and})`];
    });
    return `SELECT (${counts.join(' + ')})::float8`;
  }

  /** The lineages whose updates wrote here (a partition each; none in a database written before these tables). */
  async readUpdatedLineages(c: pg.ClientBase): Promise<Set<number>> {
    // Names from pg_class as the snapshot sees it: `inhrelid::regclass` looks the name up in the
    // catalog as it is now, a bare number for a partition a compaction dropped since.
    const rows = (await c.query<{ name: string }>(`SELECT p.relname AS name FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhrelid WHERE i.inhparent IN (to_regclass($1), to_regclass($2))`, [this.added, this.hidden])).rows;
    return new Set(rows.map((r) => Number(/_v(\d+)$/.exec(r.name)![1])));
  }

  /**
   * Moves lineage `lineageId`'s rows added and hidden into the table itself, marked there as the
   * events are (lineage.ts): the rows added inserted, those hidden given their to_version. Every
   * version holds the same rows after as before, read from the table alone once the change
   * partitions are dropped (the caller drops them last, dropPartitions below), its page no longer
   * hashing a set difference over every row: polygons around fishing over the 10M catalogue twelve
   * updates deep, 287 ms p50, then 164-167 (docs/performance.md, "The PostgreSQL engine:
   * compaction"). Returns the rows each held and the versions that wrote them, or undefined when
   * the table has no partition for the lineage (a version loaded before the table, its rows not yet
   * written by `migrate`).
   */
  async fold(c: pg.ClientBase, lineageId: number): Promise<{ added: number; hidden: number; versions: number[] } | undefined> {
    const [added, hidden] = this.partitions(lineageId) as [string, string];
    const exists = async (table: string) => (await c.query('SELECT to_regclass($1) IS NOT NULL AS found', [table])).rows[0].found as boolean;
    if (!(await exists(`${this.of.table}_v${Number(lineageId)}`))) return undefined;
    const names = this.of.names.join(', ');
    let addedRows = 0;
    let hiddenRows = 0;
    const versions: string[] = [];
    if (await exists(added)) {
      versions.push(`SELECT from_version FROM ${added}`);
      addedRows = (await c.query(`INSERT INTO ${this.of.table} (${names}) SELECT ${names} FROM ${added} ORDER BY ${this.of.key.join(', ')}`)).rowCount ?? 0;
    }
    if (await exists(hidden)) {
      versions.push(`SELECT to_version FROM ${hidden}`);
      hiddenRows = Number((await c.query(`SELECT count(*)::float8 AS n FROM ${hidden}`)).rows[0].n);
      const sameKey = this.of.key.map((k) => `t.${k} = h.${k}`).join(' AND ');
      const marked = (await c.query(
        `UPDATE ${this.of.table} t SET to_version = h.to_version FROM ${hidden} h
          WHERE t.version_id = $1::smallint AND ${sameKey} AND t.from_version IS NOT DISTINCT FROM h.from_version AND t.to_version IS NULL`,
        [lineageId],
      )).rowCount ?? 0;
      // Each hidden row is one row of the table or of the rows added, hidden once: a mark missed
      // would show a row its version no longer has.
      if (marked !== hiddenRows) throw new Error(`${hidden} holds ${hiddenRows} rows, of which ${marked} were found in ${this.of.table}; nothing was changed`);
    }
    const wrote = versions.length ? (await c.query<{ v: number }>(`SELECT v FROM (${versions.join(' UNION ')}) w(v) ORDER BY 1`)).rows.map((r) => r.v) : [];
    return { added: addedRows, hidden: hiddenRows, versions: wrote };
  }

  /** Drops a lineage's partitions (the whole lineage is dropped). */
  async drop(c: pg.ClientBase, lineageId: number): Promise<void> {
    for (const partition of this.partitions(lineageId)) await c.query(`DROP TABLE IF EXISTS ${partition}`);
  }

  /** Takes back what the versions of lineage `lineageId` after `latest` added and hid (they are dropped). */
  async dropAfter(c: pg.ClientBase, lineageId: number, latest: number): Promise<void> {
    await c.query(`DELETE FROM ${this.added} WHERE version_id = $1 AND from_version > $2`, [lineageId, latest]);
    await c.query(`DELETE FROM ${this.hidden} WHERE version_id = $1 AND to_version > $2`, [lineageId, latest]);
  }
}

/** How long a DROP of change partitions may wait for readers at a time, readers queued behind it waiting as long. */
const DROP_WAIT = '2s';

/**
 * Drops change partitions in a writer's open transaction, once everything else it writes is done:
 * a partition's DROP locks its parent table, which every read of an updated lineage reads, until
 * the commit. It waits for readers at most DROP_WAIT at a time, so that readers queued behind it
 * wait no longer, and tries again a second later, `attempts` times in all.
 */
export async function dropPartitions(c: pg.ClientBase, partitions: readonly string[], attempts = 30): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await c.query('SAVEPOINT dropping_partitions');
    try {
      await c.query(`SET LOCAL lock_timeout = '${DROP_WAIT}'`);
      for (const partition of partitions) await c.query(`DROP TABLE IF EXISTS ${partition}`);
      await c.query('SET LOCAL lock_timeout = 0');
      await c.query('RELEASE SAVEPOINT dropping_partitions');
      return;
    } catch (e) {
      await c.query('ROLLBACK TO SAVEPOINT dropping_partitions');
      // 55P03: lock_not_available, the readers still there after DROP_WAIT.
      if ((e as { code?: string }).code !== '55P03' || attempt >= attempts) throw e;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

export const REGION_CHANGES = new ChangeTables(REGION_TABLE);
export const SPATIAL_CHANGES = new ChangeTables(SPATIAL_TABLE);
export const VESSEL_CHANGES = new ChangeTables(VESSEL_TABLE);
export const CHANGE_TABLES = [REGION_CHANGES, SPATIAL_CHANGES, VESSEL_CHANGES];

/**
 * Whether a query with these conditions reads a version of a lineage in `updatedLineages`: those of
 * its versions' condition, or any when it has none.
 */
export function readsUpdates(conditions: readonly Condition[], scope: VersionScope, updatedLineages: ReadonlySet<number>): boolean {
  const versions = conditions.find((c) => c.is === 'oneOf' && c.field === 'version');
  if (versions?.is !== 'oneOf') return updatedLineages.size > 0;
  return versions.values.some((v) => updatedLineages.has(scope.partitionOf(Number(v))));
}
