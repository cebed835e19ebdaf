// Argument parsing shared by the commands: every option takes a value (booleans as true/false).
import { parseArgs } from 'node:util';
import type { OptionName } from '../config.ts';
import { didYouMean } from './suggest.ts';

export type Flags = Record<string, string | boolean | string[] | undefined>;

export class UsageError extends Error {}

/** Options given without a value (`--metrics`), which mean true; their variables take true/false. */
const BOOLEAN_OPTIONS: readonly string[] = ['skip-invalid', 'metrics'];

export function parseCommandArgs(args: string[], names: OptionName[]): { flags: Flags; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const n of names) options[n] = BOOLEAN_OPTIONS.includes(n) ? { type: 'boolean' } : { type: 'string', ...(n === 'datasets' ? { multiple: true } : {}) };
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    const flags = values as Flags;
    for (const n of BOOLEAN_OPTIONS) if (flags[n] === true) flags[n] = 'true';
    if (Array.isArray(flags['datasets'])) flags['datasets'] = flags['datasets'].join(',');
    return { flags, positionals };
  } catch (e) {
    const error = e as Error & { code?: string };
    const unknown = /^Unknown option '(-{1,2})([^']+)'/.exec(error.message);
    if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
      throw new UsageError(`unknown option ${unknown[1]}${unknown[2]}${didYouMean(unknown[2]!, Object.keys(options), '--')} ("--help" lists the options)`);
    }
    throw new UsageError(error.message);
  }
}
