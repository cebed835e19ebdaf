// The lint rule that keeps the code's floors (eslint.config.mjs) refuses what it should, type-only
// imports included, and lets through what each floor may import. CI runs it on src/ (npm run lint).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: join(import.meta.dirname, '../..') });

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const CASES: [file: string, code: string, allowed: boolean, rule?: string][] = [
  ['src/cli/serve.ts', "import { DuckDBInstance } from '@duckdb/node-api';", false],
  ['src/data/load-events.ts', "import type { DuckDBValue } from '@duckdb/node-api';", false],
  ['src/shape/wire.ts', "import pg from 'pg';", false],
  ['src/store/duckdb/x.ts', "import { DuckDBInstance } from '@duckdb/node-api';", true],
  ['src/store/postgres/x.ts', "import pg from 'pg';", true],
  ['src/cli/serve.ts', "import type { FastifyInstance } from 'fastify';", false],
  ['src/http/routes/x.ts', "import type { FastifyInstance } from 'fastify';", true],
  ['src/app.ts', "import cors from '@fastify/cors';", true],
  ['src/domain/kinds.ts', "import type { EventQuery } from '../query/types.ts';", false],
  ['src/domain/record.ts', "import type { Regions } from './regions.ts';", true],
  ['src/query/plan.ts', "import type { Fixture } from '../data/demo/random.ts';", false],
  ['src/query/plan.ts', "import { toEntry } from '../shape/wire.ts';", false],
  ['src/query/plan.ts', "import { compileWhere } from '../store/duckdb/compile.ts';", false],
  ['src/query/plan.ts', "import type { RegionMember } from '../domain/regions.ts';", true],
  ['src/query/plan.ts', "import type { Polygon } from '../geo/geojson.ts';", true],
  ['src/cli/serve.ts', "import { ReloadingStore } from '../store/duckdb/reloading-store.ts';", false],
  ['src/http/routes/x.ts', "import type { PostgresStore } from '../../store/postgres/postgres-store.ts';", false],
  ['src/cli/serve.ts', "import { openStores } from '../store/engines.ts';", true],
  ['src/store/engines.ts', "import { PostgresStores } from './postgres/postgres-stores.ts';", true],
  ['src/store/duckdb/x.ts', "import { buildApp } from '../../app.ts';", false],
  ['src/store/duckdb/x.ts', "import { UsageError } from '../../cli/args.ts';", false],
  // A query is planned once, by src/query/normalize.ts; the stores read query.filters.
  ['src/store/duckdb/x.ts', "import { planFilters } from '../../query/plan.ts';", false],
  ['src/store/postgres/x.ts', "import { withPlan } from '../../query/plan.ts';", false],
  ['src/http/routes/x.ts', "import { planFilters } from '../../query/plan.ts';", false],
  ['src/store/duckdb/x.ts', "import { fieldsRead, type Condition } from '../../query/plan.ts';", true],
  ['src/query/normalize.ts', "import { withPlan } from './plan.ts';", true],
  ['src/query/plan.ts', "import { VesselDirectory } from '../vessels/directory.ts';", false],
  ['src/store/duckdb/x.ts', "import { toEntry } from '../../shape/wire.ts';", false],
  ['src/store/x.ts', "import { VesselDirectory } from '../vessels/directory.ts';", false],
  ['src/store/postgres/x.ts', "import { loadRows } from '../../data/load-events.ts';", false],
  // Each engine stands alone; what both need is one floor up, in src/store/.
  ['src/store/postgres/x.ts', "import { DuckDbWriter } from '../duckdb/writer.ts';", false],
  ['src/store/postgres/x.ts', "import type { ReloadLog } from '../duckdb/reloading-store.ts';", false],
  ['src/store/duckdb/x.ts', "import { PostgresStore } from '../postgres/postgres-store.ts';", false],
  ['src/store/duckdb/x.ts', "import type { StagedVersion } from '../postgres/copy-events.ts';", false],
  ['src/store/postgres/x.ts', "import { Stage } from '../staging.ts';", true],
  ['src/store/postgres/x.ts', "import type { ReloadLog } from '../store.ts';", true],
  ['src/store/staging.ts', "import { DuckDbWriter } from './duckdb/writer.ts';", true],
  ['src/store/duckdb/x.ts', "import { planFilters } from '../../query/plan.ts';\nimport { PostgresStore } from '../postgres/postgres-store.ts';", false],
];

// Import cycles (import-x/no-cycle): tables.ts is imported by spatial-table.ts, which schema.ts
// imports, so tables.ts importing schema.ts closes a cycle; a new module importing it does not.
CASES.push(
  ['src/store/duckdb/tables.ts', "import { SCHEMA_VERSION } from './schema.ts';\nexport const V = SCHEMA_VERSION;", false, 'import-x/no-cycle'],
  ['src/store/duckdb/x.ts', "import { SCHEMA_VERSION } from './schema.ts';\nexport const V = SCHEMA_VERSION;", true],
);

for (const [file, code, allowed, rule = 'no-restricted-imports'] of CASES) {
  test(`${file}: ${code.split('\n')[0]} is ${allowed ? 'allowed' : `refused by ${rule}`}`, async () => {
    const found = await refusals(file, code);
    if (allowed) assert.deepEqual(found, []);
    // A forbidden import may close a cycle as well (query/ importing the compiler that imports query/).
    else assert.ok(found.some((m) => m.startsWith(rule)) && found.every((m) => m.startsWith(rule) || m.startsWith('import-x/no-cycle')), found.join('\n') || 'nothing refused');
  });
}
