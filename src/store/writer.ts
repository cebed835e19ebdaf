// What a load can do to a database, whatever its engine: stage rows, validate and publish them as
// new dataset versions, and change the reference data. Every change made through one writer
// becomes visible at once when it commits, or not at all (src/store/engines.ts editDatabase).
import type { IuuListing, RegistryRecord } from '../domain/vessel-identity.ts';
import { DATASET_ID_BY_KIND, type EventKind } from '../domain/kinds.ts';
import type { DatasetVersion } from '../query/datasets.ts';

export interface PublishedVersion {
  kind: EventKind;
  datasetId: string;
  version: string;
  rows: number;
  /**
   * An update's version: the version it was made from, the rows it replaced, added and removed,
   * and how many updates a compaction would take in, itself included: on DuckDB, the layers
   * between it and a version written whole; on PostgreSQL, the updates of its lineage whose rows
   * by place lie beside the table (change-tables.ts).
   */
  change?: { from: string; replaced: number; added: number; removed: number; layers?: number };
}

/** Event ids to remove from one dataset (`load --update --dataset KIND --remove FILE`), each with its line. */
export interface Removals {
  kind: EventKind;
  file: string;
  ids: { line: number; id: string }[];
}

/**
 * A load that applies its rows by id to each dataset's latest version (a known id replaces its row,
 * a new one is added) and removes the listed ids; the result is a new version of each dataset.
 */
export interface UpdateRequest {
  removals: Removals[];
}

/** A row the load rejected: where it is and what is wrong (`field: detail`). */
export interface RowProblem {
  file: string;
  line: number;
  problem: string;
}

export interface PublishResult {
  published: PublishedVersion[];
  /** Rows left out with --skip-invalid (the first ones, in file order). */
  skipped: RowProblem[];
  skippedCount: number;
}

/** The load stopped on invalid rows; nothing of it became visible. */
export class InvalidRows extends Error {
  constructor(readonly first: RowProblem, readonly count: number) {
    super(`${first.file}:${first.line}: ${first.problem}${count > 1 ? ` (and ${count - 1} more invalid rows)` : ''}`);
  }
}

/** The load was refused as a whole (a version that exists, duplicate ids, no valid rows). */
export class LoadRefused extends Error {}

/**
 * The ids of new versions of these kinds tagged `tag`, after every loaded version's id; refused
 * when a kind already has a version of that tag (every engine, load or update).
 */
export function newVersionIds(existing: DatasetVersion[], kinds: EventKind[], tag: string): Map<EventKind, number> {
  let nextId = existing.reduce((max, v) => Math.max(max, v.versionId), 0) + 1;
  const ids = new Map<EventKind, number>();
  for (const kind of kinds) {
    if (existing.some((v) => v.kind === kind && v.version === tag)) throw new LoadRefused(`${DATASET_ID_BY_KIND[kind]} already has a version "${tag}"; choose another with --version`);
    ids.set(kind, nextId++);
  }
  return ids;
}

/** Files the engine reads itself; NDJSON is staged line by line (stageDocuments). */
export type TableFileFormat = 'csv' | 'parquet';

export interface RegionGeometry {
  id: string;
  name: string | null;
  /** An EEZ's country (ISO3), where the file gives one. */
  iso3?: string | null;
  /** GeoJSON Polygon or MultiPolygon, as text. */
  geometry: string;
  bbox: [number, number, number, number];
}

export interface Port {
  id: string;
  name: string | null;
  flag: string | null;
  lat: number | null;
  lon: number | null;
}

/** What a load may use of the machine's memory unless told otherwise (`load --memory-limit`). */
export const DEFAULT_LOAD_MEMORY_LIMIT = '2GB';

/**
 * The part of a load's memory that DuckDB's memory_limit gets. The process holds more than DuckDB
 * counts (its sorts' overhead, the allocator's, Node's): a 10M load peaked at 1.9-2.1 times
 * DuckDB's limit (3.56 GiB at 2GB, 2.98 at 1.5GB), and at 2.60 GiB with two thirds of 2GB, as fast
 * within the machine's noise (2026-11-28, docs/performance.md, "How the loader stays within memory").
 */
const ENGINE_SHARE = 2 / 3;

