// How much random work the property and differential suites do, and which tier runs (test/run.ts).
// `npm test` runs a quick share of each, for feedback in a few minutes; CI (CI=true) and
// `npm run test:full` run the full sizes and every suite.
// Seeds are fixed by default, so a run repeats; every failure prints its seed, and the variable
// it names replays it (or tries another).

export const FULL = process.env['CI'] === 'true' || process.env['VESSEL_EVENTS_TEST_FULL'] === '1';

/** Number of random cases: the variable if set, else the full or the quick size. */
export function caseCount(variable: string, full: number, quick: number): number {
  return Number(process.env[variable] ?? (FULL ? full : quick));
}

/** The seed: the variable if set, else the suite's fixed default. */
export function seedOf(variable: string, fixed: number): number {
  return Number(process.env[variable] ?? fixed);
}
