// What the benchmark, the fuzzer and the soak share: a demo database built by the real CLI and kept
// in bench/cache (keyed by size and seed), and the real server on a free port with a token.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TokenFile } from '../src/auth/tokens.ts';

export const BIN = join(import.meta.dirname, '../bin/vessel-events.js');
export const CACHE_DIR = join(import.meta.dirname, 'cache');

export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** The demo database of this size and seed, built on first use. */
export function demoDatabase(events: number, seed: number): string {
  mkdirSync(CACHE_DIR, { recursive: true });
  const dbPath = join(CACHE_DIR, `events-${events}-seed${seed}.duckdb`);
  if (!existsSync(dbPath)) {
    log(`building ${dbPath} (${events} events)...`);
    const built = spawnSync(process.execPath, [BIN, 'demo', '--events', String(events), '--seed', String(seed), '--db', dbPath], { stdio: 'inherit', env: { ...process.env, CI: 'true' } });
    if (built.status !== 0) throw new Error('building the demo database failed');
  }
  return dbPath;
}

export interface RunningServer {
  base: string;
  secret: string;
  pid: number;
  stop(): void;
}

/** `vessel-events serve` on the database (a DuckDB file, or the arguments naming one), with a fresh token named after the tool. */
export async function startServer(database: string | string[], tool: string, extraArgs: string[] = []): Promise<RunningServer> {
  const tokens = new TokenFile(join(CACHE_DIR, `${tool}-tokens.json`));
  tokens.revoke(tool);
  const secret = tokens.create(tool, ['public-*']);
  const server = spawn(process.execPath, [BIN, 'serve', ...(typeof database === 'string' ? ['--db', database] : database), '--port', '0', '--tokens', tokens.path, '--log-level', 'warn', ...extraArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (d: Buffer) => {
      const m = /serving (http:\/\/\S+)/.exec((out += d));
      if (m) resolve(m[1]!);
    });
    server.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  // However the tool ends (an error, a signal), the server it started goes with it.
  process.on('exit', () => server.kill('SIGTERM'));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(1));
  return { base, secret, pid: server.pid!, stop: () => server.kill('SIGTERM') };
}

/** The server's resident memory (VmRSS) or its peak (VmHWM), MiB. */
export function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/**
 * The server's peak resident memory since the last call (MiB), and over its whole life so far: the
 * kernel's peak (VmHWM) is read, then reset to the current RSS (`clear_refs`), so each class of the
 * benchmark reports its own peak. Where the reset is refused, every peak is the lifetime one.
 */
export function peakTracker(pid: number): { sinceLast(): number; lifetime(): number } {
  let lifetime = 0;
  return {
    sinceLast() {
      const peak = rssMiB(pid, 'VmHWM');
      lifetime = Math.max(lifetime, peak);
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        // Not Linux, or not allowed: the peaks stay lifetime peaks.
      }
      return peak;
    },
    lifetime: () => Math.max(lifetime, rssMiB(pid, 'VmHWM')),
  };
}
