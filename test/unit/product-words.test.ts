// The project speaks of the product alone: its README, docs, code, benchmark and tests name dates
// where a date matters, never the work sessions that made them.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '../..');
const SESSION_WORDS = /\b(first|second|third|[a-z]+th|[0-9]+(st|nd|rd|th)) session/i;

function files(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((name) => (['node_modules', 'cache', 'results'].includes(name) ? [] : files(join(path, name))));
}

test('no file of the README, docs, src, bench or test speaks of work sessions', () => {
  const found: string[] = [];
  for (const file of ['README.md', 'docs', 'src', 'bench', 'test'].flatMap((p) => files(join(ROOT, p)))) {
    if (!/\.(md|ts|mjs|js|html|css|json)$/.test(file)) continue;
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (SESSION_WORDS.test(line)) found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  assert.deepEqual(found, []);
});
