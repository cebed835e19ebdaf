// What a store knows of a database when it opens it (dataset versions, vessel group ids, region
// ids and geometries, the generation), read once per open: every engine fills one, and the
// normaliser reads it through DatasetCatalog. A load changes the generation, and the store is
// opened again (src/store/duckdb/reloading-store.ts, src/store/postgres/reloading-store.ts).
import type { EventKind } from '../domain/kinds.ts';
import { REGION_DATASETS } from '../domain/regions.ts';
import { parseGeometry, type Polygon } from '../geo/geojson.ts';
import type { DatasetCatalog, DatasetVersion } from '../query/datasets.ts';
import type { Box } from '../geo/grid.ts';
import { cellsMayHoldEventsIn, type EventCells } from './event-cells.ts';

export interface RegionCatalog {
  /** regions member -> region ids some loaded event carries. */
  ids: Map<string, Set<string>>;
  /** region dataset -> region id -> GeoJSON geometry text. */
  geometries: Map<string, Map<string, string>>;
  /** region dataset -> region id -> what was loaded with its geometry (name, an EEZ's ISO3). */
  labels: Map<string, Map<string, RegionLabel>>;
}

export interface RegionLabel {
  name: string | null;
  iso3: string | null;
}

/** A region a dataset lists: ids events carry and ids with a loaded geometry, with their labels. */
export interface RegionEntry extends RegionLabel {
  id: string;
}

export interface CatalogContents {
  versions: DatasetVersion[];
  groups: ReadonlySet<string>;
  regions: RegionCatalog;
  generation: string;
  /** Where each version's events lie (event-cells.ts); a version missing is never said to hold none. */
  cells: EventCells;
  /** What makes this store answer slower than it should, each with the command that mends it. */
  warnings?: readonly string[];
}

/**
 * A dataset_versions row as both engines select it: version id, dataset id, kind, version, loaded
 * at (ISO text), rows, last updated (ISO text), longest event (ms), earliest open start (epoch ms).
 */
export function toDatasetVersion(r: readonly unknown[]): DatasetVersion {
  return {
    versionId: r[0] as number,
    datasetId: r[1] as string,
    kind: r[2] as EventKind,
    version: r[3] as string,
    loadedAt: r[4] as string,
    rowCount: r[5] as number,
    lastUpdated: (r[6] as string | null) ?? null,
    reach: { longestMs: r[7] as number | null, earliestOpenStartMs: r[8] as number | null },
  };
}

/** Adds rows of (key, id) to a map of sets: how region ids are gathered from any engine. */
export function addToSets(map: Map<string, Set<string>>, rows: Iterable<readonly [string, string]>): void {
  for (const [key, id] of rows) (map.get(key) ?? map.set(key, new Set()).get(key)!).add(id);
}

/** Adds rows of (region dataset, id, geometry text, name, ISO3) to the catalog's geometries and labels. */
export function addGeometries(regions: RegionCatalog, rows: Iterable<readonly [string, string, string, string | null, string | null]>): void {
  for (const [dataset, id, geometry, name, iso3] of rows) {
    (regions.geometries.get(dataset) ?? regions.geometries.set(dataset, new Map()).get(dataset)!).set(id, geometry);
    (regions.labels.get(dataset) ?? regions.labels.set(dataset, new Map()).get(dataset)!).set(id, { name, iso3 });
  }
}

export class Catalog implements DatasetCatalog {
  private readonly parsedGeometries = new Map<string, Polygon[]>();
  constructor(private readonly contents: CatalogContents) {}

  versions(): readonly DatasetVersion[] {
    return this.contents.versions;
  }

  groupIds(): ReadonlySet<string> {
    return this.contents.groups;
  }

  generation(): string {
    return this.contents.generation;
  }

  /** What makes this store answer slower than it should (a missing point file), with how to mend it. */
  storageWarnings(): readonly string[] {
    return this.contents.warnings ?? [];
  }

  /** True once at least one dataset is loaded. */
  ready(): boolean {
    return this.contents.versions.length > 0;
  }

  /** The regions of a region dataset: those loaded events carry and those with a loaded geometry, by name then id. */
  regionList(dataset: string): RegionEntry[] {
    const member = REGION_DATASETS[dataset];
    const labels = this.contents.regions.labels.get(dataset) ?? new Map<string, RegionLabel>();
    const ids = new Set([...(member ? this.contents.regions.ids.get(member) ?? [] : []), ...labels.keys()]);
    return [...ids]
      .map((id) => ({ id, name: labels.get(id)?.name ?? null, iso3: labels.get(id)?.iso3 ?? null }))
      .sort((a, b) => (a.name ?? '\uffff').localeCompare(b.name ?? '\uffff') || a.id.localeCompare(b.id, 'en', { numeric: true }));
  }

  /** The region's name where one was loaded with its geometry. */
  regionName(dataset: string, id: string): string | null {
    return this.contents.regions.labels.get(dataset)?.get(id)?.name ?? null;
  }

  regionKnown(dataset: string, id: string): boolean {
    const { ids, geometries } = this.contents.regions;
    const member = REGION_DATASETS[dataset];
    return Boolean((member && ids.get(member)?.has(id)) || geometries.get(dataset)?.has(id));
  }

  eventsMayLieIn(versionIds: readonly number[], box: Box): boolean {
    return cellsMayHoldEventsIn(this.contents.cells, versionIds, box);
  }

  /** Where each version's events lie, for an engine's own use of the same cells (DuckDB's spatial plans). */
  protected get eventCells(): EventCells {
    return this.contents.cells;
  }

  /** Parsed on first use and kept: a region's geometry is used by request after request. */
  regionGeometry(dataset: string, id: string): Polygon[] | undefined {
    const text = this.contents.regions.geometries.get(dataset)?.get(id);
    if (text === undefined) return undefined;
    const key = `${dataset}|${id}`;
    let polygons = this.parsedGeometries.get(key);
    if (!polygons) {
      polygons = parseGeometry(JSON.parse(text));
      this.parsedGeometries.set(key, polygons);
    }
    return polygons;
  }
}

/** A region a region dataset lists (`vessel-events regions list`), as each engine's inspector reads it. */
export interface ListedRegion {
  dataset: string;
  id: string;
  /** null when events carry the id but no geometry (with its name) was loaded. */
  name: string | null;
}
