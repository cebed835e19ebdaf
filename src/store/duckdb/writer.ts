// The only writer of the database. A load appends validated records to a connection-local staging
// table, then publishes them in one transaction (catalog rows + events sorted for the zone maps).
// A load that fails or is killed before COMMIT leaves the served data exactly as it was.
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EventRecord } from '../../data/record.ts';
import { DATASET_ID_BY_KIND, type EventKind } from '../../query/kinds.ts';
import { appendRecord } from './columns.ts';
import { CREATE_INDEXES, CREATE_SCHEMA, SCHEMA_VERSION } from './schema.ts';
import { OFFLINE_SETTINGS } from './duckdb-store.ts';
import { readVersions } from './versions.ts';

export interface PublishedVersion {
  kind: EventKind;
  datasetId: string;
  version: string;
  rows: number;
}

export class DuplicateVersion extends Error {}
export class DuplicateEventId extends Error {}

export class DuckDbWriter {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  static async open(path: string): Promise<DuckDbWriter> {
    mkdirSync(dirname(path), { recursive: true });
    const instance = await DuckDBInstance.create(path, { ...OFFLINE_SETTINGS });
    const connection = await instance.connect();
    for (const ddl of CREATE_SCHEMA) await connection.run(ddl);
    await connection.run(`INSERT INTO meta VALUES ('schema_version', ?) ON CONFLICT DO NOTHING`, [String(SCHEMA_VERSION)]);
    return new DuckDbWriter(instance, connection);
  }

  /** Starts a load of one version tag; kinds get their version ids as their first row arrives. */
  async beginLoad(version: string, source: string): Promise<LoadSession> {
    const existing = await readVersions(this.connection);
    await this.connection.run(`CREATE OR REPLACE TEMP TABLE staging AS SELECT * FROM events LIMIT 0`);
    const appender = await this.connection.createAppender('staging');
    const nextId = existing.reduce((max, v) => Math.max(max, v.versionId), 0) + 1;
    return new LoadSession(this.connection, appender, version, source, existing.map((v) => `${v.kind}:${v.version}`), nextId);
  }

  async close(): Promise<void> {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

export class LoadSession {
  private readonly versionIds = new Map<EventKind, number>();
  private rows = 0;

  constructor(
    private readonly connection: DuckDBConnection,
    private readonly appender: DuckDBAppender,
    private readonly version: string,
    private readonly source: string,
    private readonly existing: string[],
    private nextVersionId: number,
  ) {}

  get rowCount(): number {
    return this.rows;
  }

  append(record: EventRecord): void {
    let versionId = this.versionIds.get(record.kind);
    if (versionId === undefined) {
      if (this.existing.includes(`${record.kind}:${this.version}`)) {
        throw new DuplicateVersion(
          `${DATASET_ID_BY_KIND[record.kind]} already has a version "${this.version}"; choose another with --version`,
        );
      }
      versionId = this.nextVersionId++;
      this.versionIds.set(record.kind, versionId);
    }
    appendRecord(this.appender, versionId, record);
    this.rows++;
  }

  /** Makes everything appended visible at once, or nothing. */
  async commit(): Promise<PublishedVersion[]> {
    this.appender.closeSync();
    const dup = await this.connection.runAndReadAll(
      `SELECT id FROM staging GROUP BY version_id, id HAVING count(*) > 1 LIMIT 1`,
    );
    const dupRows = dup.getRowsJS();
    if (dupRows.length) throw new DuplicateEventId(`event id "${dupRows[0]![0]}" appears more than once in this load`);

    const published: PublishedVersion[] = [];
    await this.connection.run('BEGIN TRANSACTION');
    try {
      for (const [kind, versionId] of this.versionIds) {
        const stats = await this.connection.runAndReadAll(
          `SELECT count(*)::DOUBLE FROM staging WHERE version_id = ?`,
          [versionId],
        );
        const rows = stats.getRowsJS()[0]![0] as number;
        await this.connection.run(
          `INSERT INTO dataset_versions
             SELECT ?, ?, ?, ?, now()::TIMESTAMP, ?, (SELECT max(coalesce(end_ts, start_ts)) FROM staging WHERE version_id = ?), ?`,
          [versionId, DATASET_ID_BY_KIND[kind], kind, this.version, rows, versionId, this.source],
        );
        published.push({ kind, datasetId: DATASET_ID_BY_KIND[kind], version: this.version, rows });
      }
      await this.connection.run(`INSERT INTO events SELECT * FROM staging ORDER BY version_id, vessel_id, start_ts`);
      await this.connection.run('COMMIT');
    } catch (e) {
      await this.connection.run('ROLLBACK');
      throw e;
    } finally {
      await this.connection.run('DROP TABLE IF EXISTS staging');
    }
    for (const ddl of CREATE_INDEXES) await this.connection.run(ddl);
    await this.connection.run('CHECKPOINT');
    return published;
  }

  async abort(): Promise<void> {
    try {
      this.appender.closeSync();
    } catch {
      // Already closed by a failed flush; the staging table is dropped either way.
    }
    await this.connection.run('DROP TABLE IF EXISTS staging');
  }
}
