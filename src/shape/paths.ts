// Projections of entries onto the paths a request keeps (`includes`, docs/api.md, "Entry shaping").
import type { PathTree } from '../domain/entry-paths.ts';

/** The tree of the paths to keep: `["vessel.id", "vessel.name", "id"]` -> {vessel: {id, name}, id}. */
export function pathTree(paths: readonly string[]): PathTree {
  const tree: PathTree = {};
  for (const path of paths) {
    let node = tree;
    const keys = path.split('.');
    keys.forEach((key, i) => {
      if (node[key] === true) return;
      if (i === keys.length - 1) node[key] = true;
      else node = (node[key] ??= {}) as PathTree;
    });
  }
  return tree;
}

/** Keeps the tree's paths of a value, in the value's own key order; arrays keep them per element. */
export function project(value: unknown, tree: PathTree | true): unknown {
  if (tree === true || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => project(v, tree));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (Object.hasOwn(tree, key)) out[key] = project(v, tree[key]!);
  return out;
}
