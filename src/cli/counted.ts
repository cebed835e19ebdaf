// A number with its noun, singular for one: "1 entry", "2 entries", "0 stale files".

export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