const SIZE_UNITS: Readonly<Record<string, number>> = { kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/** The bytes of a size as --memory-limit takes it ("2GB", "512 MiB"; units as DuckDB reads them), or undefined. */
export function memorySizeBytes(text: string): number | undefined {
  const size = /^(\d+(?:\.\d+)?)\s*([kmgt]i?b)$/i.exec(text.trim());
  return size ? Number(size[1]) * SIZE_UNITS[size[2]!.toLowerCase()]! : undefined;
}

/** DuckDB's memory_limit for a load given `memoryLimit` (a size as --memory-limit takes it, e.g. "2GB"). */
export function loadEngineMemoryLimit(memoryLimit: string): string {
  const bytes = memorySizeBytes(memoryLimit);
  if (bytes === undefined) throw new Error(`a memory size such as 2GB was expected, got "${memoryLimit}"`);
  return `${Math.floor((bytes * ENGINE_SHARE) / 1e6)}MB`;
}

/** The writer that holds a database while another waits for it. */
export interface LockHolder {
  pid: number;
  startedAt: string;
}

/** How a writer is opened. */
export interface WriterOptions {
  /** Every row belongs to this kind (rows without event_type take it). */
  kind?: EventKind;
  /** Told once when another writer holds the database and this one waits for it. */
  onWait?: (holder: LockHolder) => void;
  /** The memory the load may use (e.g. "2GB"), of which DuckDB gets a share (loadEngineMemoryLimit); past it, sorts spill to disk. */
  memoryLimit?: string;
  /** The writer is for an update (`load --update`), which DuckDB writes as a layer. */
  update?: boolean;
  /**
   * The change touches update layers alone (a layered version dropped): DuckDB attaches the
   * database file read-only instead of copying it.
   */
  layersOnly?: boolean;
  /** Rows a DuckDB sort of the load takes at most (src/store/duckdb/sort-ranges.ts); fewer in tests, to sort in several ranges. */
  sortRangeRows?: number;
  /**
   * How a new DuckDB file stores each event's entry (`load --entry-compression`); a file keeps the
   * compression it was created with, so a different one asked of an existing file is refused.
   * Undefined: the file's own, or fsst for a new file.
   */
  entryCompression?: EntryCompression;
}

/** The entry compressions a DuckDB file may be created with, the default first (docs/performance.md, "The entry's compression"). */
export const ENTRY_COMPRESSIONS = ['fsst', 'zstd'] as const;
export type EntryCompression = (typeof ENTRY_COMPRESSIONS)[number];
export const DEFAULT_ENTRY_COMPRESSION: EntryCompression = ENTRY_COMPRESSIONS[0];

/** The steps of a load after its rows are read, named for progress reports. */
export type LoadPhase = 'validating' | 'sorting' | 'indexing' | 'copying' | 'publishing';

export interface PublishOptions {
  version: string;
  source: string;
  skipInvalid?: boolean;
  /** Apply the rows to the latest versions instead of publishing them as versions of their own. */
  update?: UpdateRequest;
  /** Publish nothing rather than refuse when no row is valid: an update's rows staged for another engine may be none. */
  allowEmpty?: boolean;
  onPhase?: (phase: LoadPhase) => void;
  /**
   * Told the valid rows' kinds and (kind, id) once they are validated, before they are sorted and
   * written: a stage's engine starts on what needs the ids alone (postgres/update.ts hideReplacedRows).
   */
  onValidated?: (rows: ValidatedRows) => void;
}

/** The valid rows of a load or update as validated, before they are sorted and written. */
export interface ValidatedRows {
  /** The kinds they hold, each a version once published. */
  kinds: EventKind[];
  /** Their (kind, id). */
  ids: [string, string][];
}

export interface DatabaseWriter {
  /** Stages documents (one JSON text per row, with its line), returning how many were staged. */
  stageDocuments(fileNo: number, file: string, rows: AsyncIterable<{ line: number; doc: string }> | Iterable<{ line: number; doc: string }>, onRow?: (n: number) => void): Promise<number>;
  /** Stages a CSV or Parquet file, returning how many rows it held. */
  ingestFile(fileNo: number, file: string, format: TableFileFormat): Promise<number>;
  /** Validates what is staged and publishes it as a new version of each kind it holds, naming each phase as it starts. */
  publish(options: PublishOptions): Promise<PublishResult>;
  /** Replaces the listed groups' members (groups not in the load are kept). */
  replaceGroups(members: { groupId: string; vesselId: string }[]): Promise<void>;
  upsertPorts(ports: Port[]): Promise<void>;
  /** Replaces every geometry of one region dataset. */
  replaceRegions(dataset: string, regions: RegionGeometry[]): Promise<void>;
  /** Replaces the IUU vessel list (an empty list is a list loaded with no vessel on it). */
  replaceIuuList(listings: IuuListing[]): Promise<void>;
  /** Replaces the vessel registry. */
  replaceRegistry(records: RegistryRecord[]): Promise<void>;
  /** Removes one loaded version (latest then falls back to the newest remaining one); its rows. */
  dropVersion(datasetId: string, kind: EventKind, version: string): Promise<number>;
}

/** A writer as its engine hands it out: everything done through it lands on commit, or nothing. */
export interface EngineWriter extends DatabaseWriter {
  commit(): Promise<void>;
  abandon(): Promise<void>;
}

/** Whether a process of this machine is running (one we may not signal is): a lock or a stage whose process is gone is stale. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
