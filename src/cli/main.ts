// vessel-events: the command-line entry. Each command parses its options (flag > env > default)
// and calls into the library; errors print one line and exit non-zero.
import { existsSync } from 'node:fs';
import { ConfigError, integerOption, option, serverConfig, type OptionName } from '../config.ts';
import { TokenFile } from '../auth/tokens.ts';
import { defaultVersionTag, FILE_FORMATS, formatOf, loadFiles, type FileFormat } from '../data/load.ts';
import { InvalidRows, LoadRefused } from '../store/duckdb/writer.ts';
import { EVENT_KINDS, isEventKind } from '../query/kinds.ts';
import { helpText, parseCommandArgs, UsageError } from './args.ts';
import { createDemoDatabase } from './demo.ts';
import { progressReporter } from './progress.ts';
import { serve } from './serve.ts';

const SERVE_OPTIONS: OptionName[] = ['db', 'host', 'port', 'tokens', 'wire', 'cache-max-age', 'body-limit', 'query-timeout', 'log-level'];

const COMMANDS: Record<string, { summary: string; run: (args: string[]) => Promise<void> }> = {
  start: { summary: 'create demo data and a token if needed, print how to call the API, and serve', run: start },
  serve: { summary: 'serve the API from a database', run: serveCommand },
  demo: { summary: 'create a database of generated demo events', run: demo },
  load: { summary: 'load published-events files (NDJSON, CSV, Parquet) into a database', run: load },
  token: { summary: 'create, list or revoke API tokens', run: token },
};

function mainHelp(): string {
  return [
    'usage: vessel-events <command> [options]',
    '',
    'commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`),
    '',
    '"vessel-events <command> --help" describes each command.',
    '',
  ].join('\n');
}

async function serveCommand(args: string[]): Promise<void> {
  const { flags } = parseCommandArgs(args, SERVE_OPTIONS);
  if (flags['help']) return void process.stdout.write(helpText('vessel-events serve [options]', COMMANDS.serve!.summary, SERVE_OPTIONS));
  const config = serverConfig(flags);
  await serve(config, (url) => console.log(`serving ${url}`));
}

async function start(args: string[]): Promise<void> {
  const names: OptionName[] = [...SERVE_OPTIONS, 'events', 'seed'];
  const { flags } = parseCommandArgs(args, names);
  if (flags['help']) return void process.stdout.write(helpText('vessel-events start [options]', COMMANDS.start!.summary, names));
  const config = serverConfig(flags);
  if (!existsSync(config.dbPath)) {
    const events = integerOption('events', flags, 1);
    console.log(`No database at ${config.dbPath}: creating demo data (${events} events)...`);
    const started = Date.now();
    const published = await createDemoDatabase(config.dbPath, events, integerOption('seed', flags, 0));
    console.log(`Loaded ${published.reduce((s, p) => s + p.rows, 0)} entries in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
  // The demo token is replaced at every start: only its hash is kept, so it cannot be shown again.
  const tokens = new TokenFile(config.tokensPath);
  tokens.revoke('demo');
  const secret = tokens.create('demo', ['public-*']);
  await serve(config, (url) => {
    console.log(
      [
        '',
        `Vessel events API: ${url}/v3/events   (docs: ${url}/docs)`,
        `Token (demo, replaced at each start): ${secret}`,
        '',
        'Try:',
        `  curl -H "Authorization: Bearer ${secret}" "${url}/v3/events?datasets=public-global-fishing-events:latest&flags=CHN&start-date=2020-01-01&end-date=2021-01-01&limit=2&offset=0"`,
        '',
      ].join('\n'),
    );
  });
}

async function demo(args: string[]): Promise<void> {
  const names: OptionName[] = ['db', 'events', 'seed'];
  const { flags } = parseCommandArgs(args, names);
  if (flags['help']) return void process.stdout.write(helpText('vessel-events demo [options]', COMMANDS.demo!.summary, names));
  const published = await createDemoDatabase(option('db', flags), integerOption('events', flags, 1), integerOption('seed', flags, 0));
  for (const p of published) console.log(`${p.datasetId}:${p.version}\t${p.rows} entries`);
}

async function load(args: string[]): Promise<void> {
  const names: OptionName[] = ['db', 'version', 'dataset'];
  const { flags, positionals } = parseCommandArgs(args, names, { format: { type: 'string' }, 'skip-invalid': { type: 'boolean' } });
  if (flags['help']) {
    return void process.stdout.write(
      helpText('vessel-events load --db PATH [--version V] [--dataset KIND] [--format F] [--skip-invalid] FILE...', COMMANDS.load!.summary, names, [
        `  --format F        ${FILE_FORMATS.join(', ')} (default: from each file's extension)`,
        '  --skip-invalid    load the valid rows and report the invalid ones, instead of loading nothing',
        '  FILE...           published-events rows (docs/data-format.md)',
      ]),
    );
  }
  if (positionals.length === 0) throw new UsageError('name at least one file to load');
  const kind = option('dataset', flags);
  if (kind && !isEventKind(kind)) throw new UsageError(`--dataset must be one of ${EVENT_KINDS.join(', ')}, got "${kind}"`);
  const forced = flags['format'] as string | undefined;
  if (forced && !(FILE_FORMATS as readonly string[]).includes(forced)) throw new UsageError(`--format must be one of ${FILE_FORMATS.join(', ')}`);
  const files = positionals.map((path) => {
    if (!existsSync(path)) throw new UsageError(`no such file: ${path}`);
    const format = (forced as FileFormat | undefined) ?? formatOf(path);
    if (!format) throw new UsageError(`cannot tell the format of ${path} from its extension; give --format`);
    return { path, format };
  });
  const progress = progressReporter('load');
  try {
    const result = await loadFiles(files, {
      dbPath: option('db', flags),
      version: option('version', flags) || defaultVersionTag(),
      source: positionals.join(' '),
      ...(kind && isEventKind(kind) ? { kind } : {}),
      skipInvalid: flags['skip-invalid'] === true,
      onProgress: progress.update,
    });
    progress.done();
    for (const p of result.published) console.log(`${p.datasetId}:${p.version}\t${p.rows} entries`);
    if (result.skippedCount > 0) {
      console.log(`skipped ${result.skippedCount} invalid rows${result.skippedCount > result.skipped.length ? `; the first ${result.skipped.length}` : ''}:`);
      for (const s of result.skipped) console.log(`  ${s.file}:${s.line}: ${s.problem}`);
    }
  } catch (e) {
    progress.done();
    if (e instanceof InvalidRows || e instanceof LoadRefused) throw new Error(`${e.message}\nnothing was loaded`);
    throw e;
  }
}

