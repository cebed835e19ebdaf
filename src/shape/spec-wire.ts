// The `spec` wire format (docs/api.md, "Wire formats") from a stored entry, which is in the `gfw` format:
// the interface's types where `gfw` writes the live service's strings. An open event's end is null,
// an authorization true or false (or its text, "pending"), and the numbers `gfw` writes as decimal
// strings are numbers again (JS's String() and Number() round-trip every finite double).
import { EVENT_INFO_FIELDS, isObjectField, type InfoField } from '../domain/event-info.ts';
import type { EventKind } from '../domain/kinds.ts';

type Json = Record<string, unknown>;

export function specFromGfw(entry: Json): Json {
  if (entry['end'] === '') entry['end'] = null;
  specVessel(entry['vessel'] as Json);
  const kind = entry['type'] as EventKind;
  const block = entry[kind] as Json | null | undefined;
  if (block) {
    if (kind === 'encounter' && block['vessel']) specVessel(block['vessel'] as Json);
    specFields(EVENT_INFO_FIELDS[kind], block);
  }
  return entry;
}

function specVessel(vessel: Json): void {
  for (const a of (vessel['publicAuthorizations'] as Json[] | undefined) ?? []) {
    const text = a['hasPubliclyListedAuthorization'];
    if (text === 'true' || text === 'false') a['hasPubliclyListedAuthorization'] = text === 'true';
  }
}

function specFields(fields: InfoField[], block: Json): void {
  for (const f of fields) {
    const value = block[f.key];
    if (value === null || value === undefined) continue;
    if (isObjectField(f)) specFields(f.fields, value as Json);
    else if (f.gfwString) block[f.key] = Number(value);
  }
}
