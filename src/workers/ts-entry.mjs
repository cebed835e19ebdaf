// Entry of a worker thread run from source (src/workers/start.ts): registers tsx, then loads the
// module named by the last argument.
import { register } from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
