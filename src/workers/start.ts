// Worker threads running one of the project's own modules, from the compiled build (dist/) or from
// source. A worker does not inherit the main thread's TypeScript loader, so from source an entry
// registers it before importing the module.
import { Worker } from 'node:worker_threads';

/** The module `name` beside the caller (`import.meta.url`), with the caller's extension. */
export function siblingModule(callerUrl: string, name: string): URL {
  return new URL(`./${name}.${callerUrl.endsWith('.ts') ? 'ts' : 'js'}`, callerUrl);
}

export function startWorker(module: URL, workerData: unknown): Worker {
  if (!module.pathname.endsWith('.ts')) return new Worker(module, { workerData });
  return new Worker(new URL('./ts-entry.mjs', import.meta.url), { workerData, argv: [module.href] });
}
