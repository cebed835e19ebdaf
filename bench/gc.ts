// A full garbage collection on demand, without starting Node with --expose-gc: the benchmark's own
// process holds the peers' rows (99,999 of them for the big page) and must not make the next
// engine's timing pay for collecting them.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export function collectGarbage(): void {
  gc();
}
