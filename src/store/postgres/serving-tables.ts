// What serving reads beside the events, written by a writer for the versions without: the
// statistics rollups (stats-rollups.ts), the rows by region (region-table.ts), by place
// (spatial-table.ts) and by vessel (vessel-table.ts). Each version's rows of each table are a bare
// table filled and indexed on whichever of the writer's connections is free (task-pool.ts,
// bare-tables.ts), then attached by the writer's own transaction, with a load's events' partitions
// and their indexes (indexTasks); the rows by region are then counted by month (region-months.ts)
// in that transaction.
import type pg from 'pg';
import { attachBareTable, parentIndexStatements, type PartitionedTable } from './bare-tables.ts';
import { listWithLineage, versionsMissingFrom } from './version-tables.ts';
import { writeMissingStatsRollups } from './stats-rollups.ts';
import { fillRegionTable } from './region-table.ts';
import { writeMissingRegionMonths } from './region-months.ts';
import { fillSpatialTable } from './spatial-table.ts';
import { fillVesselTable } from './vessel-table.ts';
import { runTasks, type PoolTask } from './task-pool.ts';
import { changesPartitionId } from './lineage.ts';
import { changesPartitionOf } from './partitions.ts';

/**
 * Seconds per million rows of each task, from a 10M load's statements on one connection (docs/
 * performance.md, "The PostgreSQL engine: loads", 2026-12-02): only their order matters, the largest
 * taken first.
 */
const WEIGHT_PER_ROW = { region: 31, place: 15, vessel: 15, rollups: 6, eventIndex: 2 } as const;

/** The versions whose rows each table took, as the writer vacuums them once committed. */
export interface ServingTablesWritten {
  rollups: number;
  regions: number[];
  places: number[];
  vessels: number[];
  /** The lineage partitions whose rows by region were counted by month (region-months.ts). */
  regionMonths: number[];
}

const TABLES = [
  { parent: 'region_events', list: 'region_versions', weight: WEIGHT_PER_ROW.region, fill: (c: pg.ClientBase, v: number) => fillRegionTable(c, v) },
  { parent: 'spatial_events', list: 'spatial_versions', weight: WEIGHT_PER_ROW.place, fill: (c: pg.ClientBase, v: number) => fillSpatialTable(c, v) },
  { parent: 'vessel_events', list: 'vessel_versions', weight: WEIGHT_PER_ROW.vessel, fill: (c: pg.ClientBase, v: number, rows: number, rangeRows?: number) => fillVesselTable(c, v, rows, rangeRows) },
] as const;

/**
 * Writes the serving tables of every version that lacks them, and `extra` tasks beside (a load's
 * events' indexes), on `connections` at once, the writer's first: every task's table is read by
 * no reader until the writer's transaction attaches it. `vesselRangeRows`: the rows of a range of
 * the rows by vessel (the tests make it small).
 */
export async function writeMissingServingTables(connections: readonly pg.ClientBase[], extra: readonly PoolTask[] = [], vesselRangeRows?: number): Promise<ServingTablesWritten> {
  const writer = connections[0]!;
  const rowCounts = new Map((await writer.query<{ version_id: number; row_count: string }>('SELECT version_id, row_count FROM dataset_versions')).rows.map((r) => [r.version_id, Number(r.row_count)]));
  const rowsOf = (v: number) => rowCounts.get(v) ?? 0;
  // One after another: a pg client runs one query at a time (pg deprecates queuing more).
  const missing = [];
  for (const t of TABLES) missing.push({ ...t, versions: await versionsMissingFrom(writer, t.list) });
  const rollupVersions = await versionsMissingFrom(writer, 'stats_month_versions');
  const movedBack = await moveChangedRowsBack(writer, [...missing.flatMap((t) => t.versions), ...rollupVersions]);
  let rollups = 0;
  const tasks: PoolTask[] = [...extra];
  // The rollups' rows land in tables readers see: in the writer's transaction.
  if (rollupVersions.length > 0) {
    tasks.push({ name: 'statistics rollups', weight: WEIGHT_PER_ROW.rollups * rollupVersions.reduce((n, v) => n + rowsOf(v), 0), writerOnly: true, run: async (c) => { rollups = await writeMissingStatsRollups(c); } });
  }
  for (const table of missing) {
    for (const v of table.versions) {
      tasks.push({
        name: `${table.parent} of version ${v}`,
        weight: table.weight * rowsOf(v),
        // Rows moved back by the writer's open transaction are seen by its connection alone.
        writerOnly: movedBack.has(v),
        run: async (c) => {
          await table.fill(c, v, rowsOf(v), vesselRangeRows);
          for (const statement of await parentIndexStatements(c, table.parent, v)) await c.query(statement);
        },
      });
    }
  }
  await runTasks(connections, tasks);
  for (const table of missing) {
    for (const v of table.versions) {
      await attachBareTable(writer, table.parent, v);
      await listWithLineage(writer, table.list, v);
    }
  }
  const [regions, places, vessels] = missing.map((t) => t.versions) as [number[], number[], number[]];
  const regionMonths = await writeMissingRegionMonths(writer, regions);
  return { rollups, regions, places, vessels, regionMonths };
}

/**
 * Moves the rows that updates added to or hid from the lineages of `versions` (their partitions of
 * changes) into the lineages' own partitions, marked as they are, where a table's fill reads every
 * row of a lineage (lineage.ts): only a database whose updates ran before one of these tables
 * existed has such a version to fill. Resolves to the versions whose rows moved.
 */
async function moveChangedRowsBack(writer: pg.ClientBase, versions: readonly number[]): Promise<Set<number>> {
  const moved = new Set<number>();
  for (const v of new Set(versions)) {
    if (!(await changesPartitionOf(writer, v))) continue;
    await writer.query('UPDATE events SET version_id = $1 WHERE version_id = $2', [v, changesPartitionId(v)]);
    moved.add(v);
  }
  return moved;
}

/** The tasks that build each index of `parent` on the bare tables of `versions` (rows of each), one index a task. */
export async function indexTasks(c: pg.ClientBase, parent: PartitionedTable, versions: readonly { versionId: number; rows: number }[]): Promise<PoolTask[]> {
  const tasks: PoolTask[] = [];
  for (const { versionId, rows } of versions) {
    for (const statement of await parentIndexStatements(c, parent, versionId)) {
      tasks.push({ name: `an index of ${parent} of version ${versionId}`, weight: WEIGHT_PER_ROW.eventIndex * rows, run: async (on) => { await on.query(statement); } });
    }
  }
  return tasks;
}
