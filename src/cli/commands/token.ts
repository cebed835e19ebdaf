// token create | list | revoke, on a tokens file.
import { integerOption, option } from '../../config.ts';
import { TokenFile } from '../../auth/tokens.ts';
import { UsageError } from '../args.ts';
import type { Command } from '../command.ts';

export const tokenCommand: Command = {
  usage: 'vessel-events token create --name N --datasets PATTERN... [--rate-limit PER_MINUTE] | list | revoke NAME   [--tokens PATH]',
  summary: 'Create, list or revoke API tokens. A new token is printed once, alone on the last line; the file keeps only its hash.',
  options: ['tokens', 'name', 'datasets', 'rate-limit'],
  maxArguments: Infinity,
  async run(flags, [action, ...rest]) {
    const file = new TokenFile(option('tokens', flags));
    switch (action) {
      case 'create': {
        const name = option('name', flags);
        if (!name) throw new UsageError('token create needs --name');
        const datasets = [option('datasets', flags), ...rest].flatMap((d) => d.split(',')).filter((d) => d !== '');
        // Unset, the token follows the server's --rate-limit; set here, its own limit wins.
        const limit = flags['rate-limit'] === undefined ? undefined : integerOption('rate-limit', flags, 0);
        const secret = file.create(name, datasets, limit);
        console.log(`created token "${name}" for ${datasets.join(', ')}${limit !== undefined ? `, ${limit || 'no'} requests per minute` : ''} in ${file.path}; it is shown only now:`);
        console.log(secret);
        return;
      }
      case 'list':
        for (const t of file.read()) console.log(`${t.name}\t${t.datasets.join(',')}\t${t.createdAt}\t${t.rateLimit === undefined ? 'server rate limit' : `${t.rateLimit || 'no'} requests/min`}`);
        return;
      case 'revoke': {
        const name = rest[0] ?? option('name', flags);
        if (!name) throw new UsageError('token revoke needs the token name');
        if (!file.revoke(name)) throw new UsageError(`no token named "${name}" in ${file.path}`);
        console.log(`revoked "${name}"`);
        return;
      }
      default:
        throw new UsageError(`use "token create", "token list" or "token revoke"`);
    }
  },
};
