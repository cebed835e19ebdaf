// Web Mercator tiles (the XYZ scheme MapLibre and every web map use): a tile's bounds in longitude
// and latitude, and where a point falls in it. Each point of the world lies in exactly one tile of a
// zoom: a tile holds its west and south edges, the last column its east edge, the top row everything
// north of it and the bottom row everything south (Mercator stops at 85.05 degrees), so the tiles of
// a zoom together hold every event once.

/** Mercator's latitude limit: the top of tile 0/0/0. */
export const MAX_MERCATOR_LAT = 85.0511287798066;
export const MAX_TILE_ZOOM = 22;

/** Mercator y of a latitude (clamped to the limit), in radians: larger to the north. */
export function mercatorY(lat: number): number {
  const clamped = Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
  return Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360));
}

function latOfMercatorY(y: number): number {
  return (Math.atan(Math.sinh(y)) * 180) / Math.PI;
}

export interface TileBounds {
  z: number;
  x: number;
  y: number;
  /** Longitudes: the tile holds west <= lon < east (lon <= east in the last column). */
  west: number;
  east: number;
  /** Latitudes: the tile holds south <= lat < north; the top row up to 90, the bottom row from -90. */
  south: number;
  north: number;
  /** Mercator y of the tile's top and bottom edges (radians). */
  topY: number;
  bottomY: number;
  lastColumn: boolean;
  topRow: boolean;
  bottomRow: boolean;
}

/** Whether z/x/y names a tile. */
export function isTile(z: number, x: number, y: number): boolean {
  const n = 2 ** z;
  return Number.isInteger(z) && z >= 0 && z <= MAX_TILE_ZOOM && Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < n && y < n;
}

/**
 * The tile of a zoom that holds a point: [x, y], by tileBounds' own edges (the Mercator formula
 * alone can put a point on an edge, or off by a rounding, in the tile beside).
 */
export function tileOf(z: number, lon: number, lat: number): [number, number] {
  const n = 2 ** z;
  const clamp = (i: number) => Math.max(0, Math.min(n - 1, i));
  let x = clamp(Math.floor(((lon + 180) / 360) * n));
  let y = clamp(Math.floor(((Math.PI - mercatorY(lat)) / (2 * Math.PI)) * n));
  const t = tileBounds(z, x, y);
  if (lon < t.west && x > 0) x -= 1;
  else if (lon >= t.east && !t.lastColumn) x += 1;
  if (lat >= t.north && !t.topRow) y -= 1;
  else if (lat < t.south && !t.bottomRow) y += 1;
  return [x, y];
}

export function tileBounds(z: number, x: number, y: number): TileBounds {
  const n = 2 ** z;
  const yOf = (row: number) => Math.PI * (1 - (2 * row) / n);
  const topY = yOf(y);
  const bottomY = yOf(y + 1);
  return {
    z, x, y,
    west: (x / n) * 360 - 180,
    east: ((x + 1) / n) * 360 - 180,
    north: y === 0 ? 90 : latOfMercatorY(topY),
    south: y === n - 1 ? -90 : latOfMercatorY(bottomY),
    topY, bottomY,
    lastColumn: x === n - 1,
    topRow: y === 0,
    bottomRow: y === n - 1,
  };
}

/** A point's place in the tile, in units of `extent` from its top-left corner. */
export function tileCoordinates(tile: TileBounds, lon: number, lat: number, extent: number): [number, number] {
  const px = ((lon - tile.west) / (tile.east - tile.west)) * extent;
  const py = ((tile.topY - mercatorY(lat)) / (tile.topY - tile.bottomY)) * extent;
  return [Math.round(px), Math.round(py)];
}
