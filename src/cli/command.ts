// The shape of a CLI command, and its help text built from the one option table of config.ts.
import { OPTIONS, type OptionName } from '../config.ts';
import { parseCommandArgs, takeNpmConfig, UsageError, type Flags } from './args.ts';

export interface Command {
  usage: string;
  summary: string;
  options: OptionName[];
  /** Lines of help beyond the options (positional arguments, actions). */
  more?: string[];
  /** Arguments (actions, files) it takes at most; none unless said. */
  maxArguments?: number;
  run(flags: Flags, positionals: string[]): Promise<void>;
}

export function helpOf(c: Command): string {
  const lines = c.options.map((n) => {
    const o = OPTIONS[n];
    // An option whose default differs by command says so in its help, not as serve's default alone.
    const shownDefault = o.default && !('defaultInHelp' in o) ? ` (default ${o.default})` : '';
    return `  --${n.padEnd(15)} ${o.help}${shownDefault}; env ${o.env}`;
  });
  return [`usage: ${c.usage}`, '', c.summary, '', 'options:', ...lines, ...(c.more ?? []), '  --help            this text', ''].join('\n');
}

export async function runCommand(c: Command, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { flags, positionals } = parseCommandArgs(args, c.options);
  if (flags['help']) return void process.stdout.write(helpOf(c));
  takeNpmConfig(c.options, flags, positionals, env);
  const stray = positionals[c.maxArguments ?? 0];
  if (stray !== undefined) {
    throw new UsageError(`unexpected argument "${stray}"${c.maxArguments ? '' : ': this command takes options only'} ("--help" lists them)`);
  }
  await c.run(flags, positionals);
}
