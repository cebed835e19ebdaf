// A PostgreSQL cluster of the tests' own, in a temporary directory on a free port, started and
// stopped by test/run-postgres.ts (no system service needed). initdb refuses to run as root, so
// as root the cluster runs as the `postgres` user Debian's package creates.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

export interface Cluster {
  /** The URL of its `postgres` database, as the superuser `postgres`. */
  url: string;
  /** The URL of another database of the cluster. */
  urlOf(database: string): string;
  stop(): void;
}

/** Starts a new cluster (fsync off: it lives as long as the tests). */
export async function startCluster(): Promise<Cluster> {
  const missing = postgresMissing();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), 'vessel-events-pg-'));
  if (asRoot) {
    const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  run(join(PG_BIN, 'initdb'), ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  run(join(PG_BIN, 'pg_ctl'), ['-D', dir, '-l', join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`, 'start']);
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let stopped = false;
  return {
    url: urlOf('postgres'),
    urlOf,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(join(PG_BIN, 'pg_ctl'), ['-D', dir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
