// One writer per database at a time. Two loads that each copied the file and renamed their copy
// over it lost the first one's data while both reported success; now a load takes `<db>.lock`
// first (created exclusively), and a second load waits for it. A lock whose process is gone (a
// killed load) is taken over. Whoever holds the lock knows no other load runs, so it removes
// the working copies killed loads left behind (`<db>.loading-<pid>` and its scratch file).
import { closeSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { processAlive, type LockHolder } from '../writer.ts';

export type { LockHolder };

function readHolder(path: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
  } catch {
    // Being written at this very moment, or removed: look again.
    return undefined;
  }
}

export class LoadLock {
  private released = false;
  private constructor(readonly path: string) {}

  /**
   * Takes the database's lock, waiting while another live load holds it (`onWait` is told once,
   * with the holder). A lock left by a dead process is taken over.
   */
  static async acquire(target: string, onWait?: (holder: LockHolder) => void, pollMs = 200): Promise<LoadLock> {
    const path = `${target}.lock`;
    let told = false;
    for (;;) {
      try {
        const fd = openSync(path, 'wx');
        writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() } satisfies LockHolder));
        closeSync(fd);
        return new LoadLock(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = readHolder(path);
      if (holder && !processAlive(holder.pid)) {
        rmSync(path, { force: true });
        continue;
      }
      if (holder && !told) {
        told = true;
        onWait?.(holder);
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    rmSync(this.path, { force: true });
  }
}

/** What killed loads left beside the database; call only while holding its lock. */
export function staleWork(target: string): { path: string; bytes: number }[] {
  const prefix = `${basename(target)}.loading-`;
  const dir = dirname(target);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.startsWith(prefix)).map((n) => {
    const path = join(dir, n);
    let bytes = 0;
    try {
      bytes = statSync(path).size;
    } catch {
      // Gone meanwhile.
    }
    return { path, bytes };
  });
}

export function removeStaleWork(target: string): { path: string; bytes: number }[] {
  const stale = staleWork(target);
  // `<copy>.tmp` is a folder: DuckDB's spill files of a load's sorts.
  for (const { path } of stale) rmSync(path, { force: true, recursive: true });
  return stale;
}
