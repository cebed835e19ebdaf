// The whole calendar months (UTC) of a time window: what a table counting events by the month they
// start in can sum for it (the statistics rollups, month-stats-plan.ts; PostgreSQL's region_months,
// postgres/region-months.ts). The partial months at the window's edges are counted elsewhere.

/** A window's whole months: the first instant of the first, and of the month after the last; undefined where the window is open. */
export interface WholeMonthSpan {
  /** The first whole month's first instant (epoch ms), or undefined when the window has no start. */
  firstWholeMs: number | undefined;
  /** The first instant of the month after the last whole month, or undefined when the window has no end. */
  afterWholeMs: number | undefined;
}

/** The first instant of the month `ms` falls in. */
function monthOf(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** The first instant of the first month starting at or after `ms`. */
function firstMonthAtOrAfter(ms: number): number {
  const month = monthOf(ms);
  if (month === ms) return month;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/**
 * The whole months of the window [startMs, endMs) (either end open when undefined), or undefined
 * when it holds none: the months from the first starting at or after its start to the one its end
 * falls in, that month excluded.
 */
export function wholeMonthsOf(startMs: number | undefined, endMs: number | undefined): WholeMonthSpan | undefined {
  const firstWholeMs = startMs === undefined ? undefined : firstMonthAtOrAfter(startMs);
  const afterWholeMs = endMs === undefined ? undefined : monthOf(endMs);
  if (firstWholeMs !== undefined && afterWholeMs !== undefined && firstWholeMs >= afterWholeMs) return undefined;
  return { firstWholeMs, afterWholeMs };
}
