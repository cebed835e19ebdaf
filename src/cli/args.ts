// Argument parsing shared by the commands, and their help text built from the one option table.
import { parseArgs } from 'node:util';
import { OPTIONS, type OptionName } from '../config.ts';

export type Flags = Record<string, string | boolean | string[] | undefined>;

export class UsageError extends Error {}

export function parseCommandArgs(
  args: string[],
  names: OptionName[],
  extra: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {},
): { flags: Flags; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { help: { type: 'boolean' }, ...extra };
  for (const n of names) options[n] = { type: 'string' };
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { flags: values as Flags, positionals };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export function helpText(usage: string, summary: string, names: OptionName[], more: string[] = []): string {
  const lines = names.map((n) => {
    const o = OPTIONS[n];
    return `  --${n.padEnd(15)} ${o.help}${o.default ? ` (default ${o.default})` : ''}; env ${o.env}`;
  });
  return [`usage: ${usage}`, '', summary, '', 'options:', ...lines, ...more, '  --help            this text', ''].join('\n');
}
