// An update (`load --update`): each dataset it touches gets a new version made of its latest
// version's rows, less the ids the update replaces or removes, plus the update's rows. The new
// version is written as a layer over the one it applies to (layers.ts); `rowsOf` gives the rows
// a version holds, stored or layered.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { EventKind } from '../../domain/kinds.ts';
import type { DatasetVersion } from '../../query/datasets.ts';
import { leftEmpty, removedAndGiven, unknownRemoval, updateTargets, type UpdateTarget } from '../update.ts';
import type { UpdateRequest } from '../writer.ts';
import { EVENT_COLUMNS } from './schema.ts';
import { sqlText } from '../sql.ts';

/** Stages the ids to remove in `stage.removals` (kind, file, line, id). */
export async function stageRemovals(c: DuckDBConnection, update: UpdateRequest): Promise<void> {
  await c.run(`CREATE OR REPLACE TABLE stage.removals (kind VARCHAR NOT NULL, file VARCHAR NOT NULL, line BIGINT NOT NULL, id VARCHAR NOT NULL)`);
  const appender = await c.createAppender('removals', 'main', 'stage');
  for (const r of update.removals) {
    for (const { line, id } of r.ids) {
      appender.appendVarchar(r.kind);
      appender.appendVarchar(r.file);
      appender.appendBigInt(BigInt(line));
      appender.appendVarchar(id);
      appender.endRow();
    }
  }
  appender.closeSync();
}

/**
 * The new versions of an update, once its removals are checked against the versions they apply to:
 * every touched dataset has a latest version, the tag is new, every id to remove is in it and is
 * not also given as a row. Refuses the update otherwise, naming file and line.
 */
export async function planUpdate(c: DuckDBConnection, existing: DatasetVersion[], rowKinds: EventKind[], update: UpdateRequest, tag: string, rowsOf: RowsOf): Promise<UpdateTarget[]> {
  const targets = updateTargets(existing, rowKinds, update, tag);
  const bases = targets.map((t) => `SELECT kind, id FROM (${rowsOf(t.base.versionId)})`).join(' UNION ALL ');

  const unknown = (await c.runAndReadAll(
    `SELECT r.file, r.line::DOUBLE, r.id, r.kind FROM stage.removals r
       ANTI JOIN (${bases}) e ON e.kind = r.kind AND e.id = r.id
      ORDER BY r.file, r.line LIMIT 1`,
  )).getRowsJS()[0];
  if (unknown) throw unknownRemoval(unknown[0] as string, unknown[1] as number, unknown[2] as string, targets.find((t) => t.kind === unknown[3])!.base);
  const both = (await c.runAndReadAll(
    `SELECT r.file, r.line::DOUBLE, r.id FROM stage.removals r
       JOIN scratch.typed_rows t ON t.problem IS NULL AND t.kind = r.kind AND t.id = r.id
      ORDER BY r.file, r.line LIMIT 1`,
  )).getRowsJS()[0];
  if (both) throw removedAndGiven(both[0] as string, both[1] as number, both[2] as string);
  return targets;
}

/** The rows a version holds (every column of events), as a statement. */
export type RowsOf = (versionId: number) => string;

/** The rows of each target's base that the update replaces or removes (its layer hides them), without their entries. */
export function hiddenRowsSql(t: UpdateTarget, rowsOf: RowsOf): string {
  const kind = sqlText(t.kind);
  return `SELECT r.version_id, ${EVENT_COLUMNS.map(([n]) => `r."${n}"`).join(', ')} FROM (${rowsOf(t.base.versionId)}) r
     SEMI JOIN (SELECT id FROM scratch.typed_rows WHERE problem IS NULL AND kind = ${kind} UNION ALL SELECT id FROM stage.removals WHERE kind = ${kind}) x ON x.id = r.id`;
}

/** The update's valid rows, typed (version_id and EVENT_COLUMNS), each under its dataset's new version. */
export function givenRowsSql(targets: UpdateTarget[]): string {
  const newId = `CASE kind ${targets.map((t) => `WHEN ${sqlText(t.kind)} THEN ${t.versionId}`).join(' ')} END`;
  return `SELECT ${newId} AS version_id, ${EVENT_COLUMNS.map(([n]) => `"${n}"`).join(', ')} FROM scratch.typed_rows WHERE problem IS NULL`;
}

/** What each new version holds, as the catalog keeps it, and how it differs from its base. */
export async function describeUpdate(c: DuckDBConnection, targets: UpdateTarget[], rowsOf: RowsOf): Promise<{ target: UpdateTarget; rows: number; lastUpdated: string | null; longestMs: number | null; earliestOpenStart: string | null; replaced: number; added: number; removed: number }[]> {
  const described = [];
  for (const t of targets) {
    const [rows, lastUpdated, longestMs, earliestOpenStart] = (await c.runAndReadAll(
      `SELECT count(*)::DOUBLE, strftime(max(coalesce(end_ts, start_ts)), '%Y-%m-%d %H:%M:%S.%g'),
              max(date_diff('millisecond', start_ts, end_ts))::DOUBLE, strftime(min(start_ts) FILTER (WHERE end_ts IS NULL), '%Y-%m-%d %H:%M:%S.%g')
         FROM (${rowsOf(t.versionId)})`,
    )).getRowsJS()[0] as [number, string | null, number | null, string | null];
    const [given, replaced] = (await c.runAndReadAll(
      `SELECT count(*)::DOUBLE, count(e.id)::DOUBLE FROM scratch.typed_rows t
         LEFT JOIN (SELECT id FROM (${rowsOf(t.base.versionId)})) e ON e.id = t.id
        WHERE t.problem IS NULL AND t.kind = ${sqlText(t.kind)}`,
    )).getRowsJS()[0] as [number, number];
    const removed = Number((await c.runAndReadAll(`SELECT count(DISTINCT id) FROM stage.removals WHERE kind = ${sqlText(t.kind)}`)).getRowsJS()[0]![0]);
    if (rows === 0) throw leftEmpty(t.base);
    described.push({ target: t, rows, lastUpdated, longestMs, earliestOpenStart, replaced, added: given - replaced, removed });
  }
  return described;
}

