// Progress on long runs (rows, rate, time left), on a terminal only: CI logs stay quiet.
export function progressReporter(label: string, expected?: number) {
  const started = Date.now();
  const enabled = Boolean(process.stderr.isTTY) && !process.env['CI'];
  let last = 0;
  return {
    update(rows: number): void {
      if (!enabled || Date.now() - last < 500) return;
      last = Date.now();
      const seconds = (Date.now() - started) / 1000;
      const rate = rows / Math.max(seconds, 0.001);
      const left = expected && rate > 0 ? `, ~${Math.max(0, Math.round((expected - rows) / rate))} s left` : '';
      process.stderr.write(`\r${label}: ${rows.toLocaleString('en')} rows, ${Math.round(rate).toLocaleString('en')} rows/s${left}   `);
    },
    done(): void {
      if (enabled && last > 0) process.stderr.write('\n');
    },
  };
}

/** Printed when a change waits for another load of the same database to finish. */
export function waitingNotice(holder: { pid: number; startedAt: string }): void {
  process.stderr.write(`waiting for the load by process ${holder.pid} (started ${holder.startedAt}) to finish...\n`);
}
