// Entry shaping (docs/api.md, "Entry shaping"): summary, include-regions=false and includes, applied to a
// full entry. The key order of the full entry is kept.
import type { EntryShape } from '../query/types.ts';
import { pathTree, project } from './paths.ts';
import { specFromGfw } from './spec-wire.ts';
import { specRewriter } from './spec-bytes.ts';
import type { EventKind } from '../domain/kinds.ts';
import type { WireFormat } from './wire.ts';

/** An entry as clients receive it (stored whole, in each wire format, by the engine). */
export type Entry = Record<string, unknown>;

export const SUMMARY = pathTree(['start', 'end', 'id', 'type', 'position', 'vessel.id', 'vessel.name', 'vessel.ssvid', 'vessel.flag', 'vessel.type']);

/**
 * The function that shapes each (stored, `gfw`) entry of a response; undefined when the stored
 * entry is the answer as it is.
 */
export function entryShaper(shape: EntryShape, wire: WireFormat): ((entry: Entry) => Entry) | undefined {
  const steps: ((e: Entry) => Entry)[] = [];
  if (wire === 'spec') steps.push(specFromGfw);
  if (shape.summary) steps.push((e) => project(e, SUMMARY) as Entry);
  if (!shape.includeRegions) {
    steps.push((e) => {
      const { regions: _, ...rest } = e;
      return rest;
    });
  }
  if (shape.includes) {
    const tree = pathTree(shape.includes);
    steps.push((e) => project(e, tree) as Entry);
  }
  if (steps.length === 0) return undefined;
  return (entry) => steps.reduce((e, step) => step(e), entry);
}

/**
 * The same shaping on stored text: undefined when the stored text is the answer. `bytes` is set when
 * the shaping is the `spec` wire format alone, rewritten in the engine's bytes of a run of entries
 * (spec-bytes.ts); `text` shapes one entry, parsing it only where another shape is asked for.
 */
export function entryTextShaper(shape: EntryShape, wire: WireFormat, kinds: readonly EventKind[]): { text: (text: string) => string; bytes?: (bytes: Buffer) => Buffer } | undefined {
  const shaped = entryShaper(shape, wire);
  if (!shaped) return undefined;
  if (wire === 'spec' && !shape.summary && shape.includeRegions && !shape.includes) {
    const bytes = specRewriter(kinds);
    return { bytes, text: (text) => bytes(Buffer.from(text, 'utf8')).toString('utf8') };
  }
  return { text: (text) => JSON.stringify(shaped(JSON.parse(text) as Entry)) };
}
