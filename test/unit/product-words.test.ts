// The project speaks of the product alone: its README, docs, code, benchmark and tests name dates
// where a date matters, never the work sessions that made them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT, projectFiles } from '../helpers/project-files.ts';

const SESSION_WORDS = /\b(first|second|third|[a-z]+th|[0-9]+(st|nd|rd|th)) session/i;

test('no file of the README, docs, src, bench or test speaks of work sessions', () => {
  const found: string[] = [];
  for (const file of projectFiles(['README.md', 'docs', 'src', 'bench', 'test'], /\.(md|ts|mjs|js|html|css|json)$/)) {
    readFileSync(join(PROJECT_ROOT, file), 'utf8').split('\n').forEach((line, i) => {
      if (SESSION_WORDS.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  assert.deepEqual(found, []);
});
