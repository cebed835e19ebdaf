// The real `vessel-events serve` in a child process, on a free port, for tests over real HTTP.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const BIN = join(import.meta.dirname, '../../bin/vessel-events.js');

export async function startServer(dbPath: string, tokensPath: string): Promise<{ url: string; stop(): void }> {
  const server = spawn(process.execPath, [BIN, 'serve', '--db', dbPath, '--port', '0', '--tokens', tokensPath, '--log-level', 'warn']);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (d: Buffer) => {
        const m = /serving (http:\/\/\S+)/.exec((out += d));
        if (m) resolve(m[1]!);
      });
      server.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    return { url, stop: () => server.kill('SIGTERM') };
  } catch (e) {
    server.kill('SIGTERM');
    throw e;
  }
}
