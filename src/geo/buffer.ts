// Buffers (docs/api.md, "Regions, geometry and buffers"), with turf so units match the interface's exactly. DISSOLVE is the
// buffered shape; DIFFERENCE the ring between the original and the buffered shape.
import { buffer } from '@turf/buffer';
import { difference } from '@turf/difference';
import { convertLength, featureCollection, multiPolygon, type Units } from '@turf/helpers';
import type { Feature, MultiPolygon, Polygon as GeoPolygon } from 'geojson';
import type { Polygon } from './geojson.ts';
import { splitAtAntimeridian } from './antimeridian.ts';

export const BUFFER_UNITS = ['MILES', 'NAUTICALMILES', 'KILOMETERS', 'RADIANS', 'DEGREES'] as const;
export const BUFFER_OPERATIONS = ['DISSOLVE', 'DIFFERENCE'] as const;
export type BufferUnit = (typeof BUFFER_UNITS)[number];
export type BufferOperation = (typeof BUFFER_OPERATIONS)[number];

export const TURF_UNITS: Record<BufferUnit, Units> = {
  MILES: 'miles', NAUTICALMILES: 'nauticalmiles', KILOMETERS: 'kilometers', RADIANS: 'radians', DEGREES: 'degrees',
};

/**
 * The widest buffer in each unit: half the Earth's circumference (turf's sphere), the distance to
 * the antipode. A wider buffer covers the whole Earth and means nothing more; in the hundreds of
 * digits (1e308) it made turf's buffer run for minutes.
 */
export const BUFFER_LIMITS: Record<BufferUnit, number> = Object.fromEntries(
  Object.entries(TURF_UNITS).map(([unit, units]) => [unit, Math.floor(convertLength(Math.PI, 'radians', units) * 1000) / 1000]),
) as Record<BufferUnit, number>;

function polygonsOf(f: Feature<GeoPolygon | MultiPolygon> | null | undefined): Polygon[] {
  if (!f?.geometry) return [];
  return (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates) as Polygon[];
}

/** The buffered area; empty when a negative buffer shrinks the shape away. */
export function bufferPolygons(polygons: Polygon[], value: number, unit: BufferUnit, operation: BufferOperation): Polygon[] {
  const original = multiPolygon(polygons);
  const shape = polygonsOf(buffer(original, value, { units: TURF_UNITS[unit] }) as Feature<GeoPolygon | MultiPolygon> | undefined);
  const buffered = splitAtAntimeridian(shape);
  if (operation === 'DISSOLVE') return buffered;
  // The ring: buffered minus original when growing, original minus shrunk when shrinking.
  if (buffered.length === 0) return value < 0 ? polygons : [];
  const grown = multiPolygon(buffered);
  const ring = value >= 0 ? difference(featureCollection([grown, original])) : difference(featureCollection([original, grown]));
  return polygonsOf(ring as Feature<GeoPolygon | MultiPolygon> | null);
}
