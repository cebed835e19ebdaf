// Polygon edges grouped in latitude bands, for the even-odd point-in-polygon test: a horizontal
// ray at a latitude can only cross edges whose latitude span meets that latitude's band, so a
// point tests a few dozen edges instead of an EEZ's thousands. Exact: an edge goes in every band
// its span meets. Used by the demo's region tagging (JS) and the polygon filter (bound to SQL).

/** [lon1, lat1, lon2, lat2] */
export type Edge = [number, number, number, number];

export class LatitudeBands {
  readonly minLat: number;
  readonly height: number;
  readonly bands: Edge[][];

  /** About `edgesPerBand` edges per band, at most `maxBands` bands. */
  constructor(edges: readonly Edge[], edgesPerBand: number, maxBands: number) {
    let minLat = Infinity;
    let maxLat = -Infinity;
    for (const e of edges) {
      minLat = Math.min(minLat, e[1], e[3]);
      maxLat = Math.max(maxLat, e[1], e[3]);
    }
    const count = Math.max(1, Math.min(maxBands, Math.ceil(edges.length / edgesPerBand)));
    this.minLat = minLat;
    this.height = (maxLat - minLat) / count || 1;
    this.bands = Array.from({ length: count }, () => []);
    for (const e of edges) {
      for (let b = this.bandOf(Math.min(e[1], e[3])); b <= this.bandOf(Math.max(e[1], e[3])); b++) this.bands[b]!.push(e);
    }
  }

  /** The band of a latitude; latitudes outside the span fall in the first or last band. */
  bandOf(lat: number): number {
    return Math.min(this.bands.length - 1, Math.max(0, Math.floor((lat - this.minLat) / this.height)));
  }
}
