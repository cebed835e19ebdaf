// A map tile of events as a Mapbox Vector Tile (docs/api.md, "Vector tiles"), encoded by
// @maplibre/vt-pbf, the encoder MapLibre itself ships. Below POINT_ZOOM a tile is a layer `cells`:
// one point per cell of a GRID x GRID division of the tile holding events, at the cell's centre, with
// its count per kind, its total and its distinct vessels. From POINT_ZOOM on it is a layer `events`:
// each event at its position, with its id, kind, start and vessel.
import { fromVectorTileJs, GeoJSONWrapper, type Feature } from '@maplibre/vt-pbf';
import { tileCoordinates, type TileBounds } from '../geo/tiles.ts';
import type { TileCell, TilePoint } from '../store/store.ts';

/** Tile units per side, the specification's usual extent. */
export const TILE_EXTENT = 4096;
/** Cells per side of a tile below POINT_ZOOM: 64 x 64, each 4 pixels of a 256-pixel tile. */
export const GRID = 64;
/** From this zoom on, tiles carry the events themselves (a cell of zoom 9 is about 1.2 km across at the equator). */
export const POINT_ZOOM = 10;

function encode(name: string, features: Feature[]): Buffer {
  const layer = new GeoJSONWrapper(features, { version: 2, extent: TILE_EXTENT });
  layer.name = name;
  return Buffer.from(fromVectorTileJs({ layers: features.length ? { [name]: layer } : {} }));
}

export function cellsTile(cells: TileCell[]): Buffer {
  const size = TILE_EXTENT / GRID;
  return encode('cells', cells.map((c) => ({
    type: 1,
    geometry: [[Math.round((c.x + 0.5) * size), Math.round((c.y + 0.5) * size)]],
    tags: { count: c.total, vessels: c.vessels, ...c.counts },
  })));
}

export function pointsTile(tile: TileBounds, points: TilePoint[]): Buffer {
  return encode('events', points.map((p) => ({
    type: 1,
    geometry: [tileCoordinates(tile, p.lon, p.lat, TILE_EXTENT)],
    tags: { id: p.id, type: p.kind, start: new Date(p.startMs).toISOString(), vesselId: p.vesselId },
  })));
}
