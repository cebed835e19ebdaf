// EXPLAIN (ANALYZE, BUFFERS) of the PostgreSQL engine's own SQL (compileWhere, compileSearch) for
// list requests, on the benchmark's PostgreSQL cluster (docs/performance.md, "The PostgreSQL engine"):
//   node --import tsx bench/explain-postgres.ts "$PWD/bench/cache/engine-pg-1000000-seed1" '{"name": "datasets=...&limit=100&offset=0"}'
import pg from 'pg';
import { VersionScope } from '../src/store/postgres/lineage.ts';
import { readPlacements } from '../src/store/postgres/versions.ts';
import { openStores } from '../src/store/engines.ts';
import { normalizeListQuery } from '../src/query/normalize.ts';
import { readQueryString, validateAgainst } from '../src/http/wire-syntax.ts';
import { ProblemCollector } from '../src/query/errors.ts';
import { ListGetQuerySchema, type Paging } from '../src/query/schema.ts';
import { compileSearch, compileWhere } from '../src/store/postgres/compile.ts';
import { startCluster } from '../test/helpers/postgres.ts';

const cluster = await startCluster({ dir: process.argv[2]!, settings: ['shared_buffers=2GB', 'work_mem=64MB', 'jit=off'] });
const url = cluster.urlOf('events');
const stores = await openStores({ engine: 'postgres', url }, {}, undefined, false);
const store = stores.current();
const c = new pg.Client({ connectionString: url });
await c.connect();
const requests: Record<string, string> = JSON.parse(process.argv[3]!);
for (const [name, qs] of Object.entries(requests)) {
  const problems = new ProblemCollector();
  const read = readQueryString(qs, ListGetQuerySchema, problems, 'x');
  validateAgainst(ListGetQuerySchema, read, problems);
  problems.throwIfAny();
  const list = await normalizeListQuery(read.values as never, read.values as unknown as Paging, { catalog: store, access: { canRead: () => true } } as never);
  const scope = new VersionScope(await readPlacements(c));
  const where = compileWhere(list, scope);
  const page = compileSearch(list, scope);
  for (const [what, sql, params] of [['count', `SELECT count(*) FROM events WHERE ${where.sql}`, where.params], ['page', page.sql, page.params]] as const) {
    await c.query({ text: sql, values: [...params] }); // warm
    const plan = (await c.query({ text: `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, values: [...params] })).rows.map((r) => r['QUERY PLAN']);
    console.log(`\n### ${name} (${what})\n${plan.join('\n')}`);
  }
}
await c.end();
await stores.close();
cluster.stop();
