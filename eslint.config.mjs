// The code's floors (README "Development"), checked by `npm run lint` in CI. ESLint's
// no-restricted-imports sees every import, type-only ones too (@babel/eslint-parser keeps them).
// dependency-cruiser was tried first: it reads TypeScript only through the `typescript` package
// below version 7 (the project compiles with 7) or through @swc/core, whose platform packages the
// registry mirror lacks, so `npm ci` refused the lockfile.
import babelParser from '@babel/eslint-parser';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const DRIVERS = { group: ['@duckdb/*', 'pg', 'pg-*', 'postgres'], message: 'A database driver is imported only under src/store/ (the engine seam).' };
const ENGINE_INTERNALS = { group: ['**/store/duckdb/*', '**/store/postgres/*'], message: 'Outside src/store/, the engines are reached through src/store/engines.ts (and the neutral store.ts, writer.ts, catalog.ts).' };
const FRAMEWORK = { group: ['fastify', '@fastify/*'], message: 'Only src/http/ and src/app.ts know the web framework.' };
const OUTSIDE_DOMAIN = { group: ['../*', '../**'], message: 'src/domain/ is the event model: it imports nothing else of the project.' };
const ABOVE_QUERY = { group: ['../data/*', '../data/**', '../vessels/*', '../shape/*', '../store/*', '../store/**', '../http/*', '../http/**', '../cli/*', '../cli/**', '../workers/*', '../auth/*', '../app.ts', '../config.ts'], message: 'src/query/ (normalisation and the filter plan) stands on src/domain/ and src/geo/ only.' };
const ABOVE_STORE = { group: ['../../http/*', '../../http/**', '../../cli/*', '../../cli/**', '../../app.ts', '../../shape/*', '../../vessels/*', '../../data/*', '../../data/**', '../../auth/*', '../http/*', '../cli/*', '../app.ts', '../shape/*', '../vessels/*', '../data/*', '../data/**', '../auth/*'], message: 'The store serves the layers above it and never reaches up into them.' };
// A query is planned once, where it is normalised; the stores and their access paths read the plan
// it carries (query.filters), so no request plans its filters twice.
// Each engine stands alone: what both need (staging rows through the embedded loader, shared types)
// lives one floor up, in src/store/.
const NOT_POSTGRES = { group: ['../postgres/*', '../postgres/**', '**/store/postgres/*', '**/store/postgres/**'], message: 'An engine folder never imports another: what both engines need lives in src/store/ (staging.ts, store.ts, writer.ts, catalog.ts).' };
const NOT_DUCKDB = { group: ['../duckdb/*', '../duckdb/**', '**/store/duckdb/*', '**/store/duckdb/**'], message: NOT_POSTGRES.message };
const PLANNED_ONCE = { group: ['**/query/plan.ts'], importNames: ['planFilters', 'withPlan'], message: 'Only src/query/ plans a query (normalize.ts, withPlan); elsewhere read the plan it carries, query.filters.' };

/** One block per floor: ESLint replaces, not merges, a rule's options where blocks overlap. */
const floor = (files, patterns, ignores = []) => ({ files, ignores, rules: { 'no-restricted-imports': ['error', { patterns }] } });

export default [
  {
    files: ['src/**/*.ts'],
    languageOptions: {
      parser: babelParser,
      parserOptions: { requireConfigFile: false, babelOptions: { babelrc: false, configFile: false, presets: [['@babel/preset-typescript', { allowDeclareFields: true }]] } },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  floor(['src/**/*.ts'], [DRIVERS, FRAMEWORK, ENGINE_INTERNALS, PLANNED_ONCE], ['src/store/**', 'src/http/**', 'src/app.ts', 'src/domain/**', 'src/query/**']),
  floor(['src/http/**/*.ts', 'src/app.ts'], [DRIVERS, ENGINE_INTERNALS, PLANNED_ONCE]),
  floor(['src/store/**/*.ts'], [FRAMEWORK, ABOVE_STORE, PLANNED_ONCE]),
  floor(['src/store/duckdb/**/*.ts'], [FRAMEWORK, ABOVE_STORE, PLANNED_ONCE, NOT_POSTGRES]),
  floor(['src/store/postgres/**/*.ts'], [FRAMEWORK, ABOVE_STORE, PLANNED_ONCE, NOT_DUCKDB]),
  floor(['src/domain/**/*.ts'], [DRIVERS, FRAMEWORK, OUTSIDE_DOMAIN]),
  floor(['src/query/**/*.ts'], [DRIVERS, FRAMEWORK, ABOVE_QUERY]),
  // No import cycles: in a cycle, whichever module loads first sees the others' constants
  // uninitialised (spatial-table -> versions -> schema -> spatial-table failed that way, 2026-11-24).
  // This rule skips type-only imports; test/unit/import-cycles.test.ts finds cycles through them too.
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    // The modules a file imports are parsed too, by the same parser (without it they parse as
    // JavaScript, fail silently, and no cycle is ever found).
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })], 'import-x/parsers': { '@babel/eslint-parser': ['.ts'] } },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
];
