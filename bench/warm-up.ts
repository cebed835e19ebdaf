// Unmeasured samples before a class is measured. A server just started compiles each route's code
// on first use: on the 10M database, 60 lookups by id from a fresh server had a p50 of 2.02 ms over
// HTTP, 300 of 1.53 ms and 1,000 of 1.34 ms (2026-11-23, load 0.9-1.4), so a class measured cold
// reports the compiler, not the query. Fresh samples (not the measured ones, whose blocks would
// then be cached), as many as fit in a small time budget: a slow class gets one.
export const WARM_UP = { samples: 20, budgetMs: 2_000 };

/** Runs `sample` with fresh parameters until WARM_UP's count or time budget is spent. */
export async function warmUp(sample: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  for (let i = 0; i < WARM_UP.samples && performance.now() - started < WARM_UP.budgetMs; i++) await sample();
}
