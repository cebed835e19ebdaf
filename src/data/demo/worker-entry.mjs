// Entry of the demo generator's worker thread. A worker starts without the TypeScript loader the
// launcher registered in the main thread, so it registers tsx itself before loading the worker.
import { register } from 'tsx/esm/api';

register();
await import('./generator-worker.ts');
