// A fixed grid over the globe, for the table of positions sorted by place
// (src/store/duckdb/spatial-table.ts). Cells are half a degree square, numbered tile by tile
// (tiles of 5 x 5 degrees, 10 x 10 cells), so that the cells of a small area fall in a few
// contiguous runs of numbers: a run is one range of the sorted table that its zone maps find.
//
// coverCells sorts the cells a set of polygons reaches into those wholly inside (every position in
// them passes the even-odd test: no need to test it), those an edge comes near (test each position)
// and the rest (no position in them can pass).
import { bboxOf, type Polygon } from './geojson.ts';

export const CELLS_PER_DEGREE = 2;
const ROWS = 180 * CELLS_PER_DEGREE;
const COLUMNS = 360 * CELLS_PER_DEGREE;
const TILE = 10;
const TILE_COLUMNS = COLUMNS / TILE;

/** The row of a latitude in [-90, 90]; 90 itself falls in the last row. */
export function cellRow(lat: number): number {
  return Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) * CELLS_PER_DEGREE)));
}

/** The column of a longitude in [-180, 180]; 180 itself falls in the last column. */
export function cellColumn(lon: number): number {
  return Math.min(COLUMNS - 1, Math.max(0, Math.floor((lon + 180) * CELLS_PER_DEGREE)));
}

export function cellKeyOf(row: number, column: number): number {
  return (Math.floor(row / TILE) * TILE_COLUMNS + Math.floor(column / TILE)) * TILE * TILE + (row % TILE) * TILE + (column % TILE);
}

/** The row and column of a key: cellKeyOf read backwards. */
export function cellOfKey(key: number): { row: number; column: number } {
  const tile = Math.floor(key / (TILE * TILE));
  const within = key % (TILE * TILE);
  return { row: Math.floor(tile / TILE_COLUMNS) * TILE + Math.floor(within / TILE), column: (tile % TILE_COLUMNS) * TILE + (within % TILE) };
}

/** The key of a position: what the loader stores (CELL_KEY_SQL writes the same in SQL). */
export function cellKey(lat: number, lon: number): number {
  return cellKeyOf(cellRow(lat), cellColumn(lon));
}

/** The same arithmetic in SQL over `lat` and `lon` columns (IEEE doubles on both sides). */
export const CELL_KEY_SQL = (() => {
  const row = `least(${ROWS - 1}, greatest(0, floor((lat + 90) * ${CELLS_PER_DEGREE})))::INTEGER`;
  const column = `least(${COLUMNS - 1}, greatest(0, floor((lon + 180) * ${CELLS_PER_DEGREE})))::INTEGER`;
  return `((${row} // ${TILE}) * ${TILE_COLUMNS} + (${column} // ${TILE})) * ${TILE * TILE} + (${row} % ${TILE}) * ${TILE} + (${column} % ${TILE})`;
})();

export interface CellCover {
  /** Keys of cells wholly inside one of the polygons, ascending. */
  inside: number[];
  /** Keys of cells an edge comes near, ascending: their positions need the exact test. */
  edge: number[];
}

/**
 * How far past a cell an edge counts as near it, in degrees. A position's cell is computed in
 * floating point, so a position may lie a rounding error (about 1e-13 degrees) outside its cell;
 * and the exact test's crossing point carries a similar error. An edge farther than this from a
 * cell is on the same side of every position the cell holds, for the exact test too.
 */
const MARGIN = 1e-9;

/** [minLon, minLat, maxLon, maxLat] */
export type Box = readonly [number, number, number, number];

interface CellBox {
  row0: number;
  column0: number;
  rows: number;
  columns: number;
}

/** The rows and columns of the cells a bounding box, widened by MARGIN, meets. */
function cellBoxOf([minLon, minLat, maxLon, maxLat]: Box): CellBox {
  const row0 = cellRow(minLat - MARGIN);
  const column0 = cellColumn(minLon - MARGIN);
  return { row0, column0, rows: cellRow(maxLat + MARGIN) - row0 + 1, columns: cellColumn(maxLon + MARGIN) - column0 + 1 };
}

