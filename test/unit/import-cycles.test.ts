// No import cycles in src/, type-only imports included. ESLint's import-x/no-cycle (eslint.config.mjs)
// skips `import type`, yet a cycle of types still ties modules together: neither can be read,
// moved or tested without the other. This reads every import of src/ and looks for a cycle.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/** Every module's project imports (relative specifiers), resolved to paths from the project's root. */
function importGraph(): Map<string, string[]> {
  const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join(SRC, f));
  const graph = new Map<string, string[]>();
  const specifier = /(?:^|\n)\s*(?:import|export)\s[^;'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(specifier)].map((m) => relative(ROOT, normalize(join(dirname(file), m[1] ?? m[2]!))));
    graph.set(relative(ROOT, file), [...new Set(targets)]);
  }
  return graph;
}

/** The graph's strongly connected components of more than one module (Tarjan), each a cycle or several. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

test('the import graph is read: every module is found, with its imports', () => {
  const graph = importGraph();
  assert.ok(graph.size > 100, `${graph.size} modules`);
  assert.ok(graph.get('src/store/engines.ts')!.some((t) => t.startsWith('src/store/duckdb/')));
  // A type-only import counts.
  assert.ok(graph.get('src/store/postgres/inspect.ts')!.includes('src/store/catalog.ts'));
});

test('a cycle is found, through type-only imports too', () => {
  assert.deepEqual(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]])), [['a', 'b', 'c']]);
  assert.deepEqual(cycles(new Map([['a', ['b']], ['b', []]])), []);
});

test('src/ has no import cycle, type-only imports included', () => {
  assert.deepEqual(cycles(importGraph()), []);
});
