// Entry shaping (docs/api.md, "Entry shaping"): summary, include-regions=false and includes, applied to a
// full entry. The key order of the full entry is kept.
import type { EntryShape } from '../query/types.ts';
import { pathTree, project } from './paths.ts';
import { specFromGfw } from './spec-wire.ts';
import { specTextFromGfw } from './spec-bytes.ts';
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

/** Whether the only shaping is the `spec` wire format, which is rewritten in the stored text (spec-bytes.ts). */
export function onlySpec(shape: EntryShape, wire: WireFormat): boolean {
  return wire === 'spec' && !shape.summary && shape.includeRegions && !shape.includes;
}

/** The same shaping from stored text to text; undefined when the stored text is the answer. */
export function entryTextShaper(shape: EntryShape, wire: WireFormat): ((text: string) => string) | undefined {
  const shaped = entryShaper(shape, wire);
  if (!shaped) return undefined;
  if (onlySpec(shape, wire)) return specTextFromGfw;
  return (text) => JSON.stringify(shaped(JSON.parse(text) as Entry));
}
