// normalizeArea: regions, geometry and buffers (docs/api.md, "Regions, geometry and buffers") -> the AreaFilter the store
// compiles. Without a buffer, named regions match on the entries' `regions` members; with one, or
// with a geometry, they become polygons tested against each entry's position.
import { bufferReach } from '../geo/buffer-reach.ts';
import { BUFFER_LIMITS, bufferPolygons, type BufferOperation, type BufferUnit } from '../geo/buffer.ts';
import { BufferFailed, BufferQueueFull, BufferTooCostly } from '../geo/buffer-thread.ts';
import { forPointTests, GeometryError, GeometryTooLarge, parseGeometry, type Polygon } from '../geo/geojson.ts';
import type { DatasetCatalog } from './datasets.ts';
import { InvalidParameters, NotFound, Overloaded, PayloadTooLarge, type ProblemCollector } from './errors.ts';
import type { Spelling } from './errors.ts';
import { REGION_DATASETS } from '../domain/regions.ts';
import type { EventFilters } from './schema.ts';
import type { AreaFilter } from './types.ts';

interface RegionRef {
  dataset: string;
  id: string;
}

function regionRefs(f: EventFilters, spelling: Spelling, problems: ProblemCollector): RegionRef[] {
  const refs: RegionRef[] = [];
  const datasets = f.regionDatasets ?? [];
  const ids = f.regionIds ?? [];
  if (datasets.length || ids.length) {
    // regionDatasets[i] pairs with regionIds[i]; one dataset with several ids applies to all.
    if (datasets.length === 1) refs.push(...ids.map((id) => ({ dataset: datasets[0]!, id })));
    else if (datasets.length === ids.length) refs.push(...ids.map((id, i) => ({ dataset: datasets[i]!, id })));
    else problems.add(spelling('regionIds'), `${spelling('regionDatasets')} (${datasets.length}) and ${spelling('regionIds')} (${ids.length}) must pair one to one, or give one dataset for all ids`);
    if (ids.length === 0) problems.add(spelling('regionIds'), `${spelling('regionDatasets')} needs ${spelling('regionIds')}`);
  }
  for (const r of [...(f.region ? [f.region] : []), ...(f.regions ?? [])]) {
    if (!Object.hasOwn(REGION_DATASETS, r.dataset)) {
      problems.add(spelling(f.region ? 'region' : 'regions'), `unknown region dataset "${r.dataset}"; known: ${Object.keys(REGION_DATASETS).join(', ')}`);
    } else refs.push({ dataset: r.dataset, id: r.id });
  }
  return refs;
}

/** Computes a buffer; the server runs it off the event loop with a deadline (src/geo/buffer-thread.ts). */
export type Buffering = (polygons: Polygon[], value: number, unit: BufferUnit, operation: BufferOperation) => Promise<Polygon[]>;
export const bufferInProcess: Buffering = async (polygons, value, unit, operation) => bufferPolygons(polygons, value, unit, operation);

async function buffered(buffering: Buffering, polygons: Polygon[], buffer: { value: number; unit: BufferUnit; operation: BufferOperation }, title: string): Promise<Polygon[]> {
  try {
    return await buffering(polygons, buffer.value, buffer.unit, buffer.operation);
  } catch (e) {
    if (e instanceof BufferTooCostly) {
      throw new PayloadTooLarge([{ title, detail: `the buffered area is too costly to compute (${e.message}); use a simpler geometry, fewer polygons or regions, or a smaller buffer` }]);
    }
    if (e instanceof BufferQueueFull) throw new Overloaded([{ title, detail: `too many buffers are being computed (${e.message}); retry in a moment` }]);
    if (e instanceof BufferFailed) throw new InvalidParameters([{ title, detail: `the buffer could not be computed: ${e.message}` }]);
    throw e;
  }
}

/** Resolves the area of a query on the given dataset versions. */
export type AreaResolver = (versionIds: readonly number[]) => Promise<AreaFilter>;

