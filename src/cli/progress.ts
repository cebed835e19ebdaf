// Progress on long runs: rows read, their rate and the time left while rows are read; then each
// later phase of a load by name, with the time it has taken and an estimate of what is left. The
// estimate of a phase is the reading time scaled by how long that phase took beside reading in
// measured loads (ESTIMATES below), so it follows the machine's speed; a phase that runs past its
// estimate says so rather than sitting at "~0 s left". At the end, one line gives the time of each
// phase. On a terminal one line is redrawn every second; written to a file or a service's log
// (standard error not a terminal), each line is written once and the rows read once a minute, so a
// load of an hour leaves some sixty lines, not thousands. CI logs stay quiet.

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

/** How progress is shown: redrawn on a terminal, written once per line elsewhere, or not at all. */
export type ProgressMode = 'terminal' | 'lines' | 'quiet';

/** Rows read are reported this often when lines are kept (a log), every half second on a terminal. */
const LOG_INTERVAL_MS = 60_000;

function defaultMode(): ProgressMode {
  if (process.env['CI']) return 'quiet';
  return process.stderr.isTTY ? 'terminal' : 'lines';
}

/**
 * `first`: what the first phase does with its rows (`reading` files, `generating` the demo);
 * `sink`: where the lines go (tests), by default standard error; `mode`: by default from standard
 * error (a terminal or not) and CI.
 */
export function progressReporter(label: string, expected?: number, first = 'reading', sink?: (text: string) => void, mode: ProgressMode = sink ? 'terminal' : defaultMode()) {
  const enabled = mode !== 'quiet';
  const started = Date.now();
  /** When rows were last reported; none yet, so the first report is written at once. */
  let last: number | undefined;
  let readingSeconds = 0;
  let phase: { name: string; started: number } | undefined;
  let ticker: NodeJS.Timeout | undefined;
  const durations: string[] = [];
  const out = sink ?? ((t: string) => process.stderr.write(t));
  const write = mode === 'terminal' ? (text: string) => out(`\r${text}\x1b[K`) : (text: string) => out(`${text}\n`);
  /** The final line: on a terminal it ends the redrawn one. */
  const writeLast = mode === 'terminal' ? (text: string) => write(`${text}\n`) : write;
  const seconds = (from: number) => (Date.now() - from) / 1000;

  const endPhase = () => {
    if (ticker) clearInterval(ticker);
    ticker = undefined;
    if (phase) durations.push(`${phase.name} ${seconds(phase.started).toFixed(0)} s`);
    phase = undefined;
  };
  const estimateOf = (name: string) => ((ESTIMATES[first] ?? ESTIMATES['reading']!)[name] ?? ((s: number) => 0.2 * s))(readingSeconds);
  const showPhase = () => {
    if (!phase) return;
    const took = seconds(phase.started);
    const estimate = estimateOf(phase.name);
    const left = estimate - took;
    const tail = left >= 1 ? `~${Math.round(left)} s left` : took > 2 ? `longer than the ~${Math.max(1, Math.round(estimate))} s it usually takes` : 'almost done';
    write(`${label}: ${phase.name}, ${Math.round(took)} s, ${tail}`);
  };

  return {
    /** Rows read so far (the reading phase). */
    update(rows: number): void {
      if (!enabled || (last !== undefined && Date.now() - last < (mode === 'lines' ? LOG_INTERVAL_MS : 500))) return;
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
      // In a log a phase's line is written once, when it starts; the closing line gives its time.
      if (mode === 'lines') return write(`${label}: ${name}, ~${Math.max(1, Math.round(estimateOf(name)))} s expected`);
      showPhase();
      ticker = setInterval(showPhase, 1000);
      ticker.unref();
    },
    done(): void {
      if (!phase && readingSeconds === 0) readingSeconds = seconds(started);
      endPhase();
      if (enabled && (last !== undefined || durations.length > 0)) writeLast(`${label}: done in ${seconds(started).toFixed(0)} s (${first} ${readingSeconds.toFixed(0)} s${durations.length ? `, ${durations.join(', ')}` : ''})`);
    },
  };
}

/** Printed when a change waits for another load of the same database to finish. */
export function waitingNotice(holder: { pid: number; startedAt: string }): void {
  process.stderr.write(`waiting for the load by process ${holder.pid} (started ${holder.startedAt}) to finish...\n`);
}
