// Argument parsing shared by the commands: every option takes a value (booleans as true/false).
import { parseArgs } from 'node:util';
import type { OptionName } from '../config.ts';
import { didYouMean } from '../query/suggest.ts';

export type Flags = Record<string, string | boolean | string[] | undefined>;

export class UsageError extends Error {}

/** Options given without a value (`--metrics`), which mean true; their variables take true/false. */
const BOOLEAN_OPTIONS: readonly string[] = ['skip-invalid', 'metrics', 'update'];

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

/**
 * Options npm kept for itself. Run through npm (`npm start`, `npm run vessel-events`), options
 * before `--` are npm's: `npm start --port=8081` reaches the command as npm_config_port=8081 and
 * is taken as --port here; `npm start --port 8081` sets npm_config_port=true and passes "8081" on
 * as an argument, which is refused with the form that works.
 */
export function takeNpmConfig(names: readonly OptionName[], flags: Flags, positionals: string[], env: NodeJS.ProcessEnv): void {
  const script = env['npm_lifecycle_event'];
  if (!script) return;
  for (const name of names) {
    const value = env[`npm_config_${name.replace(/-/g, '_')}`];
    if (value === undefined || flags[name] !== undefined) continue;
    if (value !== 'true' || BOOLEAN_OPTIONS.includes(name)) {
      flags[name] = value;
      continue;
    }
    const run = ['start', 'test'].includes(script) ? `npm ${script}` : `npm run ${script}`;
    const given = positionals[0] ?? 'VALUE';
    throw new UsageError(`npm took --${name} for itself${positionals[0] === undefined ? '' : ` and passed "${given}" on alone`}: write "${run} -- --${name} ${given}" (npm hands what follows -- to the command)`);
  }
}
