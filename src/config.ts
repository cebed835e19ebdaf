// The only reader of process.env. Every CLI option has an environment variable; a flag given on
// the command line wins over the variable, which wins over the default.
import { isWireFormat, type WireFormat } from './shape/wire.ts';
import type { Database } from './store/engines.ts';
import { ENGINES, type EngineName } from './store/engine-names.ts';
import { DEFAULT_ENTRY_COMPRESSION, DEFAULT_LOAD_MEMORY_LIMIT, memorySizeBytes } from './store/writer.ts';

export interface ServerConfig {
  database: Database;
  host: string;
  port: number;
  tokensPath: string;
  wire: WireFormat;
  /** Browsers may reuse a GET list response this long; set it to how often data is loaded. */
  cacheMaxAgeSeconds: number;
  bodyLimitBytes: number;
  /** 0 disables the limit. */
  queryTimeoutMs: number;
  /** Requests per minute per token (a token may set its own); 0: no limit. */
  rateLimitPerMinute: number;
  /** DuckDB's memory limit (its buffer pool and operators), e.g. "1GB"; larger work spills to disk. */
  memoryLimit: string;
  logLevel: string;
  /** Serve Prometheus metrics at /metrics (a token is needed, as for the API). */
  metrics: boolean;
}

/** Option name -> environment variable and default. */
export const OPTIONS = {
  engine: { env: 'VESSEL_EVENTS_ENGINE', default: 'duckdb', help: 'database engine: duckdb (the file given by --db) or postgres (the database given by --database-url)' },
  db: { env: 'VESSEL_EVENTS_DB', default: 'data/events.duckdb', help: 'database file (--engine duckdb)' },
  'database-url': { env: 'DATABASE_URL', default: '', help: 'PostgreSQL connection URL, postgres://user:password@host:port/database (--engine postgres)' },
  host: { env: 'VESSEL_EVENTS_HOST', default: '127.0.0.1', help: 'address to listen on' },
  port: { env: 'VESSEL_EVENTS_PORT', default: '8080', help: 'port to listen on' },
  tokens: { env: 'VESSEL_EVENTS_TOKENS', default: 'data/tokens.json', help: 'tokens file' },
  wire: { env: 'VESSEL_EVENTS_WIRE', default: 'gfw', help: 'default wire format: gfw (the live service\'s types, which the official clients expect) or spec' },
  'cache-max-age': { env: 'VESSEL_EVENTS_CACHE_MAX_AGE', default: '3600', help: 'seconds browsers may cache GET lists' },
  'body-limit': { env: 'VESSEL_EVENTS_BODY_LIMIT', default: '1048576', help: 'largest request body, bytes' },
  'query-timeout': { env: 'VESSEL_EVENTS_QUERY_TIMEOUT', default: '30000', help: 'query time limit, ms (0: none)' },
  'rate-limit': { env: 'VESSEL_EVENTS_RATE_LIMIT', default: '600', help: 'requests per minute per token (serve: the default of tokens without their own; token create: this token\'s own), 0: none' },
  'memory-limit': { env: 'VESSEL_EVENTS_MEMORY_LIMIT', default: '160MB', help: 'engine memory limit (KB, MB, GB); larger sorts spill to disk beside the database. serve: default 160MB; load and demo: default 2GB', defaultInHelp: true },
  'log-level': { env: 'VESSEL_EVENTS_LOG_LEVEL', default: 'info', help: 'fatal, error, warn, info (a line per request), debug; start: warn unless given' },
  metrics: { env: 'VESSEL_EVENTS_METRICS', default: 'false', help: 'serve Prometheus metrics at /metrics, for a valid token as the API (the flag alone means true)' },
  events: { env: 'VESSEL_EVENTS_DEMO_EVENTS', default: '50000', help: 'number of demo events' },
  seed: { env: 'VESSEL_EVENTS_DEMO_SEED', default: '1', help: 'demo random seed' },
  version: { env: 'VESSEL_EVENTS_VERSION', default: '', help: 'version tag of the load (default vYYYYMMDD)' },
  dataset: { env: 'VESSEL_EVENTS_DATASET', default: '', help: 'kind of every row: fishing, encounter, loitering, port_visit, gap (load); region dataset id (regions load)' },
  format: { env: 'VESSEL_EVENTS_FORMAT', default: '', help: 'file format: ndjson, csv or parquet (load: default from the extension; generate: default ndjson); load also takes gfw-json (GFW Events API entries)' },
  update: { env: 'VESSEL_EVENTS_UPDATE', default: 'false', help: 'true: apply the rows by event_id to each dataset\'s latest version (a known id replaces its row, a new one is added) as a new version (the flag alone means true)' },
  remove: { env: 'VESSEL_EVENTS_REMOVE', default: '', help: 'with --update and --dataset: a file of event ids to remove from that dataset, one per line' },
  'entry-compression': { env: 'VESSEL_EVENTS_ENTRY_COMPRESSION', default: DEFAULT_ENTRY_COMPRESSION, help: 'how a new DuckDB database stores each event\'s entry: fsst, or zstd (the catalogue about a third smaller, pages 5-20 % slower; docs/performance.md); a database keeps the one it was created with' },
  'skip-invalid': { env: 'VESSEL_EVENTS_SKIP_INVALID', default: 'false', help: 'true: load the valid rows and report the invalid ones' },
  out: { env: 'VESSEL_EVENTS_OUT', default: 'data/generated', help: 'output folder' },
  from: { env: 'VESSEL_EVENTS_FROM', default: '2017-01-01', help: 'first day of generated events' },
  to: { env: 'VESSEL_EVENTS_TO', default: '2025-01-01', help: 'day after the last generated events' },
  name: { env: 'VESSEL_EVENTS_NAME', default: '', help: 'token name (token create); text to find in region names (regions list)' },
  datasets: { env: 'VESSEL_EVENTS_TOKEN_DATASETS', default: '', help: 'dataset id patterns the token may read, comma-separated, * as wildcard (public-*)' },
} as const;
export type OptionName = keyof typeof OPTIONS;

