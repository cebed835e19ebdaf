// Live reloads: a load renames a complete new database file over the served path (writer.ts); the
// server notices (file identity polled once a second, or SIGHUP), opens the new file, and serves
// new requests from it. Requests already running finish on the file they started with, which is
// closed when the last of them releases it; nobody ever sees half of a load.
import { unwatchFile, watchFile } from 'node:fs';
import type { EventStore, ReloadLog, StoreProvider } from '../store.ts';
import { catalogueIdentity as identity, DuckDbStore, type DuckDbStoreOptions } from './duckdb-store.ts';
import { layersFolder } from './layers.ts';

interface Held {
  store: DuckDbStore;
  users: number;
  retired: boolean;
}



export class ReloadingStore implements StoreProvider {
  private held: Held;
  private readonly all = new Map<EventStore, Held>();
  private seen: string;
  private reloading: Promise<void> | undefined;
  private readonly onSignal = () => void this.reload('SIGHUP');

  private constructor(
    private readonly options: DuckDbStoreOptions,
    first: DuckDbStore,
    private readonly log: ReloadLog,
  ) {
    this.held = { store: first, users: 0, retired: false };
    this.all.set(first, this.held);
    this.seen = identity(options.path);
  }

  static async open(options: DuckDbStoreOptions, log: ReloadLog = { info: () => {}, error: () => {} }, watch = true): Promise<ReloadingStore> {
    const provider = new ReloadingStore(options, await DuckDbStore.open(options), log);
    if (watch) {
      // An update publishes a layer (layers.ts): its folder changes, the database file does not.
      for (const watched of [options.path, layersFolder(options.path)]) {
        watchFile(watched, { interval: 1000, persistent: false }, () => {
          if (identity(options.path) !== provider.seen) void provider.reload('file changed');
        });
      }
      process.on('SIGHUP', provider.onSignal);
    }
    return provider;
  }

  acquire(): EventStore {
    this.held.users++;
    return this.held.store;
  }

  release(store: EventStore): void {
    const held = this.all.get(store);
    if (!held) return;
    held.users--;
    this.closeIfDone(held);
  }

  current(): EventStore {
    return this.held.store;
  }

  refresh(reason: string): Promise<void> {
    return identity(this.options.path) === this.seen ? Promise.resolve() : this.reload(reason);
  }

  /** Opens the file again and makes it the current store; a failed open keeps serving the old one. */
  reload(reason: string): Promise<void> {
    this.reloading ??= (async () => {
      try {
        this.seen = identity(this.options.path);
        const store = await DuckDbStore.open(this.options);
        const old = this.held;
        this.held = { store, users: 0, retired: false };
        this.all.set(store, this.held);
        old.retired = true;
        this.closeIfDone(old);
        this.log.info(`reloaded ${this.options.path} (${reason}): ${store.versions().length} dataset versions`);
        for (const warning of store.storageWarnings()) this.log.error(warning);
      } catch (e) {
        this.log.error(`reload of ${this.options.path} failed, still serving the previous data: ${(e as Error).message}`);
      } finally {
        this.reloading = undefined;
      }
    })();
    return this.reloading;
  }

  private closeIfDone(held: Held): void {
    if (held.retired && held.users === 0) {
      this.all.delete(held.store);
      void held.store.close();
    }
  }

  async close(): Promise<void> {
    unwatchFile(this.options.path);
    unwatchFile(layersFolder(this.options.path));
    process.off('SIGHUP', this.onSignal);
    for (const held of this.all.values()) await held.store.close();
    this.all.clear();
  }
}
