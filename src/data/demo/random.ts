// A seeded PRNG (sfc32) and the few distributions the demo needs: the demo must be identical for
// a given seed on every machine, so Math.random is never used.
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A copy that goes on with the same stream, independently of this one. */
  clone(): Random {
    const copy = Object.create(Random.prototype) as Random;
    copy.a = this.a;
    copy.b = this.b;
    copy.c = this.c;
    copy.d = this.d;
    return copy;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a >>>= 0; this.b >>>= 0; this.c >>>= 0; this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  int(min: number, maxInclusive: number): number {
    return Math.floor(this.between(min, maxInclusive + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight: entries are [item, weight]. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let x = this.next() * total;
    for (const [item, w] of entries) {
      x -= w;
      if (x < 0) return item;
    }
    return entries[entries.length - 1]![0];
  }

  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal with the given median; sigma sets the tail. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Exponential with the given mean: the wait between events that come at random. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }

  /** Poisson with the given mean (Knuth's method: the means here are small). */
  poisson(mean: number): number {
    const limit = Math.exp(-mean);
    let k = 0;
    for (let p = this.next(); p > limit; p *= this.next()) k++;
    return k;
  }

  hex(length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }
}