async function token(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const names: OptionName[] = ['tokens'];
  const { flags, positionals } = parseCommandArgs(rest, names, { name: { type: 'string' }, datasets: { type: 'string', multiple: true } });
  if (flags['help'] || !action || action === '--help') {
    return void process.stdout.write(
      helpText('vessel-events token create --name N --datasets PATTERN... | list | revoke NAME', COMMANDS.token!.summary, names, [
        '  --name N          create: the token\'s name',
        '  --datasets P...   create: dataset id patterns it may read, * as wildcard (public-*); repeat or space-separate',
      ]),
    );
  }
  const file = new TokenFile(option('tokens', flags));
  switch (action) {
    case 'create': {
      if (typeof flags['name'] !== 'string') throw new UsageError('token create needs --name');
      const datasets = [...((flags['datasets'] as string[] | undefined) ?? []), ...positionals].flatMap((d) => d.split(','));
      const secret = file.create(flags['name'], datasets);
      console.log(`created token "${flags['name']}" for ${datasets.join(', ')} in ${file.path}; it is shown only now:`);
      console.log(secret);
      return;
    }
    case 'list':
      for (const t of file.read()) console.log(`${t.name}\t${t.datasets.join(',')}\t${t.createdAt}`);
      return;
    case 'revoke': {
      const name = positionals[0] ?? flags['name'];
      if (typeof name !== 'string') throw new UsageError('token revoke needs the token name');
      if (!file.revoke(name)) throw new UsageError(`no token named "${name}" in ${file.path}`);
      console.log(`revoked "${name}"`);
      return;
    }
    default:
      throw new UsageError(`unknown token action "${action}"; use create, list or revoke`);
  }
}

const [command, ...rest] = process.argv.slice(2);
if (!command || command === '--help' || command === 'help') {
  process.stdout.write(mainHelp());
} else if (!COMMANDS[command]) {
  process.stderr.write(`unknown command "${command}"\n\n${mainHelp()}`);
  process.exit(2);
} else {
  COMMANDS[command].run(rest).catch((e: unknown) => {
    process.stderr.write(`vessel-events ${command}: ${(e as Error).message}\n`);
    process.exit(e instanceof UsageError || e instanceof ConfigError ? 2 : 1);
  });
}
