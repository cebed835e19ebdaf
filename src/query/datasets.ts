// Dataset references: `id:version` as clients write them, resolved against the loaded catalog
// (docs/api.md, "Datasets"). Access checks happen on the parsed reference, before resolution, so a
// token that may not read a dataset learns nothing about which versions exist.
import { KIND_BY_DATASET_ID, DATASET_ID_BY_KIND, type EventKind } from '../domain/kinds.ts';
import { NotFound, type ProblemCollector } from './errors.ts';
import type { Polygon } from '../geo/geojson.ts';
import type { Box } from '../geo/grid.ts';

export interface DatasetRef {
  /** As the client wrote it, e.g. `public-global-port-visits-c2-events:latest`. */
  requested: string;
  kind: EventKind;
  /** Canonical dataset id of the kind. */
  datasetId: string;
  /** `latest` or an explicit version tag. */
  version: string;
}

/** One loaded version of a dataset, as the catalog knows it. */
export interface DatasetVersion {
  versionId: number;
  datasetId: string;
  kind: EventKind;
  version: string;
  loadedAt: string;
  rowCount: number;
  /** The time the data was last updated: open events' durations run to it. */
  lastUpdated: string | null;
  /**
   * How far before a time window an event that reaches into it can start: the longest closed
   * event, and the earliest start of an open one (null when none). The engine uses it only to
   * skip data; absent, nothing is skipped.
   */
  reach?: { longestMs: number | null; earliestOpenStartMs: number | null };
}

export interface ResolvedDataset extends DatasetRef {
  resolved: DatasetVersion;
}

/** The kinds a query's datasets hold, each once, in the order asked. */
export function kindsOf(datasets: readonly ResolvedDataset[]): EventKind[] {
  return [...new Set(datasets.map((d) => d.resolved.kind))];
}

/** Read side of the catalog: what the normaliser needs to resolve references. */
export interface DatasetCatalog {
  versions(): readonly DatasetVersion[];
  /** Ids of the vessel groups loaded. */
  groupIds(): ReadonlySet<string>;
  /** Whether a region id is known in a region dataset (carried by some event, or with a geometry). */
  regionKnown(dataset: string, id: string): boolean;
  /** The region's loaded geometry, if any. */
  regionGeometry(dataset: string, id: string): Polygon[] | undefined;
  /**
   * False only when no event of these dataset versions lies in the box [minLon, minLat, maxLon,
   * maxLat]; true when some may (always, for a version loaded before the store kept where its
   * events lie).
   */
  eventsMayLieIn(versionIds: readonly number[], box: Box): boolean;
}

/**
 * A malformed reference is a problem of the request (422, in `problems`); a well-formed one naming
 * a dataset this service does not have is a 404 (docs/api.md, "Datasets"), collected in `unknown`.
 */
export function parseDatasetRef(requested: string, title: string, problems: ProblemCollector, unknown: ProblemCollector): DatasetRef | undefined {
  const colon = requested.indexOf(':');
  const id = colon === -1 ? requested : requested.slice(0, colon);
  const version = colon === -1 ? 'latest' : requested.slice(colon + 1);
  const kind = Object.hasOwn(KIND_BY_DATASET_ID, id) ? KIND_BY_DATASET_ID[id] : undefined;
  if (!kind) {
    unknown.add(title, `unknown dataset "${id}"; known datasets: ${Object.keys(KIND_BY_DATASET_ID).join(', ')}`);
    return undefined;
  }
  if (version === '') {
    problems.add(title, `dataset "${requested}" has an empty version; use "${id}:latest" or "${id}:<version>"`);
    return undefined;
  }
  return { requested, kind, datasetId: DATASET_ID_BY_KIND[kind], version };
}

/** A dataset's `latest`: its most recently loaded version (the highest id), if any. */
export function latestVersionOf(versions: readonly DatasetVersion[], kind: EventKind): DatasetVersion | undefined {
  return versions.filter((v) => v.kind === kind).reduce<DatasetVersion | undefined>((best, v) => (!best || v.versionId > best.versionId ? v : best), undefined);
}

/** `latest` is the most recently loaded version; an explicit tag must exist exactly. */
export function resolveDataset(ref: DatasetRef, catalog: DatasetCatalog, title: string): ResolvedDataset {
  const candidates = catalog.versions().filter((v) => v.kind === ref.kind);
  const chosen =
    ref.version === 'latest'
      ? latestVersionOf(candidates, ref.kind)
      : candidates.find((v) => v.version === ref.version);
  if (!chosen) {
    const known = candidates.map((v) => v.version).join(', ') || 'none loaded';
    throw new NotFound([
      {
        title,
        detail:
          ref.version === 'latest'
            ? `dataset "${ref.requested}" has no data loaded`
            : `dataset "${ref.requested}" has no version "${ref.version}" (loaded versions: ${known})`,
      },
    ]);
  }
  return { ...ref, resolved: chosen };
}

/** `public-global-fishing-events:v20240101`, the form carried in the `x-datasets` header. */
export function resolvedName(d: ResolvedDataset): string {
  return `${d.resolved.datasetId}:${d.resolved.version}`;
}
