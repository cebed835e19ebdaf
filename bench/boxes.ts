// The polygon classes' boxes: where fishing happens, so each box holds events (an EEZ drawn at
// random often held none, which measured an empty answer), for the benchmark (run.ts) and the
// comparison with the peers (compare.ts) alike.

/** Half a box's side in degrees: 6-degree boxes. */
export const BOX_HALF_DEGREES = 3;

/** A GeoJSON box `half` degrees either side of a point, kept within the world. */
export const box = (lat: number, lon: number, half = BOX_HALF_DEGREES) => {
  const [s, n] = [Math.max(-90, lat - half), Math.min(90, lat + half)];
  const [w, e] = [Math.max(-180, lon - half), Math.min(180, lon + half)];
  return { type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] };
};
