// What a load can do to a database, whatever its engine: stage rows, validate and publish them as
// new dataset versions, and change the reference data. Every change made through one writer
// becomes visible at once when it commits, or not at all (src/store/engines.ts editDatabase).
import type { EventKind } from '../domain/kinds.ts';

export interface PublishedVersion {
  kind: EventKind;
  datasetId: string;
  version: string;
  rows: number;
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

/** Files the engine reads itself; NDJSON is staged line by line (stageDocuments). */
export type TableFileFormat = 'csv' | 'parquet';

export interface RegionGeometry {
  id: string;
  name: string | null;
  /** An EEZ's country (ISO3), where the file gives one. */
  iso3?: string | null;
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

/** The steps of a load after its rows are read, named for progress reports. */
export type LoadPhase = 'validating' | 'sorting' | 'indexing' | 'copying' | 'publishing';

export interface PublishOptions {
  version: string;
  source: string;
  skipInvalid?: boolean;
  onPhase?: (phase: LoadPhase) => void;
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
  /** Removes one loaded version (latest then falls back to the newest remaining one); its rows. */
  dropVersion(datasetId: string, kind: EventKind, version: string): Promise<number>;
}

/** A writer as its engine hands it out: everything done through it lands on commit, or nothing. */
export interface EngineWriter extends DatabaseWriter {
  commit(): Promise<void>;
  abandon(): Promise<void>;
}
