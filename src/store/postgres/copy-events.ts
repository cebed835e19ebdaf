// From a staged DuckDB file to PostgreSQL. A PostgreSQL load stages, validates and types its rows
// with the embedded engine's loader (src/store/staging.ts), so every check, every typed column and
// every stored entry is written once for both engines; the staged events then travel to PostgreSQL as
// CSV through COPY, a slice of rows at a time so the disk holds two slices of text at most (the
// next written while this one is copied).
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { createReadStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { REGION_MEMBERS } from '../../domain/regions.ts';
import { EVENT_KINDS } from '../../domain/kinds.ts';
import { type Stage, STAGED_COLUMN, stagedIdentitiesSql } from '../staging.ts';
import { EVENT_COLUMNS, eventPartition } from './schema.ts';
import { RECORD_COLUMNS } from './record-columns.ts';
import { CELL_KEY_SQL } from '../../geo/grid.ts';
import { sqlText } from '../sql.ts';

/** Rows per CSV slice at most (about 0.6 GB of text). */
const SLICE_ROWS = 250_000;

/**
 * Rows per slice of a version of `rows` rows: a few slices at least, so that PostgreSQL copies one
 * while DuckDB writes the next even for an update's 50,000 rows, whose one slice DuckDB wrote in 1.1
 * s before PostgreSQL's 1.9 s of COPY could start (docs/performance.md, "The PostgreSQL engine:
 * updates").
 */
const sliceRows = (rows: number) => Math.min(SLICE_ROWS, Math.max(MIN_SLICE_ROWS, Math.ceil(rows / 5)));
const MIN_SLICE_ROWS = 10_000;

/** A DuckDB list as PostgreSQL's array literal: every element quoted, `"` and `\` escaped. */
const pgArray = (list: string) => `'{' || array_to_string(list_transform(${list}, x -> '"' || replace(replace(x, '\\', '\\\\'), '"', '\\"') || '"'), ',') || '}'`;

const timestampText = (ts: string) => `strftime(${ts}, '%Y-%m-%d %H:%M:%S.%f')`;

/** A staged STRUCT or LIST column as the JSON text PostgreSQL's json columns take (NULL stays NULL). */
const json = (column: string) => `to_json(${column})::VARCHAR`;

/** Each PostgreSQL column (schema.ts) from the staged DuckDB events. */
const SOURCE: Record<string, string> = {
  id: 'id',
  kind: 'kind',
  vessel_id: 'vessel_id',
  start_ts: timestampText('start_ts'),
  end_ts: timestampText('end_ts'),
  lat: 'lat',
  lon: 'lon',
  ...Object.fromEntries(REGION_MEMBERS.map((m) => [m.column, pgArray(m.column)])),
  vessel_flag: STAGED_COLUMN.vesselFlag,
  vessel_type: STAGED_COLUMN.vesselType,
  vessel_gear_type: 'vessel_gear_type',
  next_port_id: STAGED_COLUMN.nextPort,
  next_port_name: 'next_port.name',
  next_port_flag: 'next_port.flag',
  port_visit_confidence: STAGED_COLUMN.portVisitConfidence,
  port_visit_anchorage_id: STAGED_COLUMN.portVisitAnchorage,
  encounter_type: STAGED_COLUMN.encounterType,
  gap_intentional_disabling: STAGED_COLUMN.gapIntentionalDisabling,
  // The rest of the stored record (record-columns.ts): each staged column of the same name, the
  // JSON ones as text, and the kind's block from the staged column named after the kind.
  ...Object.fromEntries(RECORD_COLUMNS.map(([name, type]) => [name, name === 'info' ? `CASE kind ${EVENT_KINDS.map((k) => `WHEN '${k}' THEN ${json(k)}`).join(' ')} END` : type === 'json' ? json(name) : name])),
  entry: 'entry',
};

/** A dataset version as staged: what PostgreSQL's dataset_versions takes, timestamps as text. */
export interface StagedVersion {
  versionId: number;
  datasetId: string;
  kind: string;
  version: string;
  rowCount: number;
  lastUpdated: string | null;
  source: string | null;
  longestMs: number | null;
  earliestOpenStart: string | null;
}

/** A staged DuckDB file, open for reading until closed. */
export class StagedFile {
  private constructor(
    private readonly path: string,
    private readonly instance: DuckDBInstance,
    private readonly c: DuckDBConnection,
  ) {}

  static async open(stage: Stage): Promise<StagedFile> {
    const { instance, connection } = await stage.read();
    return new StagedFile(join(stage.dir, 'staged'), instance, connection);
  }

  async versions(): Promise<StagedVersion[]> {
    const rows = (await this.c.runAndReadAll(
      `SELECT version_id::INTEGER, dataset_id, kind, version, row_count::DOUBLE, ${timestampText('last_updated')}, source, longest_ms::DOUBLE, ${timestampText('earliest_open_start')}
         FROM dataset_versions ORDER BY version_id`,
    )).getRowsJS();
    return rows.map((r) => ({
      versionId: r[0] as number, datasetId: r[1] as string, kind: r[2] as string, version: r[3] as string, rowCount: r[4] as number,
      lastUpdated: r[5] as string | null, source: r[6] as string | null, longestMs: r[7] as number | null, earliestOpenStart: r[8] as string | null,
    }));
  }

  /** Every (staged version id, grid cell key) of the staged events' positions (event-cells.ts). */
  async cells(): Promise<[number, number][]> {
    return (await this.c.runAndReadAll(`SELECT DISTINCT version_id::INTEGER, ${CELL_KEY_SQL} FROM events`)).getRowsJS() as [number, number][];
  }

  /**
   * The vessel identities of the staged events, grouped per staged version as vessel_identities
   * holds them (identity-table.ts): DuckDB groups its typed columns in seconds, where PostgreSQL
   * parsed every row's record JSON (more than 4 minutes for the 10M catalogue). Rows: version,
   * vessel id, ssvid, name, flag, type, gear type, first seen, last seen (as text), events.
   */
  async identities(): Promise<unknown[][]> {
    const versions = (await this.versions()).map((v) => v.versionId);
    if (versions.length === 0) return [];
    return (await this.c.runAndReadAll(
      `SELECT version_id::INTEGER, c1, c2, c3, c4, c5, c6, ${timestampText('min(c7)')}, ${timestampText('max(c8)')}, sum(c9)::DOUBLE
         FROM (${stagedIdentitiesSql(versions)}) g(version_id, c1, c2, c3, c4, c5, c6, c7, c8, c9) GROUP BY ALL`,
    )).getRowsJS();
  }

  /** Every (regions member, region id) the staged events carry. */
  async regionIds(): Promise<[string, string][]> {
    return (await this.c.runAndReadAll('SELECT member, id FROM region_ids')).getRowsJS() as [string, string][];
  }

  /**
   * Copies every staged event into the partition table of its PostgreSQL version (schema.ts
   * eventPartition; on the client's open transaction), each staged version id replaced by its
   * PostgreSQL one. A version in `shared` (an update's) goes to the partition of its lineage
   * instead, its rows marked as added by it (lineage.ts). `into` names a table with the events'
   * columns to copy them to instead of their partitions (an update's working table). `onRows` is
   * told the running count.
   */
  async copyEvents(client: pg.ClientBase, versionIds: ReadonlyMap<number, number>, options: { onRows?: (n: number) => void; shared?: ReadonlyMap<number, number>; into?: string } = {}): Promise<number> {
    const { onRows, shared = new Map<number, number>(), into } = options;
    // DuckDB writes the next slice while PostgreSQL reads this one: the two ran one after the
    // other, each on one core (docs/performance.md, "The PostgreSQL engine: loads").
    const slices: { partition: number; marked: boolean; sql: string }[] = [];
    for (const [staged, id] of versionIds) {
      const partition = shared.get(id) ?? id;
      const marked = shared.has(id);
      const select = [...EVENT_COLUMNS.map(([name]) => (name === 'version_id' ? String(Number(partition)) : SOURCE[name]!)), ...(marked ? [String(Number(id))] : [])].join(', ');
      // The staged rows are sorted by version: each version's are one run of row ids.
      const [first, last] = (await this.c.runAndReadAll(`SELECT min(rowid)::DOUBLE, max(rowid)::DOUBLE FROM events WHERE version_id = ${Number(staged)}`)).getRowsJS()[0] as [number | null, number | null];
      if (first === null || last === null) continue;
      const size = sliceRows(last - first + 1);
      for (let from = first; from <= last; from += size) {
        slices.push({ partition, marked, sql: `SELECT ${select} FROM events WHERE version_id = ${Number(staged)} AND rowid >= ${from} AND rowid < ${from + size}` });
      }
    }
    const files = [`${this.path}.slice-0.csv`, `${this.path}.slice-1.csv`];
    const write = (i: number) => this.c.run(`COPY (${slices[i]!.sql}) TO ${sqlText(files[i % 2]!)} (FORMAT csv, HEADER false)`);
    let copied = 0;
    let written = slices.length > 0 ? write(0) : undefined;
    written?.catch(() => undefined);
    try {
      for (let i = 0; i < slices.length; i++) {
        await written;
        written = i + 1 < slices.length ? write(i + 1) : undefined;
        // Observed at once, thrown where it is awaited.
        written?.catch(() => undefined);
        const { partition, marked } = slices[i]!;
        const columns = [...EVENT_COLUMNS.map(([n]) => n), ...(marked ? ['from_version'] : [])];
        // A load's partition is new in this transaction, so its rows go in frozen and its pages
        // marked visible to all: the VACUUM after the commit (writer.ts) then skips them rather than
        // reading every page of them again (docs/performance.md, "The PostgreSQL engine: the rows'
        // compression"). An update's rows go to a partition readers already see: not frozen.
        const copy = client.query(copyFrom(`COPY ${into ?? eventPartition(partition)} (${columns.join(', ')}) FROM STDIN (FORMAT csv${marked || into ? '' : ', FREEZE'})`));
        await pipeline(createReadStream(files[i % 2]!), copy);
        copied += Number(copy.rowCount);
        onRows?.(copied);
      }
      return copied;
    } finally {
      await written?.catch(() => undefined);
      for (const file of files) rmSync(file, { force: true });
    }
  }

  close(): void {
    this.c.closeSync();
    this.instance.closeSync();
  }
}
