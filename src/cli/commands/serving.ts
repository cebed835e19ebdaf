// start and serve. The server, the engines and the demo are imported when a command runs (see
// data.ts).
import { integerOption, option, optionGiven, serverConfig, type OptionName } from '../../config.ts';
import { counted } from '../counted.ts';
import { TokenFile } from '../../auth/tokens.ts';
import type { Command } from '../command.ts';

const SERVE_OPTIONS: OptionName[] = ['engine', 'db', 'database-url', 'host', 'port', 'tokens', 'wire', 'cache-max-age', 'body-limit', 'query-timeout', 'memory-limit', 'rate-limit', 'log-level', 'metrics'];

export const serveCommand: Command = {
  usage: 'vessel-events serve [options]',
  summary: 'Serve the API from a database (read only; a load that lands is served at once, without a restart; SIGHUP checks at once).',
  options: SERVE_OPTIONS,
  async run(flags) {
    const { serve } = await import('../serve.ts');
    await serve(serverConfig(flags), (url) => console.log(`serving ${url}`));
  },
};

export const startCommand: Command = {
  usage: 'vessel-events start [options]',
  summary: 'Create demo data if the database is missing (or, on PostgreSQL, holds no events), replace the "demo" token, print how to call the API, and serve.',
  options: [...SERVE_OPTIONS, 'events', 'seed'],
  more: ['', 'From the project\'s folder, options go after --, which npm hands on: npm start -- --port 8081'],
  async run(flags) {
    const [{ checkPortFree, serve }, { databaseHoldsData, describeDatabase }, { createDemoDatabase }] = await Promise.all([
      import('../serve.ts'), import('../../store/engines.ts'), import('../demo.ts'),
    ]);
    // Requests are not logged unless asked for: a line per request would scroll the token away.
    const config = { ...serverConfig(flags), ...(optionGiven('log-level', flags) ? {} : { logLevel: 'warn' }) };
    await checkPortFree(config);
    if (!(await databaseHoldsData(config.database))) {
      const events = integerOption('events', flags, 1);
      console.log(`No events in ${describeDatabase(config.database)}: creating demo data (${counted(events, 'event')})...`);
      const started = Date.now();
      const published = await createDemoDatabase(config.database, events, integerOption('seed', flags, 0));
      console.log(`Loaded ${counted(published.reduce((s, p) => s + p.rows, 0), 'entry', 'entries')} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    }
    // The demo token is replaced at every start: only its hash is kept, so it cannot be shown again.
    const tokens = new TokenFile(option('tokens', flags));
    tokens.revoke('demo');
    const secret = tokens.create('demo', ['public-*']);
    await serve(config, (url) => {
      console.log(
        [
          '',
          `Vessel events API: ${url}/v3/events   (docs: ${url}/docs)`,
          `Token (demo, replaced at each start): ${secret}`,
          `  Another token, kept across starts: npx vessel-events token create --name NAME --datasets 'public-*' --tokens ${option('tokens', flags)}`,
          `Map explorer: ${url}/explorer/   (paste the token there)`,
          '',
          'Try:',
          `  curl -H "Authorization: Bearer ${secret}" "${url}/v3/events?datasets=public-global-fishing-events:latest&flags=CHN&start-date=2020-01-01&end-date=2021-01-01&limit=2&offset=0"`,
          '',
          optionGiven('log-level', flags) ? 'Ctrl-C stops the server.' : 'Requests are not logged (--log-level info logs each one). Ctrl-C stops the server.',
          '',
        ].join('\n'),
      );
    });
  },
};
