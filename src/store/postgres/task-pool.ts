// Independent statements of a writer run on its connections at once (bare-tables.ts says why): each
// connection takes the next task as soon as it is free. PostgreSQL runs a connection's statement
// on one core, so two connections keep both of this machine's cores busy where one left one idle.
import type pg from 'pg';

export interface PoolTask {
  /** What the task writes, for an error's message. */
  name: string;
  /** The task's cost relative to the others' (the largest are taken first, so that none is left alone at the end). */
  weight: number;
  /** Whether only the writer's own connection may run it: it writes tables readers see, which must land with its transaction. */
  writerOnly?: boolean;
  run(c: pg.ClientBase): Promise<void>;
}

/**
 * Runs every task, the writer's connection first in `connections`; resolves when all are done.
 * On a failure no connection takes another task, and the first failure is thrown once every
 * connection has finished the one it was running.
 */
export async function runTasks(connections: readonly pg.ClientBase[], tasks: readonly PoolTask[]): Promise<void> {
  const pending = [...tasks].sort((a, b) => b.weight - a.weight);
  let failure: { error: unknown } | undefined;
  const work = async (c: pg.ClientBase, writer: boolean) => {
    for (;;) {
      if (failure) return;
      const i = pending.findIndex((t) => writer || !t.writerOnly);
      if (i < 0) return;
      const [task] = pending.splice(i, 1);
      try {
        await task!.run(c);
      } catch (error) {
        failure ??= { error: error instanceof Error ? Object.assign(error, { message: `${task!.name}: ${error.message}` }) : error };
      }
    }
  };
  await Promise.all(connections.map((c, i) => work(c, i === 0)));
  if (failure) throw failure.error;
}
