// vessel-events: the command-line entry. Each command parses its options (flag > env > default)
// and calls into the library; errors print one line and exit non-zero (2 for usage errors).
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config.ts';
import { UsageError } from './args.ts';
import { helpOf, runCommand, type Command } from './command.ts';
import { didYouMean } from '../query/suggest.ts';
import { cleanCommand, compactCommand, demoCommand, generateCommand, loadCommand, migrateCommand, versionsCommand } from './commands/data.ts';
import { groupsCommand, iuuCommand, portsCommand, regionsCommand, vesselsCommand } from './commands/reference.ts';
import { serveCommand, startCommand } from './commands/serving.ts';
import { tokenCommand } from './commands/token.ts';

const COMMANDS: Record<string, Command> = {
  start: startCommand,
  serve: serveCommand,
  demo: demoCommand,
  generate: generateCommand,
  load: loadCommand,
  versions: versionsCommand,
  clean: cleanCommand,
  migrate: migrateCommand,
  compact: compactCommand,
  groups: groupsCommand,
  ports: portsCommand,
  iuu: iuuCommand,
  vessels: vesselsCommand,
  regions: regionsCommand,
  token: tokenCommand,
};

function mainHelp(): string {
  return [
    'usage: vessel-events <command> [options]',
    '',
    'commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(9)} ${c.summary.split('. ')[0]!.replace(/\.$/, '')}`),
    '',
    '"vessel-events help <command>" (or "<command> --help") describes each command; "--version" prints the version.',
    '',
  ].join('\n');
}

/** The package's version (src/cli and dist/cli both sit two levels below package.json). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

function unknownCommand(name: string): never {
  process.stderr.write(`vessel-events: unknown command "${name}"${didYouMean(name, Object.keys(COMMANDS))}\n\n${mainHelp()}`);
  process.exit(2);
}

const [name, ...args] = process.argv.slice(2);
if (!name || name === '--help' || name === '-h') {
  process.stdout.write(mainHelp());
} else if (name === '--version' || name === '-V' || name === 'version') {
  process.stdout.write(`vessel-events ${packageVersion()}\n`);
} else if (name === 'help') {
  // `help <command>` is `<command> --help`.
  const topic = args[0];
  if (!topic) process.stdout.write(mainHelp());
  else if (COMMANDS[topic]) process.stdout.write(helpOf(COMMANDS[topic]));
  else unknownCommand(topic);
} else if (!Object.hasOwn(COMMANDS, name)) {
  unknownCommand(name);
} else {
  runCommand(COMMANDS[name]!, args).catch((e: unknown) => {
    process.stderr.write(`vessel-events ${name}: ${(e as Error).message}\n`);
    process.exit(e instanceof UsageError || e instanceof ConfigError ? 2 : 1);
  });
}
