// Custom region geometry (docs/api.md, "Regions, geometry and buffers"): a GeoJSON Polygon, MultiPolygon, Feature or
// FeatureCollection of them, checked and reduced to a list of polygons. Rings are [lon, lat][];
// longitudes past ±180 are allowed (a polygon drawn across the antimeridian).
export type Position = [number, number];
export type Ring = Position[];
export type Polygon = Ring[];

/** Most vertices a request geometry may have (413 above): enough for detailed EEZ outlines. */
export const GEOMETRY_VERTEX_LIMIT = 100_000;

export class GeometryError extends Error {}
export class GeometryTooLarge extends Error {}

function polygonOf(coordinates: unknown, where: string): Polygon {
  if (!Array.isArray(coordinates) || coordinates.length === 0) throw new GeometryError(`${where}: a polygon is a non-empty array of rings`);
  return coordinates.map((ring, r) => {
    const at = `${where}, ring ${r}`;
    if (!Array.isArray(ring) || ring.length < 4) throw new GeometryError(`${at}: a ring needs at least 4 positions (the first repeated last)`);
    const positions = ring.map((p, i): Position => {
      if (!Array.isArray(p) || p.length < 2 || !p.slice(0, 2).every((n) => typeof n === 'number' && Number.isFinite(n))) {
        throw new GeometryError(`${at}, position ${i}: a position is [longitude, latitude] in numbers`);
      }
      const [lon, lat] = p as number[];
      if (lat! < -90 || lat! > 90) throw new GeometryError(`${at}, position ${i}: latitude ${lat} is outside [-90, 90]`);
      if (lon! < -360 || lon! > 360) throw new GeometryError(`${at}, position ${i}: longitude ${lon} is outside [-360, 360]`);
      return [lon!, lat!];
    });
    const [first, last] = [positions[0]!, positions[positions.length - 1]!];
    if (first[0] !== last[0] || first[1] !== last[1]) throw new GeometryError(`${at}: the ring is not closed (its last position must repeat its first)`);
    return positions;
  });
}

function geometryPolygons(g: unknown, where: string): Polygon[] {
  if (typeof g !== 'object' || g === null) throw new GeometryError(`${where}: must be a GeoJSON object`);
  const { type, coordinates } = g as { type?: unknown; coordinates?: unknown };
  if (type === 'Polygon') return [polygonOf(coordinates, where)];
  if (type === 'MultiPolygon') {
    if (!Array.isArray(coordinates) || coordinates.length === 0) throw new GeometryError(`${where}: a MultiPolygon is a non-empty array of polygons`);
    return coordinates.map((c, i) => polygonOf(c, `${where}, polygon ${i}`));
  }
  throw new GeometryError(`${where}: type ${JSON.stringify(type)} is not supported; use Polygon, MultiPolygon, Feature or FeatureCollection`);
}

/** The polygons of a GeoJSON value; throws GeometryError (422) or GeometryTooLarge (413). */
export function parseGeometry(value: unknown): Polygon[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new GeometryError('geometry must be a GeoJSON object');
  const v = value as { type?: unknown; geometry?: unknown; features?: unknown };
  let polygons: Polygon[];
  if (v.type === 'Feature') {
    polygons = geometryPolygons(v.geometry, 'the feature\'s geometry');
  } else if (v.type === 'FeatureCollection') {
    if (!Array.isArray(v.features) || v.features.length === 0) throw new GeometryError('a FeatureCollection needs a non-empty features array');
    polygons = v.features.flatMap((f, i) => {
      if ((f as { type?: unknown })?.type !== 'Feature') throw new GeometryError(`feature ${i}: must be a GeoJSON Feature`);
      return geometryPolygons((f as { geometry?: unknown }).geometry, `feature ${i}`);
    });
  } else {
    polygons = geometryPolygons(value, 'geometry');
  }
  const vertices = polygons.reduce((n, p) => n + p.reduce((m, r) => m + r.length, 0), 0);
  if (vertices > GEOMETRY_VERTEX_LIMIT) throw new GeometryTooLarge(`the geometry has ${vertices} vertices; the limit is ${GEOMETRY_VERTEX_LIMIT}`);
  return polygons;
}

/**
 * Polygons as positions in [-180, 180] can be tested against: a polygon reaching past ±180 (one
 * ring across the antimeridian) is also tested shifted by ∓360, so both sides of the line match.
 */
export function forPointTests(polygons: Polygon[]): Polygon[] {
  return polygons.flatMap((p) => {
    const lons = p.flat().map((pos) => pos[0]);
    const shift = (d: number): Polygon => p.map((ring) => ring.map(([x, y]): Position => [x + d, y]));
    return [p, ...(Math.max(...lons) > 180 ? [shift(-360)] : []), ...(Math.min(...lons) < -180 ? [shift(360)] : [])];
  });
}

export function bboxOf(p: Polygon): [number, number, number, number] {
  let box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const ring of p) for (const [x, y] of ring) box = [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)];
  return box;
}
