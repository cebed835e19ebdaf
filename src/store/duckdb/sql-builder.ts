// The SQL builder (src/store/sql.ts) with DuckDB's parameter values: a leaf that the compiler,
// the plan's renderer and the polygon SQL all build with, none importing another for it.
import type { DuckDBValue } from '@duckdb/node-api';
import type { SqlBuilder as GenericSqlBuilder } from '../sql.ts';

export type SqlBuilder = GenericSqlBuilder<DuckDBValue>;
