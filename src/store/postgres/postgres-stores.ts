// The server's view of a PostgreSQL database: a snapshot of the catalog, replaced when a load
// commits. Every second (and on SIGHUP) one small query reads the generation the last writer
// stamped; when it has changed, the catalog is read again and new requests use the new snapshot,
// while requests already running finish with the one they started with. Several servers (replicas)
// can serve one database this way, each noticing loads on its own. The catalog is read on a
// connection of its own, outside the pool and its per-request time limit.
import pg from 'pg';
import type { EventStore, StoreProvider } from '../store.ts';
import type { ReloadLog } from '../duckdb/reloading-store.ts';
import { readCatalog, readGeneration } from './catalog.ts';
import { connectionConfig, describeUrl } from './connection.ts';
import { PostgresPool, PostgresStore, type PostgresStoreOptions } from './postgres-store.ts';

export class PostgresStores implements StoreProvider {
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private readonly onSignal = () => void this.refresh('SIGHUP');

  private catalogPool: pg.Pool | undefined;

  private constructor(
    private readonly db: PostgresPool,
    private store: PostgresStore,
    private readonly options: PostgresStoreOptions,
    private readonly log: ReloadLog,
  ) {}

  static async open(options: PostgresStoreOptions, log: ReloadLog = { info: () => {}, error: () => {} }, watch = true): Promise<PostgresStores> {
    const db = new PostgresPool(options);
    let provider: PostgresStores | undefined;
    try {
      const opened = new PostgresStores(db, new PostgresStore(db, { versions: [], groups: new Set(), regions: { ids: new Map(), geometries: new Map() }, generation: 'unread' }), options, log);
      provider = opened;
      opened.store = new PostgresStore(db, await opened.readCatalog((c) => readCatalog(c)));
      if (watch) {
        opened.timer = setInterval(() => void opened.refresh('generation changed'), 1000).unref();
        process.on('SIGHUP', opened.onSignal);
      }
      return opened;
    } catch (e) {
      await provider?.endCatalogClient();
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
        const changed = await this.readCatalog(async (c) => {
          if ((await readGeneration(c)) === this.store.generation()) return undefined;
          return readCatalog(c);
        });
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

  /**
   * Runs a read on the catalog's own connection (a pool of one, without the requests' time limit;
   * idle, it lets the process exit, as the requests' pool does).
   */
  private readCatalog<T>(read: (c: pg.ClientBase) => Promise<T>): Promise<T> {
    this.catalogPool ??= new pg.Pool({ ...connectionConfig(this.options.url), max: 1, allowExitOnIdle: true }).on('error', () => undefined);
    return this.catalogPool.connect().then(async (c) => {
      try {
        return await read(c);
      } finally {
        c.release();
      }
    });
  }

  private async endCatalogClient(): Promise<void> {
    const pool = this.catalogPool;
    this.catalogPool = undefined;
    await pool?.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    process.off('SIGHUP', this.onSignal);
    await this.checking;
    await this.endCatalogClient();
    await this.db.close();
  }
}
