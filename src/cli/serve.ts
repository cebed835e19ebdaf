// serve: open the database read-only (following loads as they land), build the app, listen,
// and close gracefully on SIGINT/SIGTERM.
import { createServer } from 'node:net';
import { buildApp, type App } from '../app.ts';
import { TokenFile, TokenVerifier } from '../auth/tokens.ts';
import { ConfigError, OPTIONS, type ServerConfig } from '../config.ts';
import { openStores } from '../store/engines.ts';
import { yieldHelperThreads } from './helper-threads.ts';

function portInUse(config: Pick<ServerConfig, 'host' | 'port'>): ConfigError {
  return new ConfigError(`port ${config.port} on ${config.host} is in use; choose another with --port (or ${OPTIONS.port.env}), or stop what listens there`);
}

/** Fails at once if the port is taken, so `start` says so before spending time on demo data. */
export async function checkPortFree(config: Pick<ServerConfig, 'host' | 'port'>): Promise<void> {
  if (config.port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE' ? portInUse(config) : e));
    probe.listen({ host: config.host, port: config.port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

export async function serve(config: ServerConfig, onListening?: (url: string) => void): Promise<void> {
  // Reload messages go to the app's logger, which exists only once the store is open.
  const logger: { app?: App } = {};
  const stores = await openStores(
    config.database,
    { queryTimeoutMs: config.queryTimeoutMs, memoryLimit: config.memoryLimit },
    { info: (m) => logger.app?.log.info(m), error: (m) => logger.app?.log.error(m) },
  );
  const app = await buildApp({
    stores,
    tokens: new TokenVerifier(new TokenFile(config.tokensPath)),
    wire: config.wire,
    cacheMaxAgeSeconds: config.cacheMaxAgeSeconds,
    bodyLimitBytes: config.bodyLimitBytes,
    rateLimitPerMinute: config.rateLimitPerMinute,
    metrics: config.metrics,
    logger: { level: config.logLevel },
  });
  logger.app = app;
  // Said at every start, whatever the log level: a copied database served without its point files answers many times slower.
  for (const warning of stores.current().storageWarnings()) app.log.error(warning);
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'closing');
    await app.close();
    await stores.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (e) {
    await app.close();
    await stores.close();
    throw (e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? portInUse(config) : e;
  }
  const stopYielding = yieldHelperThreads();
  app.server.once('close', stopYielding);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  onListening?.(`http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`);
}
