// serve: open the database read-only, build the app, listen, close gracefully on SIGINT/SIGTERM.
import { buildApp } from '../app.ts';
import { TokenFile, TokenVerifier } from '../auth/tokens.ts';
import type { ServerConfig } from '../config.ts';
import { DuckDbStore } from '../store/duckdb/duckdb-store.ts';

export async function serve(config: ServerConfig, onListening?: (url: string) => void): Promise<void> {
  const store = await DuckDbStore.open({ path: config.dbPath, queryTimeoutMs: config.queryTimeoutMs });
  const app = await buildApp({
    store,
    tokens: new TokenVerifier(new TokenFile(config.tokensPath)),
    wire: config.wire,
    cacheMaxAgeSeconds: config.cacheMaxAgeSeconds,
    bodyLimitBytes: config.bodyLimitBytes,
    logger: { level: config.logLevel },
  });
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'closing');
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  onListening?.(`http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`);
}