export function normalizeArea(f: EventFilters, catalog: DatasetCatalog, spelling: Spelling, problems: ProblemCollector, buffering: Buffering = bufferInProcess): AreaResolver | undefined {
  const refs = regionRefs(f, spelling, problems);
  const hasBuffer = f.bufferValue !== undefined || f.bufferUnit !== undefined;
  if ((f.bufferValue === undefined) !== (f.bufferUnit === undefined)) {
    const missing = f.bufferValue === undefined ? 'bufferValue' : 'bufferUnit';
    problems.add(spelling(missing), `${spelling('bufferValue')} and ${spelling('bufferUnit')} go together; ${spelling(missing)} is missing`);
  }
  if (f.bufferValue !== undefined && f.bufferUnit !== undefined) {
    const limit = BUFFER_LIMITS[f.bufferUnit as BufferUnit];
    if (Math.abs(f.bufferValue) > limit) {
      problems.add(spelling('bufferValue'), `${spelling('bufferValue')} must be within ±${limit} ${f.bufferUnit} (half the Earth's circumference: no buffer is wider than the Earth), got ${f.bufferValue}`);
    }
  }
  if (f.bufferOperation !== undefined && !hasBuffer) problems.add(spelling('bufferOperation'), `${spelling('bufferOperation')} applies only with ${spelling('bufferValue')} and ${spelling('bufferUnit')}`);
  if (f.geometry !== undefined && refs.length > 0) problems.add(spelling('geometry'), `${spelling('geometry')} cannot be combined with a region filter; give one or the other`);
  let geometry: Polygon[] | undefined;
  if (f.geometry !== undefined) {
    try {
      geometry = parseGeometry(f.geometry);
    } catch (e) {
      if (e instanceof GeometryTooLarge) throw new PayloadTooLarge([{ title: spelling('geometry'), detail: e.message }]);
      if (e instanceof GeometryError) problems.add(spelling('geometry'), `invalid GeoJSON: ${e.message}`);
      else throw e;
    }
  }
  if (!geometry && refs.length === 0) {
    if (hasBuffer && f.bufferValue !== undefined && f.bufferUnit !== undefined) problems.add(spelling('bufferValue'), `a buffer needs a geometry or regions to apply to`);
    return undefined;
  }
  // Resolved after the problems are reported: lookups may 404, and buffers are costly.
  return async (versionIds) => {
    const unknown = refs.filter((r) => !catalog.regionKnown(r.dataset, r.id));
    if (unknown.length) {
      throw new NotFound(unknown.map((r) => ({ title: 'region', detail: `unknown region "${r.id}" in ${r.dataset}` })));
    }
    if (!hasBuffer && refs.length) {
      return { type: 'regions', regions: refs.map((r) => ({ dataset: r.dataset, member: REGION_DATASETS[r.dataset]!, id: r.id })) };
    }
    let polygons = geometry ?? refs.flatMap((r) => {
      const g = catalog.regionGeometry(r.dataset, r.id);
      if (!g) throw new NotFound([{ title: 'region', detail: `region "${r.id}" of ${r.dataset} has no geometry loaded, which a buffer needs; load it with "vessel-events regions load"` }]);
      return g;
    });
    const from = geometry ? 'geometry' as const : refs;
    if (!hasBuffer) return { type: 'polygons', polygons: forPointTests(polygons), from };
    const buffer = { value: f.bufferValue!, unit: f.bufferUnit as BufferUnit, operation: (f.bufferOperation ?? 'DISSOLVE') as BufferOperation };
    // Where no event lies within the buffer's reach, the answer is empty whatever its exact shape.
    const reach = bufferReach(polygons, buffer.value, buffer.unit);
    if (reach && !catalog.eventsMayLieIn(versionIds, reach)) return { type: 'polygons', polygons: [], from, buffer, outOfReach: reach };
    polygons = await buffered(buffering, polygons, buffer, spelling('bufferValue'));
    return { type: 'polygons', polygons: forPointTests(polygons), from, buffer };
  };
}
