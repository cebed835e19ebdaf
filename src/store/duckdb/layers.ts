// Update layers (`load --update`): an update's version is written as a layer, a small DuckDB file of
// its own in `<db>.layers/`, not as a whole version in the database file. A layer holds the rows the
// update gives (new ids and the new rows of replaced ones, with their entries) and the ids it hides
// from the version it applies to (replaced or removed). A layered version's rows are its chain's
// (a version stored in the database file, then each layer up to itself), less every hidden id; the
// database file is neither copied nor written, so an update costs what it changes
// (docs/performance.md, "Updates"). `vessel-events compact` writes a layered version whole into the
// database file, where every access path serves it; until then it is read from events alone.
import type { DuckDBConnection } from '@duckdb/node-api';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetVersion } from '../../query/datasets.ts';
import type { Layer, Layers } from './layer.ts';
import { EVENT_COLUMNS } from './schema.ts';
import { readVersions } from './versions.ts';
import { addToSets } from '../catalog.ts';

/** The folder of a database's layers. */
export function layersFolder(dbPath: string): string {
  return `${dbPath}.layers`;
}

/** A published layer's file: named by its version id. */
export function layerFile(dbPath: string, versionId: number): string {
  return join(layersFolder(dbPath), `${versionId}.duckdb`);
}

const LAYER_NAME = /^(\d+)\.duckdb$/;

/** The published layers' files, by the first version id each holds (a layer being written has another name). */
export function layerFiles(dbPath: string): Map<number, string> {
  const files = new Map<number, string>();
  let names: string[] = [];
  try {
    names = readdirSync(layersFolder(dbPath));
  } catch {
    return files;
  }
  for (const name of names) {
    const m = LAYER_NAME.exec(name);
    if (m) files.set(Number(m[1]), join(layersFolder(dbPath), name));
  }
  return files;
}

/** Which layers are published now: a published or removed layer changes it (the server reloads on a change). */
export function layersIdentity(dbPath: string): string {
  return [...layerFiles(dbPath)].sort(([a], [b]) => a - b).map(([id, path]) => {
    try {
      const s = statSync(path);
      return `${id}:${s.ino}:${s.mtimeMs}`;
    } catch {
      return `${id}:gone`;
    }
  }).join(',');
}

/** The tables of a layer file. */
export const CREATE_LAYER_TABLES = [
  // Each version the file holds, and the version it applies to: a stored version or another layer's.
  `CREATE TABLE IF NOT EXISTS layer (version_id USMALLINT NOT NULL, base_version_id USMALLINT NOT NULL)`,
  // Rows of the chain's versions (stored or layers) this layer hides, replaced or removed, under
  // the version they come from: whole but for their entries, so that a count over a layered
  // version is its base's count less theirs plus the layers' rows' (layered-path.ts).
  `CREATE TABLE IF NOT EXISTS hidden (version_id USMALLINT NOT NULL, ${EVENT_COLUMNS.map(([n, t]) => `"${n}" ${t}`).join(', ')})`,
];

export type { Layer, Layers };

export const layerAlias = (versionId: number) => `layer_${versionId}`;

/**
 * Attaches, read-only, every published layer file and returns the layered versions whose chains
 * reach a version of the database file (`storedIds`). A file may hold a version of several datasets
 * (one update); a version the database file holds whole (compacted, its file not yet removed) or
 * whose chain is broken is left out and reported.
 */
