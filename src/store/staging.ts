// Staging: rows read, validated and typed by the embedded engine's loader into a scratch DuckDB
// file of their own, for an engine that copies them in from there (the PostgreSQL writer). So every
// check, every typed column and every stored entry is written once for both engines. A stage is a
// folder in the temporary folder named after its process; those of killed loads are removed.
import { groupedSql } from './duckdb/identity-table.ts';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbWriter } from './duckdb/writer.ts';
import { OFFLINE_SETTINGS } from './duckdb/offline.ts';
import { FIELD_COLUMN } from './duckdb/render-plan.ts';
import { DEFAULT_LOAD_MEMORY_LIMIT, loadEngineMemoryLimit, processAlive, type WriterOptions } from './writer.ts';

/** The staged events' column of each filter field: what an engine copying them reads. */
export const STAGED_COLUMN = FIELD_COLUMN;

/**
 * The staged events' vessel identities, grouped per version as the loader groups them for its own
 * vessel_identities table (the embedded engine's SQL, over the staged file's typed columns).
 */
export const stagedIdentitiesSql = (versionIds: readonly number[]): string => groupedSql(versionIds);

/** The loader a stage writes with: the embedded engine's own. */
export type StagingWriter = DuckDbWriter;

const STAGE_PREFIX = 'vessel-events-stage-';

export class Stage {
  private constructor(
    readonly dir: string,
    readonly writer: StagingWriter,
    private readonly memoryLimit: string,
  ) {}

  /** A new stage, its loader open (no lock: the stage is this writer's alone). */
  static async open(options: WriterOptions): Promise<Stage> {
    removeStaleStages();
    const dir = mkdtempSync(join(tmpdir(), `${STAGE_PREFIX}${process.pid}-`));
    return new Stage(dir, await DuckDbWriter.open(join(dir, 'staged.duckdb'), { ...options, onWait: undefined }, false), options.memoryLimit ?? DEFAULT_LOAD_MEMORY_LIMIT);
  }

  /** The staged file, read-only, once the loader has committed it; times in UTC. */
  async read(): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
    // The load's share of memory, as its loader had: DuckDB's default of 80 % of the machine let a
    // 10M PostgreSQL load's process reach 8.2 GiB while the staged rows were written out as CSV
    // (docs/performance.md, "The PostgreSQL engine: loads"). What does not fit spills to the stage.
    const instance = await DuckDBInstance.create(join(this.dir, 'staged.duckdb'), {
      access_mode: 'READ_ONLY', ...OFFLINE_SETTINGS,
      memory_limit: loadEngineMemoryLimit(this.memoryLimit), temp_directory: join(this.dir, 'read.tmp'),
    });
    const connection = await instance.connect();
    await connection.run(`SET TimeZone = 'UTC'`);
    return { instance, connection };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Removes the stages killed loads left in the temporary folder (their process is gone). */
function removeStaleStages(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(name.startsWith(STAGE_PREFIX) ? name.slice(STAGE_PREFIX.length).split('-')[0] : NaN);
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}
