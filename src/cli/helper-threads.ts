// The event loop answers every request, /healthz included; the engine's threads, libuv's pool
// (compression, file reads) and the geometry worker do the heavy work. On a machine with few cores
// they compete for the same CPU, and the kernel shares it evenly: a health probe then waits behind
// a query's scan. Giving every thread but the event loop's a lower priority (nice 10) lets the
// loop run first whenever it has work, and costs the heavy work nothing when it is alone.
// Measured with `npm run fuzz -- --requests 4000 --events 20000` (docs/reliability.md).
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

const HELPER_NICENESS = 10;
const RESCAN_MS = 2_000;

/** Lowers the priority of the process's other threads now and as new ones start (Linux only). */
export function yieldHelperThreads(): () => void {
  if (process.platform !== 'linux') return () => {};
  const lower = () => {
    let tasks: string[];
    try {
      tasks = readdirSync('/proc/self/task');
    } catch {
      return;
    }
    for (const task of tasks) {
      const tid = Number(task);
      if (tid === process.pid) continue;
      try {
        // On Linux a thread id names that thread alone; a thread that has ended is skipped.
        if (getPriority(tid) < HELPER_NICENESS) setPriority(tid, HELPER_NICENESS);
      } catch {
        // It ended between the listing and the call.
      }
    }
  };
  lower();
  // Engines and pools start threads lazily (and a reload opens a new engine): look again every 2 s.
  const timer = setInterval(lower, RESCAN_MS);
  timer.unref();
  return () => clearInterval(timer);
}