export async function attachLayers(c: DuckDBConnection, dbPath: string, storedIds: ReadonlySet<number>, onSkipped?: (versionId: number, why: string) => void): Promise<Map<number, Layer>> {
  const read = new Map<number, { alias: string; base: number; version: DatasetVersion }>();
  for (const [fileId, path] of layerFiles(dbPath)) {
    const alias = layerAlias(fileId);
    await c.run(`ATTACH ${quoted(path)} AS ${alias} (READ_ONLY)`);
    const versions = await readVersions(c, alias);
    const bases = new Map((await c.runAndReadAll(`SELECT version_id::INTEGER, base_version_id::INTEGER FROM ${alias}.layer`)).getRowsJS() as [number, number][]);
    for (const version of versions) {
      const base = bases.get(version.versionId);
      if (storedIds.has(version.versionId)) continue;
      if (base === undefined) onSkipped?.(version.versionId, `${path} is not a layer file`);
      else read.set(version.versionId, { alias, base, version });
    }
  }
  const layers = new Map<number, Layer>();
  const chainOf = (versionId: number, seen: Set<number>): number[] | undefined => {
    if (storedIds.has(versionId)) return [versionId];
    const r = read.get(versionId);
    if (!r || seen.has(versionId)) return undefined;
    seen.add(versionId);
    const below = chainOf(r.base, seen);
    return below && [...below, versionId];
  };
  for (const [versionId, r] of read) {
    const chain = chainOf(versionId, new Set());
    if (!chain) {
      onSkipped?.(versionId, `the version it applies to (${r.base}) is gone`);
      continue;
    }
    layers.set(versionId, { versionId, alias: r.alias, baseVersionId: r.base, chain, version: r.version });
  }
  return layers;
}

/** Region ids the layers' rows carry, added to the catalog's. */
export async function addLayerRegionIds(c: DuckDBConnection, layers: Layers, ids: Map<string, Set<string>>): Promise<void> {
  for (const layer of layers.values()) {
    addToSets(ids, (await c.runAndReadAll(`SELECT member, id FROM ${layer.alias}.region_ids`)).getRowsJS() as [string, string][]);
  }
}

const quoted = (s: string) => `'${s.replace(/'/g, "''")}'`;

const COLUMNS = ['version_id', ...EVENT_COLUMNS.map(([n]) => n), 'entry'].map((n) => `"${n}"`).join(', ');

/** Where each member of a chain keeps its rows: the database file's events, or a layer's. */
export interface ChainTables {
  /** The database file's events table, as the reader names it. */
  stored: string;
  /** A layer's events and hidden tables, by its version id. */
  layer: (versionId: number) => { events: string; hidden: string };
  /**
   * Tables into which the chain's layers were merged once: their rows (layersRowsSql) and the
   * stored rows they hide (storedHiddenSql). Without them, each layer's tables are read.
   */
  merged?: { layers: string; storedHidden: string };
}

export const attachedTables = (layers: Layers, stored = 'events'): ChainTables => ({
  stored,
  layer: (versionId) => {
    const alias = layers.get(versionId)?.alias ?? layerAlias(versionId);
    return { events: `${alias}.events`, hidden: `${alias}.hidden` };
  },
});

/** The rows of a chain's layers (under each layer's version id) that no layer of the chain hides. */
export function layersRowsSql(chain: readonly number[], tables: ChainTables): string {
  const layered = chain.slice(1);
  const rows = layered.map((v) => `SELECT ${COLUMNS} FROM ${tables.layer(v).events} WHERE version_id = ${Number(v)}`).join(' UNION ALL ');
  const hidden = layered.map((v) => `SELECT version_id, id FROM ${tables.layer(v).hidden} WHERE version_id <> ${Number(chain[0])}`).join(' UNION ALL ');
  return `SELECT r.* FROM (${rows}) r ANTI JOIN (${hidden}) h ON h.version_id = r.version_id AND h.id = r.id`;
}

/** The kind and id of each row of a chain's stored version that its layers hide. */
export function storedHiddenSql(chain: readonly number[], tables: ChainTables): string {
  return chain.slice(1).map((v) => `SELECT kind, id FROM ${tables.layer(v).hidden} WHERE version_id = ${Number(chain[0])}`).join(' UNION ALL ');
}

/** The kind and id of each stored row the layers of the given versions hide. */
export function storedHiddenOf(layers: Layers, versionIds: readonly number[], tables: ChainTables = attachedTables(layers)): string {
  return [...new Set(versionIds)].filter((v) => layers.has(v)).map((v) => storedHiddenSql(layers.get(v)!.chain, tables)).join(' UNION ALL ');
}

