// Where each dataset version's rows are on PostgreSQL. A version a full load writes has a partition
// of its own (schema.ts eventPartition), and an update's version shares its base's lineage: the update
// adds its rows marked `from_version` (the version that added them) and marks the rows it replaces
// or removes `to_version` (the first version without them), so that an update writes what it
// changes rather than a copy of every row it keeps (docs/performance.md, "The PostgreSQL engine:
// updates"). The versions sharing one partition are a lineage, named by the partition's version id;
// a row is in version V of a lineage when it was added at or before V and not hidden at or before V.
// What updates change is kept beside the lineage's partition, in its partition of changes, under
// the version id -<partition> (changesPartitionId below): the rows they add, and the rows they hide,
// moved there from the lineage's partition. So an update writes neither the big partition's heap nor
// its indexes, but deletes there, and every version of an updated lineage reads both partitions.
// Versions only ever grow along a lineage (an update's id is past every loaded one), and a dropped
// lineage's latest versions take their rows with them (writer.ts), so no row outlives its versions.
import type { SqlBuilder } from '../sql.ts';

/**
 * The marks of a row in a partition that holds several versions' rows: the version
 * that added it (null: the partition's own) and the first that no longer has it (null: none yet).
 * events, region_events and spatial_events carry them, and include them in the indexes whose scans
 * read no row (index-only), so that a version's rows are told apart in the index.
 */
export const VERSION_MARKS = 'from_version smallint, to_version smallint';

/** The marks added to the tables of rows per version of a database written before them (none is set there). */
export const addVersionMarks = (table: string): string => `ALTER TABLE IF EXISTS ${table} ADD COLUMN IF NOT EXISTS from_version smallint, ADD COLUMN IF NOT EXISTS to_version smallint`;

/**
 * The rows an update adds to a lineage, and those it hides, go to the lineage's partition of
 * changes, `events_changes_v<partition>`, holding version id -<partition>: an insert into a small
 * partition whose indexes stay cached, rather than a new entry in each of the 12 GB partition's 13
 * indexes, most of them read from disk at 10M (50,000 rows in 6.1-8.3 s against 17.6-33.1;
 * docs/performance.md, "The PostgreSQL engine: updates"). Rows a database's updates added to, or
 * marked in place in, the lineage's partition before stay there, and are read the same way.
 */
export const changesPartitionId = (partition: number): number => -Number(partition);
/** changesPartitionId in SQL, of an expression holding a lineage's id. */
export const changesPartitionIdSql = (partition: string): string => `-${partition}`;
/** The lineage of a row of `events` in SQL, from its version_id: its partition's, or its partition of changes'. */
export const lineageOfRowSql = (versionId: string): string => `abs(${versionId})`;
/**
 * The names the partition of changes of lineage `partition` may have: its own, then the one it had
 * when it held the hidden rows alone (a database updated before the added rows went there too).
 */
export const changesEventPartitions = (partition: number): [string, string] => [`events_changes_v${Number(partition)}`, `events_hidden_v${Number(partition)}`];

/** A catalog row's version and the partition holding its rows (its own when `lineageId` is null). */
export interface VersionPlacement {
  versionId: number;
  lineageId: number | null;
}

export class VersionScope {
  private readonly partitions = new Map<number, number>();
  /** The latest live version of each lineage that holds more than one version's rows. */
  private readonly latestOfLayered = new Map<number, number>();

  constructor(private readonly placements: readonly VersionPlacement[]) {
    for (const p of placements) {
      const partition = p.lineageId ?? p.versionId;
      this.partitions.set(p.versionId, partition);
      if (p.lineageId !== null) this.latestOfLayered.set(partition, Math.max(this.latestOfLayered.get(partition) ?? 0, p.versionId));
    }
  }

  /** The partition (a version id) holding a version's rows. */
  partitionOf(versionId: number): number {
    return this.partitions.get(versionId) ?? versionId;
  }

  /** Whether some version's rows share a partition with another's, so that rows carry from_version and to_version. */
  isLayered(versionId: number): boolean {
    return this.latestOfLayered.has(this.partitionOf(versionId));
  }

