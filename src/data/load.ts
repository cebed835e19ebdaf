// Loading published-events rows into the database: validate every row, stage, publish atomically.
import type { EventKind } from '../query/kinds.ts';
import { DuckDbWriter, type PublishedVersion } from '../store/duckdb/writer.ts';
import { fromPublishedRow, RowError } from './published-row.ts';
import type { SourceRow } from './ndjson.ts';

/** A row that stopped a load: where it is and what is wrong with it. */
export class LoadError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${file}:${line}: ${field}: ${detail}`);
  }
}

export interface LoadOptions {
  dbPath: string;
  version: string;
  /** Named in the catalog: where the rows came from. */
  source: string;
  /** Every row belongs to this kind (rows without event_type take it). */
  kind?: EventKind;
  onProgress?: (rows: number) => void;
}

export async function loadRows(rows: AsyncIterable<SourceRow>, options: LoadOptions): Promise<PublishedVersion[]> {
  const writer = await DuckDbWriter.open(options.dbPath);
  try {
    const session = await writer.beginLoad(options.version, options.source);
    try {
      for await (const source of rows) {
        if (source.parseError) throw new LoadError(source.file, source.line, 'row', source.parseError);
        let record;
        try {
          record = fromPublishedRow(source.row, options.kind);
        } catch (e) {
          if (e instanceof RowError) throw new LoadError(source.file, source.line, e.field, e.detail);
          throw e;
        }
        session.append(record);
        if (options.onProgress && session.rowCount % 10000 === 0) options.onProgress(session.rowCount);
      }
      if (session.rowCount === 0) throw new Error('no rows to load');
      return await session.commit();
    } catch (e) {
      await session.abort();
      throw e;
    }
  } finally {
    await writer.close();
  }
}

/** Default version tag: the load's date, `vYYYYMMDD`. */
export function defaultVersionTag(now = new Date()): string {
  return `v${now.toISOString().slice(0, 10).replace(/-/g, '')}`;
}
