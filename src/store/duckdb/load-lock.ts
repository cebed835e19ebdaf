// One writer per database at a time. Two loads that each copied the file and renamed their copy
// over it lost the first one's data while both reported success; now a load takes `<db>.lock`
// first, and a second load waits for it. The lock appears whole: its holder is written to a file of
// the process's own, then hard-linked to `<db>.lock`, which fails if the lock exists. (Created empty
// and then written, a load killed in between left an empty lock that every later load waited on for
// ever.) A lock whose process is gone (a killed load) is taken over, and so is one that cannot be
// read and has not changed for STALE_UNREADABLE_MS. Whoever holds the lock knows no other load
// runs, so it removes the working copies killed loads left behind (`<db>.loading-<pid>` and its
// scratch file).
import { linkSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { processAlive, type LockHolder } from '../writer.ts';

export type { LockHolder };

/** A lock no one can read (written by an older version, or damaged) that is this old is taken over. */
export const STALE_UNREADABLE_MS = 10_000;

function unreadableAndOld(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > STALE_UNREADABLE_MS;
  } catch {
    return false;
  }
}

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
    const own = `${path}.${process.pid}`;
    for (;;) {
      try {
        writeFileSync(own, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() } satisfies LockHolder));
        linkSync(own, path);
        return new LoadLock(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      } finally {
        rmSync(own, { force: true });
      }
      const holder = readHolder(path);
      if ((holder && !processAlive(holder.pid)) || (!holder && unreadableAndOld(path))) {
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
  // A load's working copy beside the database, and an update's layer being written (layers.ts).
  return [...staleIn(dirname(target), `${basename(target)}.loading-`), ...staleIn(`${target}.layers`, 'loading-')];
}

function staleIn(dir: string, prefix: string): { path: string; bytes: number }[] {
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
