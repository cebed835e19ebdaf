// The one alias table: how any spelling a client sends maps to a canonical (camelCase, POST-body)
// parameter name. Decisions section 2: GET accepts the interface spelling and kebab-case; bodies
// accept camelCase and the interface's hyphenated stats spellings. Both reduce to one rule:
// strip an index suffix (`flags[0]`), then turn `-x` into `X`.

/** `flags[0]`, `flags[]`, `vessel-types` -> `flags`, `flags`, `vesselTypes`. */
export function canonicalParameterName(spelled: string): string {
  const withoutIndex = spelled.replace(/\[\d*\]$/, '');
  return withoutIndex.replace(/-([a-zA-Z])/g, (_, c: string) => c.toUpperCase());
}

/** True when the spelling carried an index or `[]`, which always means "array element". */
export function hasIndexSuffix(spelled: string): boolean {
  return /\[\d*\]$/.test(spelled);
}

