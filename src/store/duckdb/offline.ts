// Settings for every DuckDB instance the project opens. Its own module: the store, the writer, the
// inspectors and the point files all open instances, and taking it from duckdb-store.ts made
// import cycles (eslint.config.mjs forbids them).

/** No network, so no extension may be fetched at run time. */
export const OFFLINE_SETTINGS = { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' } as const;