/** Whether any of the keys is of a cell that a bounding box, widened by MARGIN, meets. */
export function boxMeetsCells(box: Box, keys: Iterable<number>): boolean {
  const { row0, column0, rows, columns } = cellBoxOf(box);
  for (const key of keys) {
    const { row, column } = cellOfKey(key);
    if (row >= row0 && row < row0 + rows && column >= column0 && column < column0 + columns) return true;
  }
  return false;
}

/** The keys of the cells a bounding box, widened by MARGIN, meets (in no particular order). */
export function cellsOfBox(box: Box): number[] {
  const { row0, column0, rows, columns } = cellBoxOf(box);
  const keys: number[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) keys.push(cellKeyOf(row0 + r, column0 + c));
  return keys;
}

/**
 * The cells the polygons reach, or undefined when their bounding boxes together span more than
 * `maxCells` cells (a large area is read the ordinary way). Each polygon is covered within its own
 * bounding box: the parts of an area split at the antimeridian, or far apart, span few cells each
 * where one box around them all spans most of the globe. A cell wholly inside any polygon is inside
 * (the polygons are ORed); one an edge comes near and no polygon holds wholly needs the test.
 * Polygons are those of forPointTests: within [-180, 180], rings closed.
 */
export function coverCells(polygons: readonly Polygon[], maxCells: number): CellCover | undefined {
  const boxes = polygons.map(cellBox);
  if (boxes.reduce((n, box) => n + (box ? box.rows * box.columns : 0), 0) > maxCells) return undefined;
  const inside = new Set<number>();
  const edge = new Set<number>();
  polygons.forEach((polygon, i) => {
    const box = boxes[i];
    if (box) coverPolygon(polygon, box, inside, edge);
  });
  for (const key of inside) edge.delete(key);
  return { inside: [...inside].sort((a, b) => a - b), edge: [...edge].sort((a, b) => a - b) };
}

/** The cells a polygon's bounding box meets; undefined when it has no vertex. */
function cellBox(polygon: Polygon): CellBox | undefined {
  const box = bboxOf(polygon);
  return box[0] <= box[2] && box[1] <= box[3] ? cellBoxOf(box) : undefined;
}

/** Adds the keys of the cells wholly inside one polygon, and of those an edge of it comes near. */
function coverPolygon(polygon: Polygon, { row0, column0, rows, columns }: CellBox, insideKeys: Set<number>, edgeKeys: Set<number>): void {
  // Cells an edge may come near: every cell its bounding box (widened by MARGIN) meets.
  const near = new Uint8Array(rows * columns);
  for (const ring of polygon) for (let i = 0; i + 1 < ring.length; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[i + 1]!;
    const [r1, r2] = [cellRow(Math.min(y1, y2) - MARGIN) - row0, cellRow(Math.max(y1, y2) + MARGIN) - row0];
    const [c1, c2] = [cellColumn(Math.min(x1, x2) - MARGIN) - column0, cellColumn(Math.max(x1, x2) + MARGIN) - column0];
    for (let r = r1; r <= r2; r++) near.fill(1, r * columns + c1, r * columns + c2 + 1);
  }
  // Any other cell is wholly inside or wholly outside the polygon: its centre tells which. Along a
  // row, the even-odd test of the centres needs the row's crossings once.
  for (let r = 0; r < rows; r++) {
    const lat = (row0 + r + 0.5) / CELLS_PER_DEGREE - 90;
    const crossings: number[] = [];
    for (const ring of polygon) for (let i = 0; i + 1 < ring.length; i++) {
      const [x1, y1] = ring[i]!;
      const [x2, y2] = ring[i + 1]!;
      if (y1 > lat !== y2 > lat) crossings.push(((x2 - x1) * (lat - y1)) / (y2 - y1) + x1);
    }
    crossings.sort((a, b) => a - b);
    let right = crossings.length; // crossings east of the centre (the exact test counts those)
    let k = 0;
    for (let c = 0; c < columns; c++) {
      const lon = (column0 + c + 0.5) / CELLS_PER_DEGREE - 180;
      while (k < crossings.length && crossings[k]! <= lon) {
        k++;
        right--;
      }
      const key = cellKeyOf(row0 + r, column0 + c);
      if (near[r * columns + c]) edgeKeys.add(key);
      else if (right % 2 === 1) insideKeys.add(key);
    }
  }
}
