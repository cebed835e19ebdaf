// vessel-events: the command-line entry. Each command parses its options (flag > env > default)
// and calls into the library; errors print one line and exit non-zero (2 for usage errors).
import { ConfigError } from '../config.ts';
import { UsageError } from './args.ts';
import { runCommand, type Command } from './command.ts';
import { demoCommand, generateCommand, loadCommand, versionsCommand } from './commands/data.ts';
import { groupsCommand, portsCommand, regionsCommand } from './commands/reference.ts';
import { serveCommand, startCommand } from './commands/serving.ts';
import { tokenCommand } from './commands/token.ts';

const COMMANDS: Record<string, Command> = {
  start: startCommand,
  serve: serveCommand,
  demo: demoCommand,
  generate: generateCommand,
  load: loadCommand,
  versions: versionsCommand,
  groups: groupsCommand,
  ports: portsCommand,
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
    '"vessel-events <command> --help" describes each command.',
    '',
  ].join('\n');
}

const [name, ...args] = process.argv.slice(2);
const command = name ? COMMANDS[name] : undefined;
if (!name || name === '--help' || name === 'help') {
  process.stdout.write(mainHelp());
} else if (!command) {
  process.stderr.write(`unknown command "${name}"\n\n${mainHelp()}`);
  process.exit(2);
} else {
  runCommand(command, args).catch((e: unknown) => {
    process.stderr.write(`vessel-events ${name}: ${(e as Error).message}\n`);
    process.exit(e instanceof UsageError || e instanceof ConfigError ? 2 : 1);
  });
}
