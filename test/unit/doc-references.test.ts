// The code and the docs cite sections of the docs by title (`docs/performance.md, "Updates"`), and
// docs/performance.md cites its own sections as `("Updates")`: every such title names a heading of
// the document cited, or a bold run-in title of one of its paragraphs, so a section cannot be
// renamed or dropped while something still sends readers to it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT, projectFiles } from '../helpers/project-files.ts';

/** A citation: the document and the title it names. */
interface Citation { doc: string; title: string }

/**
 * Titles a document can be cited by: each heading, its part before a colon when it has one
 * ("Growth" for "Growth: 1M, 10M, 50M, and what 10^8 would take"), and each bold run-in title.
 */
function titlesOf(markdown: string): Set<string> {
  const titles = new Set<string>();
  for (const m of markdown.matchAll(/^#+ (.+)$/gm)) {
    const heading = m[1]!.trim();
    titles.add(heading);
    const colon = heading.indexOf(': ');
    if (colon > 0) titles.add(heading.slice(0, colon));
  }
  for (const m of markdown.matchAll(/\*\*([^*\n]+?)\.?\*\*/g)) titles.add(m[1]!.trim());
  return titles;
}

/** Text with its line breaks, and the comment or quote marks that continue a line, made spaces. */
function joinedLines(text: string): string {
  return text.replace(/[ \t]*\n[ \t]*(?:\/\/|\*(?!\*)|>)?[ \t]*/g, ' ');
}

/**
 * The citations in a file's text: `<name>.md, "Title"` (or `<name>.md ("Title"`) anywhere, and in
 * `ownDoc`, the document itself, a bare `("Title"`.
 */
function citationsIn(text: string, ownDoc?: string): Citation[] {
  const joined = joinedLines(text);
  const found: Citation[] = [];
  for (const m of joined.matchAll(/\b([a-z][a-z-]*)\.md,? \(?"([^"]+)"/g)) found.push({ doc: `${m[1]}.md`, title: m[2]! });
  if (ownDoc) {
    for (const m of joined.matchAll(/(?<!\.md,? )\("([A-Z][^"]+)"/g)) found.push({ doc: ownDoc, title: m[1]! });
  }
  return found;
}

test('citationsIn reads the forms the project writes, across comment lines', () => {
  assert.deepEqual(citationsIn('// see (docs/performance.md, "The PostgreSQL engine:\n  // updates").'), [{ doc: 'performance.md', title: 'The PostgreSQL engine: updates' }]);
  assert.deepEqual(citationsIn(' * docs/api.md ("Wire formats")'), [{ doc: 'api.md', title: 'Wire formats' }]);
  assert.deepEqual(citationsIn('as above ("Growth"), and', 'performance.md'), [{ doc: 'performance.md', title: 'Growth' }]);
  assert.deepEqual(citationsIn('a "quoted" word, ("lower case")'), []);
});

test('titlesOf knows headings, their parts before a colon and bold run-in titles', () => {
  const titles = titlesOf('# A\n### Growth: 1M, 10M\ntext **The hidden rows moved apart.** more **bold**\n');
  for (const t of ['A', 'Growth: 1M, 10M', 'Growth', 'The hidden rows moved apart', 'bold']) assert.ok(titles.has(t), t);
  assert.ok(!titles.has('1M, 10M'));
});

test('every section the code and the docs cite exists in the document cited', () => {
  const docs = new Map(readdirSync(join(PROJECT_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => [f, titlesOf(readFileSync(join(PROJECT_ROOT, 'docs', f), 'utf8'))]));
  const broken: string[] = [];
  let checked = 0;
  for (const name of projectFiles(['README.md', 'docs', 'src', 'bench', 'deploy', 'test', 'bin'], /\.(md|ts|mjs|js|sh)$/)) {
    // This file's examples are citations of made-up sections.
    if (name === 'test/unit/doc-references.test.ts') continue;
    // performance.md alone cites its own sections bare; elsewhere a quoted capitalised phrase in
    // brackets may be a button's label ("Try it out").
    for (const c of citationsIn(readFileSync(join(PROJECT_ROOT, name), 'utf8'), name === 'docs/performance.md' ? 'performance.md' : undefined)) {
      checked++;
      const titles = docs.get(c.doc);
      if (!titles) broken.push(`${name}: ${c.doc} is not in docs/`);
      else if (!titles.has(c.title)) broken.push(`${name}: ${c.doc} has no section "${c.title}"`);
    }
  }
  assert.ok(checked > 100, `only ${checked} citations found: are the files read as they should be?`);
  assert.deepEqual(broken, []);
});