/**
 * The rows a chain's last version holds, with the version id of the member each comes from:
 * every member's rows, less those a layer of the chain hides.
 */
export function chainRowsSql(chain: readonly number[], tables: ChainTables): string {
  const [stored, ...layered] = chain;
  const storedRows = `SELECT ${COLUMNS} FROM ${tables.stored} WHERE version_id = ${Number(stored)}`;
  if (layered.length === 0) return storedRows;
  if (tables.merged) {
    return `SELECT r.* FROM (${storedRows}) r ANTI JOIN ${tables.merged.storedHidden} h ON h.id = r.id UNION ALL SELECT ${COLUMNS} FROM ${tables.merged.layers}`;
  }
  const rows = [storedRows, ...layered.map((v) => `SELECT ${COLUMNS} FROM ${tables.layer(v).events} WHERE version_id = ${Number(v)}`)].join(' UNION ALL ');
  const hidden = layered.map((v) => `SELECT version_id, id FROM ${tables.layer(v).hidden}`).join(' UNION ALL ');
  return `SELECT r.* FROM (${rows}) r ANTI JOIN (${hidden}) h ON h.version_id = r.version_id AND h.id = r.id`;
}

/** A layered version's rows as if stored: its chain's rows under its own version id. */
export function layeredRowsSql(versionId: number, chain: readonly number[], tables: ChainTables): string {
  return `SELECT ${Number(versionId)}::USMALLINT AS version_id, * EXCLUDE (version_id) FROM (${chainRowsSql(chain, tables)})`;
}

/**
 * The FROM of a statement over the given versions: `events` when none is layered, else events and
 * each layered version's rows as if stored, so the query's own version condition picks them. Each
 * row also has `origin`, the version whose table holds it (the stored version or a layer).
 */
export function eventsFrom(layers: Layers, versionIds: readonly number[], tables: ChainTables = attachedTables(layers)): string {
  const layered = [...new Set(versionIds)].filter((v) => layers.has(v));
  if (layered.length === 0) return tables.stored;
  const parts = [
    `SELECT ${COLUMNS}, version_id AS origin FROM ${tables.stored}`,
    ...layered.map((v) => `SELECT ${Number(v)}::USMALLINT AS version_id, * EXCLUDE (version_id), version_id AS origin FROM (${chainRowsSql(layers.get(v)!.chain, tables)})`),
  ];
  return `(${parts.join(' UNION ALL ')}) AS events`;
}

const TYPED = EVENT_COLUMNS.map(([n]) => `"${n}"`).join(', ');

/**
 * What the layers of the given versions change, as signed rows under each chain's stored version:
 * each layer's rows (+1, with their entries) and the rows it hides (-1, with no entry), each with
 * its `origin` (the version whose table holds it). A layered version's rows are its stored
 * version's plus these: a count is the stored version's count plus their signs' sum.
 */
export function correctionsFrom(layers: Layers, versionIds: readonly number[], tables: ChainTables = attachedTables(layers)): string {
  const parts: string[] = [];
  for (const v of new Set(versionIds)) {
    const layer = layers.get(v);
    if (!layer) continue;
    const [stored, ...layered] = layer.chain;
    const as = `${Number(stored)}::USMALLINT AS version_id`;
    for (const l of layered) {
      const t = tables.layer(l);
      parts.push(`SELECT ${as}, ${TYPED}, entry, version_id AS origin, 1 AS sign FROM ${t.events} WHERE version_id = ${Number(l)}`);
      parts.push(`SELECT ${as}, ${TYPED}, NULL::VARCHAR AS entry, version_id AS origin, -1 AS sign FROM ${t.hidden} WHERE version_id IN (${layer.chain.map(Number).join(', ')})`);
    }
  }
  return `(${parts.join(' UNION ALL ')}) AS events`;
}

/** Whether any of the versions is layered. */
export function anyLayered(layers: Layers, versionIds: readonly number[]): boolean {
  return versionIds.some((v) => layers.has(v));
}
