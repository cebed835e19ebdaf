// "Did you mean" for mistyped commands, options and API parameters. Edit distance over a few dozen
// short names is a few lines; a dependency for it would weigh more than the code.

// Edits (insert, delete, replace, swap two neighbours) from a to b: `prot` is one swap from `port`.
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name closest to what was typed, if it is close enough to be what was meant. */
export function nearest(typed: string, known: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const name of known) {
    const d = distance(typed.toLowerCase(), name.toLowerCase());
    if (!best || d < best.d) best = { name, d };
  }
  // A third of the name may differ: `--prot` finds `--port`, `--xyz` finds nothing.
  return best && best.d <= Math.max(1, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

export function didYouMean(typed: string, known: readonly string[], prefix = ''): string {
  const match = nearest(typed, known);
  return match ? `; did you mean ${prefix}${match}?` : '';
}
