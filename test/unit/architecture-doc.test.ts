// docs/architecture.md stays true: every project path it names in backticks exists, and every
// folder of src/ (each floor of the code) is described there, so a floor cannot be added, moved or
// renamed without the document following.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '../..');
const DOC = 'docs/architecture.md';
const text = readFileSync(join(ROOT, DOC), 'utf8');

/** What a span in backticks names when it names a project path (`src/app.ts:62` names src/app.ts). */
function projectPath(span: string): string | undefined {
  const path = span.trim().replace(/:\d+(-\d+)?$/, '');
  // Words, globs, commands and URLs are not paths of the repository.
  if (!/^[\w.@-]+(\/[\w.@-]*)*$/.test(path)) return undefined;
  if (/^(src|test|bench|docs|explorer|bin|deploy)\//.test(path)) return path;
  if (/\.(ts|md|mjs)$/.test(path)) return path;
  return undefined;
}

/** Every span in single backticks, outside fenced code blocks. */
function backtickSpans(markdown: string): string[] {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
}

test('projectPath tells paths from other code spans', () => {
  assert.equal(projectPath('src/store/engines.ts'), 'src/store/engines.ts');
  assert.equal(projectPath('src/store/'), 'src/store/');
  assert.equal(projectPath('eslint.config.mjs'), 'eslint.config.mjs');
  assert.equal(projectPath('src/app.ts:62'), 'src/app.ts');
  assert.equal(projectPath('query.filters'), undefined);
  assert.equal(projectPath('npm run lint'), undefined);
  assert.equal(projectPath('/v3/events'), undefined);
  assert.equal(projectPath('src/**/*.ts'), undefined);
});

test(`every project path ${DOC} names exists`, () => {
  const paths = [...new Set(backtickSpans(text).map(projectPath).filter((p): p is string => p !== undefined))];
  assert.ok(paths.length > 50, `only ${paths.length} paths found: is the document read as it should be?`);
  const missing = paths.filter((p) => !existsSync(join(ROOT, p)));
  assert.deepEqual(missing, [], `${DOC} names paths the repository does not have`);
});

test(`every folder of src/ is described in ${DOC}`, () => {
  const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  assert.ok(folders.length > 0);
  const undescribed = folders.filter((name) => !new RegExp(`src/${name}(?![\\w-])`).test(text));
  assert.deepEqual(undescribed, [], `folders of src/ that ${DOC} does not mention`);
});
