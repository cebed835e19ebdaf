// Progress on long runs, on a terminal only (CI logs stay quiet): rows read, their rate and the
// time left while rows are read; then each later phase of a load by name, with the time it has
// taken and an estimate of what is left. The estimate of a phase is the reading time scaled by how
// long that phase took beside reading in measured loads (ESTIMATES below), so it follows the
// machine's speed; a phase that runs past its estimate says so rather than sitting at "~0 s left".
// At the end, one line gives the time of each phase.

/**
 * A phase's usual length from the first phase's, by what that first phase is. Measured on
 * 2026-11-25 with 1,000,000 events: `vessel-events load` of Parquet files took
 * reading 10 s, sorting 16, indexing 16 (point files, and the tables sorted by place and by
 * region), publishing 2; an earlier 10M load that day reading 86 s, sorting 141, indexing
 * 137. `vessel-events demo` took generating 34 s, sorting 14, indexing 13, the reference data 3,
 * publishing 0. PostgreSQL's COPY took about three times the demo's generating (2026-11-23,
 * docs/performance.md). Estimates of 2026-11-23 (sorting and indexing half the reading) had a 10M
 * load's indexing say "longer than the ~49 s it usually takes".
 */
type Estimate = (firstSeconds: number) => number;
/** Phases whose share does not depend on the first phase. */
const EITHER: Record<string, Estimate> = {
  validating: (s) => 0.02 * s,
  copying: (s) => 3 * s,
  'converting to csv': (s) => 0.2 * s,
  'converting to parquet': (s) => 0.2 * s,
};
const ESTIMATES: Record<string, Record<string, Estimate>> = {
  reading: { ...EITHER, sorting: (s) => 1.6 * s, indexing: (s) => 1.6 * s, publishing: (s) => 0.1 * s },
  generating: { ...EITHER, sorting: (s) => 0.4 * s, indexing: (s) => 0.4 * s, 'reference data': () => 5, publishing: (s) => 0.03 * s },
};

/**
 * `first`: what the first phase does with its rows (`reading` files, `generating` the demo);
 * `sink`: where the lines go (tests), by default standard error on a terminal outside CI.
 */
export function progressReporter(label: string, expected?: number, first = 'reading', sink?: (text: string) => void) {
  const enabled = sink !== undefined || (Boolean(process.stderr.isTTY) && !process.env['CI']);
  const started = Date.now();
  let last = 0;
  let readingSeconds = 0;
  let phase: { name: string; started: number } | undefined;
  let ticker: NodeJS.Timeout | undefined;
  const durations: string[] = [];
  const write = (text: string) => (sink ?? ((t: string) => process.stderr.write(t)))(`\r${text}\x1b[K`);
  const seconds = (from: number) => (Date.now() - from) / 1000;

  const endPhase = () => {
    if (ticker) clearInterval(ticker);
    ticker = undefined;
    if (phase) durations.push(`${phase.name} ${seconds(phase.started).toFixed(0)} s`);
    phase = undefined;
  };
  const showPhase = () => {
    if (!phase) return;
    const took = seconds(phase.started);
    const estimate = ((ESTIMATES[first] ?? ESTIMATES['reading']!)[phase.name] ?? ((s: number) => 0.2 * s))(readingSeconds);
    const left = estimate - took;
    const tail = left >= 1 ? `~${Math.round(left)} s left` : took > 2 ? `longer than the ~${Math.max(1, Math.round(estimate))} s it usually takes` : 'almost done';
    write(`${label}: ${phase.name}, ${Math.round(took)} s, ${tail}`);
  };

  return {
    /** Rows read so far (the reading phase). */
    update(rows: number): void {
      if (!enabled || Date.now() - last < 500) return;
      last = Date.now();
      const elapsed = seconds(started);
      const rate = rows / Math.max(elapsed, 0.001);
      const left = expected && rate > 0 ? `, ~${Math.max(1, Math.round((expected - rows) / rate))} s left` : '';
      write(`${label}: ${first}, ${rows.toLocaleString('en')} rows, ${Math.round(rate).toLocaleString('en')} rows/s${left}`);
    },
    /** A later phase starts: it is shown, with its time, every second until the next. */
    phase(name: string): void {
      if (!phase) readingSeconds = seconds(started);
      endPhase();
      phase = { name, started: Date.now() };
      if (!enabled) return;
      showPhase();
      ticker = setInterval(showPhase, 1000);
      ticker.unref();
    },
    done(): void {
      if (!phase && readingSeconds === 0) readingSeconds = seconds(started);
      endPhase();
      if (enabled && (last > 0 || durations.length > 0)) write(`${label}: done in ${seconds(started).toFixed(0)} s (${first} ${readingSeconds.toFixed(0)} s${durations.length ? `, ${durations.join(', ')}` : ''})\n`);
    },
  };
}

/** Printed when a change waits for another load of the same database to finish. */
export function waitingNotice(holder: { pid: number; startedAt: string }): void {
  process.stderr.write(`waiting for the load by process ${holder.pid} (started ${holder.startedAt}) to finish...\n`);
}
