// The server's view of a PostgreSQL database: a snapshot of the catalog, replaced when a load
// commits. Every second (and on SIGHUP) one small query reads the generation the last writer
// stamped; when it has changed, the catalog is read again and new requests use the new snapshot,
// while requests already running finish with the one they started with. Several servers (replicas)
// can serve one database this way, each noticing loads on its own.
import type { EventStore, StoreProvider } from '../store.ts';
import type { ReloadLog } from '../duckdb/reloading-store.ts';
import { readCatalog, readGeneration } from './catalog.ts';
import { describeUrl } from './connection.ts';
import { PostgresPool, PostgresStore, type PostgresStoreOptions } from './postgres-store.ts';

export class PostgresStores implements StoreProvider {
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private readonly onSignal = () => void this.refresh('SIGHUP');

  private constructor(
    private readonly db: PostgresPool,
    private store: PostgresStore,
    private readonly options: PostgresStoreOptions,
    private readonly log: ReloadLog,
  ) {}

  static async open(options: PostgresStoreOptions, log: ReloadLog = { info: () => {}, error: () => {} }, watch = true): Promise<PostgresStores> {
    const db = new PostgresPool(options);
    try {
      const contents = await db.use((c) => readCatalog(c));
      const provider = new PostgresStores(db, new PostgresStore(db, contents), options, log);
      if (watch) {
        provider.timer = setInterval(() => void provider.refresh('generation changed'), 1000).unref();
        process.on('SIGHUP', provider.onSignal);
      }
      return provider;
    } catch (e) {
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
        const changed = await this.db.use(async (c) => {
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

  async close(): Promise<void> {
    clearInterval(this.timer);
    process.off('SIGHUP', this.onSignal);
    await this.checking;
    await this.db.close();
  }
}
