// Where each dataset version's rows are on PostgreSQL. A version a full load writes has a partition
// of its own (schema.ts eventPartition), and an update's version shares its base's: the update adds
// its rows there marked `from_version` (the version that added them) and marks the rows it replaces
// or removes `to_version` (the first version without them), so that an update writes what it
// changes rather than a copy of every row it keeps (docs/performance.md, "The PostgreSQL engine:
// updates"). The versions sharing one partition are a lineage, named by the partition's version id;
// a row is in version V of a lineage when it was added at or before V and not hidden at or before V.
// The rows hidden from the lineage's latest version are kept apart, under the version id
// -<partition> (hiddenPartitionId below), so that its partition holds the latest's alone.
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
 * The rows an update hides from a lineage leave its partition for one of their own,
 * `events_hidden_v<partition>`, holding version id -<partition>: the mark of a hidden row is then a
 * delete from the lineage's partition and an insert into a small one, whose indexes stay cached,
 * rather than a new row version with an entry in each of the 11 GB partition's 14 indexes, most of
 * them read from disk at 10M (docs/performance.md, "The PostgreSQL engine: updates"). Readers of the
 * lineage's latest version read its partition alone, as before; an earlier version's rows are in
 * both. Rows a database's updates marked in place before stay there, and are read the same way.
 */
export const hiddenPartitionId = (partition: number): number => -Number(partition);
/** hiddenPartitionId in SQL, of an expression holding a lineage's id. */
export const hiddenPartitionIdSql = (partition: string): string => `-${partition}`;
/** The lineage of a row of `events` in SQL, from its version_id: its partition's, or its hidden rows'. */
export const lineageOfRowSql = (versionId: string): string => `abs(${versionId})`;
export const hiddenEventPartition = (partition: number): string => `events_hidden_v${Number(partition)}`;

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
    // The rows hidden from the latest version are in a partition of their own (hiddenPartitionId):
    // an earlier version's rows are in both.
    const own = this.readsHiddenPartition(versionId)
      ? `${alias}version_id IN (${b.param(partition)}::smallint, ${b.param(hiddenPartitionId(partition))}::smallint)`
      : `${alias}version_id = ${b.param(partition)}::smallint`;
    return this.marked(b, versionId, own, alias);
  }

  /**
   * rowsOf as one condition per partition holding the version's rows, for a page to read each
   * partition's (version_id, start_ts, id) index in its order: `version_id IN (P, -P)` is not that
   * index's order, and an earlier version's page sorted every row of its lineage (offset 50,000 of
   * the 10M fishing version in 9.1 s against 37 ms; docs/performance.md, "The PostgreSQL engine:
   * updates").
   */
  rowsByPartition(b: Pick<SqlBuilder, 'param'>, versionId: number, alias = ''): string[] {
    if (!this.readsHiddenPartition(versionId)) return [this.rowsOf(b, versionId, alias)];
    const partition = this.partitionOf(versionId);
    return [partition, hiddenPartitionId(partition)].map((id) => this.marked(b, versionId, `${alias}version_id = ${b.param(id)}::smallint`, alias));
  }

  /** Whether some of a version's rows are among those its lineage's later updates hid (lineage's partition of hidden rows). */
  readsHiddenPartition(versionId: number): boolean {
    const latest = this.latestOfLayered.get(this.partitionOf(versionId));
    return latest !== undefined && versionId < latest;
  }

  /**
   * These versions on the tables kept per version beside the events (region_events, spatial_events,
   * vessel_events and their changes), where the rows an update hides stay in the lineage's own
   * partition: a version's rows there are in that partition alone.
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
  override readsHiddenPartition(): boolean {
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
