// The engines' names alone, for the option parser: store/engines.ts loads both drivers, which
// costs the command line over a second before `--help` or a usage error could answer.
export const ENGINES = ['duckdb', 'postgres'] as const;
export type EngineName = (typeof ENGINES)[number];
