// A PostgreSQL cluster of the tests' own, in a temporary directory on a free port, started and
// stopped by test/run-postgres.ts (no system service needed); the benchmark keeps one in bench/cache. initdb refuses to run as root, so
// as root the cluster runs as the `postgres` user Debian's package creates.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createHash } from 'node:crypto';

export const PG_BIN = process.env.VESSEL_EVENTS_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why a cluster cannot be started here, or undefined when it can. */
export function postgresMissing(): string | undefined {
  if (!existsSync(join(PG_BIN, 'initdb'))) return `PostgreSQL 15 is not installed (${PG_BIN}/initdb): apt-get install postgresql-15 postgresql-15-postgis-3`;
  if (!existsSync('/usr/share/postgresql/15/extension/postgis.control')) return 'PostGIS is not installed: apt-get install postgresql-15-postgis-3';
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const asRoot = process.getuid?.() === 0;

function run(command: string, args: string[]): void {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
}

/**
 * The folder itself, or, when the server's user cannot reach it (as root, a checkout under a
 * private folder such as mktemp's), one of the same name in the temporary folder, which it can.
 */
export function reachableByServer(dir: string): string {
  if (!asRoot) return dir;
  const parent = dirname(dir);
  mkdirSync(parent, { recursive: true });
  if (spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', parent]).status === 0) return dir;
  return join(tmpdir(), `vessel-events-${createHash('sha256').update(dir).digest('hex').slice(0, 12)}-${basename(dir)}`);
}

export interface Cluster {
  /** Its data directory. */
  dir: string;
  /** The URL of its `postgres` database, as the superuser `postgres`. */
  url: string;
  /** The URL of another database of the cluster. */
  urlOf(database: string): string;
  stop(): void;
}

/**
 * Starts a cluster (fsync off: it is rebuilt if lost): a new one in a temporary directory that
 * stop() removes, or, given `dir`, the one there (made on first use and kept: the benchmark's).
 * `settings` are further server settings (`name=value`).
 */
export async function startCluster(options: { dir?: string; settings?: string[] } = {}): Promise<Cluster> {
  const missing = postgresMissing();
  if (missing) throw new Error(missing);
  const keep = options.dir !== undefined;
  const dir = options.dir === undefined ? mkdtempSync(join(tmpdir(), 'vessel-events-pg-')) : reachableByServer(options.dir);
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    mkdirSync(dir, { recursive: true });
    if (asRoot) {
      const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
      chownSync(dir, id('-u'), id('-g'));
    }
    run(join(PG_BIN, 'initdb'), ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  }
  const port = await freePort();
  const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=200', ...(options.settings ?? [])];
  run(join(PG_BIN, 'pg_ctl'), ['-D', dir, '-l', join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} ${settings.map((s) => `-c ${s}`).join(' ')}`, 'start']);
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let stopped = false;
  return {
    dir,
    url: urlOf('postgres'),
    urlOf,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(join(PG_BIN, 'pg_ctl'), ['-D', dir, '-m', keep ? 'fast' : 'immediate', '-w', 'stop']);
      } finally {
        if (!keep) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
