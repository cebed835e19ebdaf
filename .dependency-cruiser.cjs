// The code's floors (README "Development"), checked by `npm run lint` in CI:
// nothing outside src/store/ names a database driver, the domain model imports nothing else,
// query/ knows only the domain and geometry, and only http/ (and app.ts) speak Fastify.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'driver-only-in-store',
      comment: 'A database driver is imported only under src/store/: the engine seam (issue 15).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: 'node_modules/(@duckdb|pg|pg-[a-z-]+|postgres)/' },
    },
    {
      name: 'domain-stands-alone',
      comment: 'src/domain/ is the event model: it imports nothing else of the project.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'query-knows-domain-and-geometry',
      comment: 'src/query/ (normalisation and the filter plan) stands on the domain and geometry only.',
      severity: 'error',
      from: { path: '^src/query/' },
      to: { path: '^src/', pathNot: '^src/(query|domain|geo)/' },
    },
    {
      name: 'fastify-only-in-http',
      comment: 'Only src/http/ and the app factory know the web framework.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(http/|app\\.ts$)' },
      to: { path: 'node_modules/(fastify|@fastify)/' },
    },
    {
      name: 'store-below-http-and-cli',
      comment: 'The store serves the layers above it and never reaches up into them.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/(http|cli)/|^src/app\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
