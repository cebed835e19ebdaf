// One vessel directory per opened database, built on the first request that needs it: the store
// changes with every reload, and with it the directory. A build that fails is forgotten, so the
// next request tries again.
import type { EventStore } from '../store/store.ts';
import { VesselDirectory } from './directory.ts';

const built = new WeakMap<object, Promise<VesselDirectory>>();

export function vesselDirectory(store: Pick<EventStore, 'vesselIdentities' | 'vesselRegistry'>): Promise<VesselDirectory> {
  let directory = built.get(store);
  if (!directory) {
    directory = Promise.all([store.vesselIdentities(), store.vesselRegistry()]).then(([identities, registry]) => new VesselDirectory(identities, registry));
    built.set(store, directory);
    directory.catch(() => built.delete(store));
  }
  return directory;
}
