// Argument parsing shared by the commands: every option takes a value (booleans as true/false).
import { parseArgs } from 'node:util';
import type { OptionName } from '../config.ts';

export type Flags = Record<string, string | boolean | string[] | undefined>;

export class UsageError extends Error {}

export function parseCommandArgs(args: string[], names: OptionName[]): { flags: Flags; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { help: { type: 'boolean' } };
  for (const n of names) options[n] = n === 'skip-invalid' ? { type: 'boolean' } : { type: 'string', ...(n === 'datasets' ? { multiple: true } : {}) };
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    const flags = values as Flags;
    if (flags['skip-invalid'] === true) flags['skip-invalid'] = 'true';
    if (Array.isArray(flags['datasets'])) flags['datasets'] = flags['datasets'].join(',');
    return { flags, positionals };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