  /**
   * The condition on a table of rows per version (events, region_events, spatial_events) that holds
   * for the rows of `versionId`: its partition, and where that holds several versions' rows, those
   * added by then and not yet hidden. `alias` prefixes the columns (`e.`).
   */
  rowsOf(b: Pick<SqlBuilder, 'param'>, versionId: number, alias = ''): string {
    const partition = this.partitionOf(versionId);
    // Every version of an updated lineage has rows in its partition of changes (changesPartitionId).
    const own = this.readsChangesPartition(versionId)
      ? `${alias}version_id IN (${b.param(partition)}::smallint, ${b.param(changesPartitionId(partition))}::smallint)`
      : `${alias}version_id = ${b.param(partition)}::smallint`;
    return this.marked(b, versionId, own, alias);
  }

  /**
   * rowsOf as one condition per partition holding the version's rows, for a page to read each
   * partition's (version_id, start_ts, id) index in its order: `version_id IN (P, -P)` is not that
   * index's order, and a page of an updated version sorted every row of its lineage (offset 50,000
   * of the 10M fishing version in 9.1 s against 37 ms; docs/performance.md, "The PostgreSQL engine:
   * updates").
   */
  rowsByPartition(b: Pick<SqlBuilder, 'param'>, versionId: number, alias = ''): string[] {
    if (!this.readsChangesPartition(versionId)) return [this.rowsOf(b, versionId, alias)];
    const partition = this.partitionOf(versionId);
    return [partition, changesPartitionId(partition)].map((id) => this.marked(b, versionId, `${alias}version_id = ${b.param(id)}::smallint`, alias));
  }

  /** Whether some of a version's rows may be in its lineage's partition of changes: those of every version of an updated lineage. */
  readsChangesPartition(versionId: number): boolean {
    return this.latestOfLayered.has(this.partitionOf(versionId));
  }

  /**
   * These versions on the tables kept per version beside the events (region_events, spatial_events,
   * vessel_events and their changes), where a lineage has no partition of changes: a version's rows
   * there are in its lineage's partition alone, under the lineage's id.
   */
  onServingTables(): VersionScope {
    return new ServingTablesScope(this.placements);
  }

  /** `own`, the version's partitions, with the marks that tell its rows there. */
  private marked(b: Pick<SqlBuilder, 'param'>, versionId: number, own: string, alias: string): string {
    const partition = this.partitionOf(versionId);
    const latest = this.latestOfLayered.get(partition);
    if (latest === undefined) return own;
    const v = () => `${b.param(versionId)}::smallint`;
    // The latest version sees every row added and none hidden; the partition's own version, none
    // added by a later one.
    const added = versionId === partition ? `${alias}from_version IS NULL` : versionId >= latest ? undefined : `(${alias}from_version IS NULL OR ${alias}from_version <= ${v()})`;
    const kept = versionId >= latest ? `${alias}to_version IS NULL` : `(${alias}to_version IS NULL OR ${alias}to_version > ${v()})`;
    return `(${[own, ...(added ? [added] : []), kept].join(' AND ')})`;
  }

  /**
   * These versions on a table of the rows their lineages' updates hid (region_hidden and spatial_hidden, change-tables.ts):
   * there a version's condition holds for the rows hidden from it, those hidden at or before it.
   */
  hiddenRows(): VersionScope {
    return new HiddenRowsScope(this.placements);
  }

  /** Whether two of these versions share rows: a row in both is then one stored row, found once by an OR of their conditions. */
  sharesRows(versionIds: readonly number[]): boolean {
    const seen = new Set<number>();
    for (const v of new Set(versionIds)) {
      const partition = this.partitionOf(v);
      if (seen.has(partition)) return true;
      seen.add(partition);
    }
    return false;
  }
}

/** Every version in a partition of its own: the tables written per version (rollups, identities). */
export const OWN_PARTITIONS = new VersionScope([]);

/** A VersionScope on the tables kept per version beside the events (VersionScope.onServingTables). */
class ServingTablesScope extends VersionScope {
  override readsChangesPartition(): boolean {
    return false;
  }
}

/** A VersionScope on the rows hidden from each version (VersionScope.hiddenRows), kept beside the events. */
class HiddenRowsScope extends ServingTablesScope {
  // Every version is read by its hiding mark: a partition no update shares has no row hidden.
  override isLayered(): boolean {
    return true;
  }

  override rowsOf(b: Pick<SqlBuilder, 'param'>, versionId: number, alias = ''): string {
    return `(${alias}version_id = ${b.param(this.partitionOf(versionId))}::smallint AND ${alias}to_version <= ${b.param(versionId)}::smallint)`;
  }
}
