// The server's view of a PostgreSQL database: a snapshot of the catalog, replaced when a load
// commits. Every second (and on SIGHUP) one small query reads the generation the last writer
// stamped; when it has changed, the catalog is read again and new requests use the new snapshot,
// while requests already running finish with the one they started with. Several servers (replicas)
// can serve one database this way, each noticing loads on its own. The catalog is read on a
// connection of its own, outside the pool and its per-request time limit.
import pg from 'pg';
import type { EventStore, StoreProvider } from '../store.ts';
import type { ReloadLog } from '../store.ts';
import { readCatalog, readGeneration } from './versions.ts';
import { connectionConfig, describeUrl } from './connection.ts';
import { PostgresPool, PostgresStore, type PostgresStoreOptions } from './postgres-store.ts';

export class PostgresStores implements StoreProvider {
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private readonly onSignal = () => void this.refresh('SIGHUP');

  private constructor(
    private readonly db: PostgresPool,
    /** The catalog's own connection: a pool of one, without the requests' time limit. */
    private readonly catalogPool: pg.Pool,
    private store: PostgresStore,
    private readonly options: PostgresStoreOptions,
    private readonly log: ReloadLog,
  ) {}

  static async open(options: PostgresStoreOptions, log: ReloadLog = { info: () => {}, error: () => {} }, watch = true): Promise<PostgresStores> {
    const db = new PostgresPool(options);
    // Idle, it lets the process exit, as the requests' pool does.
    const catalogPool = new pg.Pool({ ...connectionConfig(options.url), max: 1, allowExitOnIdle: true }).on('error', () => undefined);
    try {
      const store = new PostgresStore(db, await onConnection(catalogPool, readCatalog));
      const provider = new PostgresStores(db, catalogPool, store, options, log);
      if (watch) {
        provider.timer = setInterval(() => void provider.refresh('generation changed'), 1000).unref();
        process.on('SIGHUP', provider.onSignal);
      }
      return provider;
    } catch (e) {
      await catalogPool.end().catch(() => undefined);
      await db.close();
      throw new Error(`cannot read ${describeUrl(options.url)}: ${(e as Error).message}`, { cause: e });
    }
  }

  acquire(): EventStore {
    return this.store;
  }

  /** Snapshots share the pool: there is nothing to give back. */
  release(): void {}

  current(): EventStore {
    return this.store;
  }

  /** Reads the catalog again if a load has committed since; a failure keeps the current snapshot. */
  refresh(reason: string): Promise<void> {
    this.checking ??= (async () => {
      try {
        const changed = await onConnection(this.catalogPool, async (c) => ((await readGeneration(c)) === this.store.generation() ? undefined : readCatalog(c)));
        if (changed) {
          this.store = new PostgresStore(this.db, changed);
          this.log.info(`reloaded the catalog of ${describeUrl(this.options.url)} (${reason}): ${changed.versions.length} dataset versions`);
        }
      } catch (e) {
        this.log.error(`reading the catalog of ${describeUrl(this.options.url)} failed, still serving the previous one: ${(e as Error).message}`);
      } finally {
        this.checking = undefined;
      }
    })();
    return this.checking;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    process.off('SIGHUP', this.onSignal);
    await this.checking;
    await this.catalogPool.end().catch(() => undefined);
    await this.db.close();
  }
}

async function onConnection<T>(pool: pg.Pool, read: (c: pg.ClientBase) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    return await read(c);
  } finally {
    c.release();
  }
}
