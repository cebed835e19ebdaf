// A chunk of a streamed DuckDB result lives in native memory that V8 does not see: it is freed only
// when the garbage collector finalizes the chunk's small JS wrapper. Wrappers die young, but a
// stream allocates so little on the JS heap that the young generation fills (and is collected)
// only every few thousand chunks; meanwhile each dead wrapper still holds its chunk, up to 1.2 MB
// of entries. Reading the point files' records of 10M events (5,000 chunks) took the process to
// 4.6 GiB with DuckDB held to 1.5GB, and 2.0 GiB with a minor collection every 100 chunks, which
// also made the read faster, 35.0 s against 39.2 (2026-11-28, docs/performance.md, "Loading").
// So every stream counts its chunks here, and a minor collection runs every RELEASE_EVERY of them.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Chunks read between two minor collections: some 40-80 MB of entries, a collection of about a millisecond. */
const RELEASE_EVERY = 64;

type Collect = (options: { type: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;

/**
 * V8's collector, reached without starting Node with --expose-gc: the flag set now holds for a
 * context made after it, whose global `gc` is the same collector.
 */
const collect: Collect = (() => {
  const exposed = (globalThis as { gc?: Collect }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Collect;
})();

let unreleased = 0;

/** Counts a chunk read from DuckDB; every RELEASE_EVERY chunks, frees those whose wrappers are dead. */
export function chunkRead(): void {
  if (++unreleased < RELEASE_EVERY) return;
  unreleased = 0;
  collect({ type: 'minor' });
}
