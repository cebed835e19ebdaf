// Shapes that cross the antimeridian. turf's buffer writes longitudes back into [-180, 180], so the
// buffer of a shape that touches 180° (Kiribati's and Fiji's EEZs are cut there) comes back as a
// ring that jumps from 179.99 to -179.98 and back: read as it stands, that ring spans the globe
// the other way round and leaves out the very points it was drawn around. Such a ring is made
// continuous again (longitudes past 180), then cut at the antimeridian into pieces that each lie
// within [-180, 180], as the engines' point-in-polygon tests expect.
import { bboxClip } from '@turf/bbox-clip';
import { polygon as turfPolygon } from '@turf/helpers';
import type { Polygon, Ring } from './geojson.ts';

/**
 * The ring with each longitude shifted by whole turns so that no edge is longer than 180°. A ring
 * that goes round a pole (Antarctica's EEZ, 8489, and its buffer) ends a whole turn from where it
 * started: it is closed along that pole's parallel, which is what it encloses on a flat map.
 */
function continuous(ring: Ring, near: number): Ring {
  const out: Ring = [];
  let previous = near;
  for (const [lon, lat] of ring) {
    const shifted = lon + 360 * Math.round((previous - lon) / 360);
    out.push([shifted, lat]);
    previous = shifted;
  }
  const [first, last] = [out[0], out[out.length - 1]];
  if (first && last && Math.abs(last[0]! - first[0]!) > 1e-9) {
    const pole = out.reduce((sum, [, lat]) => sum + lat!, 0) < 0 ? -90 : 90;
    out.push([last[0]!, pole], [first[0]!, pole], [first[0]!, first[1]!]);
  }
  return out;
}

/** Polygons within [-180, 180], cut at the antimeridian where a ring crosses it. */
export function splitAtAntimeridian(polygons: Polygon[]): Polygon[] {
  const result: Polygon[] = [];
  for (const rings of polygons) {
    const outer = rings[0];
    if (!outer || outer.length === 0) continue;
    const unwrapped = rings.map((ring) => continuous(ring, outer[0]![0]));
    const lons = unwrapped.flat().map((p) => p[0]);
    const [min, max] = [Math.min(...lons), Math.max(...lons)];
    if (min >= -180 && max <= 180) {
      result.push(rings);
      continue;
    }
    // Each whole turn the shape reaches into, clipped to it and shifted back.
    for (let turn = Math.floor((min + 180) / 360); turn <= Math.floor((max + 180) / 360); turn++) {
      const west = -180 + 360 * turn;
      const clipped = bboxClip(turfPolygon(unwrapped), [west, -90, west + 360, 90]).geometry;
      const pieces = (clipped.type === 'Polygon' ? [clipped.coordinates] : clipped.coordinates) as Polygon[];
      for (const piece of pieces) {
        const shifted = piece.map((ring) => ring.map(([lon, lat]): [number, number] => [lon - 360 * turn, lat])).filter((ring) => ring.length >= 4);
        if (shifted.length > 0 && shifted[0]!.length >= 4) result.push(shifted);
      }
    }
  }
  return result;
}