/** Value of an option: the flag, else its environment variable, else the default. */
export function option(name: OptionName, flags: Record<string, string | boolean | string[] | undefined>): string {
  const flag = flags[name];
  if (typeof flag === 'string') return flag;
  return process.env[OPTIONS[name].env] ?? OPTIONS[name].default;
}

/** Whether the option was given, as a flag or by its variable, rather than left to its default. */
export function optionGiven(name: OptionName, flags: Record<string, string | boolean | string[] | undefined>): boolean {
  return typeof flags[name] === 'string' || process.env[OPTIONS[name].env] !== undefined;
}

export class ConfigError extends Error {}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug'] as const;

function integer(name: OptionName, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`--${name} (${OPTIONS[name].env}) must be an integer >= ${min}, got "${text}"`);
  return n;
}

function booleanOption(name: OptionName, text: string): boolean {
  if (text !== 'true' && text !== 'false') throw new ConfigError(`--${name} (${OPTIONS[name].env}) must be true or false, got "${text}"`);
  return text === 'true';
}

function memorySize(name: OptionName, text: string): string {
  if (memorySizeBytes(text) === undefined) {
    throw new ConfigError(`--${name} (${OPTIONS[name].env}) must be a size such as 512MB or 2GB, got "${text}"`);
  }
  return text.trim();
}

function logLevel(text: string): string {
  if (!(LOG_LEVELS as readonly string[]).includes(text)) throw new ConfigError(`--log-level (${OPTIONS['log-level'].env}) must be one of ${LOG_LEVELS.join(', ')}, got "${text}"`);
  return text;
}

export function serverConfig(flags: Record<string, string | boolean | string[] | undefined>): ServerConfig {
  const wire = option('wire', flags);
  if (!isWireFormat(wire)) throw new ConfigError(`--wire (${OPTIONS.wire.env}) must be spec or gfw, got "${wire}"`);
  return {
    database: databaseOption(flags),
    host: option('host', flags),
    port: integer('port', option('port', flags), 0),
    tokensPath: option('tokens', flags),
    wire,
    cacheMaxAgeSeconds: integer('cache-max-age', option('cache-max-age', flags), 0),
    bodyLimitBytes: integer('body-limit', option('body-limit', flags), 1024),
    queryTimeoutMs: integer('query-timeout', option('query-timeout', flags), 0),
    memoryLimit: memorySize('memory-limit', option('memory-limit', flags)),
    rateLimitPerMinute: integer('rate-limit', option('rate-limit', flags), 0),
    logLevel: logLevel(option('log-level', flags)),
    metrics: booleanOption('metrics', option('metrics', flags)),
  };
}

/** A load's engine memory limit: --memory-limit when given, else the loads' own default (not serve's). */
export function loadMemoryLimit(flags: Record<string, string | boolean | string[] | undefined>): string {
  return optionGiven('memory-limit', flags) ? memorySize('memory-limit', option('memory-limit', flags)) : DEFAULT_LOAD_MEMORY_LIMIT;
}

export function integerOption(name: OptionName, flags: Record<string, string | boolean | string[] | undefined>, min: number): number {
  return integer(name, option(name, flags), min);
}

/** The database the options name: the DuckDB file (the default), or PostgreSQL by its URL. */
export function databaseOption(flags: Record<string, string | boolean | string[] | undefined>): Database {
  const engine = option('engine', flags);
  if (!(ENGINES as readonly string[]).includes(engine)) throw new ConfigError(`--engine (${OPTIONS.engine.env}) must be one of ${ENGINES.join(', ')}, got "${engine}"`);
  if ((engine as EngineName) === 'duckdb') {
    if (typeof flags['database-url'] === 'string') throw new ConfigError('--database-url names a PostgreSQL database: add --engine postgres (the default engine, duckdb, reads the file given by --db)');
    return { engine: 'duckdb', path: option('db', flags) };
  }
  const url = option('database-url', flags);
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError(`--engine postgres needs --database-url (or ${OPTIONS['database-url'].env}) of the form postgres://user:password@host:port/database${url ? `, got "${url.replace(/:[^:@/]*@/, ':***@')}"` : ''}`);
  }
  return { engine: 'postgres', url };
}
