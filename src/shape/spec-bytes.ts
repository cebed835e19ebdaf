// The `spec` wire format written into stored bytes (specFromGfw's rewrite, spec-wire.ts, without
// parsing): the big page in `spec` at the speed of the stored one.
import { EVENT_INFO_FIELDS, isObjectField, type InfoField } from '../domain/event-info.ts';
import { EVENT_KINDS, type EventKind } from '../domain/kinds.ts';

/** The keys `gfw` writes as decimal strings in the kind blocks, at any depth. */
function gfwStringKeys(fields: InfoField[]): string[] {
  return fields.flatMap((f) => (isObjectField(f) ? gfwStringKeys(f.fields) : f.gfwString ? [f.key] : []));
}

const AUTHORIZATION = 'hasPubliclyListedAuthorization';
/**
 * The members specFromGfw may change, of every kind at once: a run of entries of several kinds is
 * rewritten in one pass. That holds while no key here names a member written as a string that stays
 * a string in some kind (test/integration/stored-entries.test.ts checks the declarations).
 */
export const REWRITTEN_KEYS = [AUTHORIZATION, ...new Set(Object.values(EVENT_INFO_FIELDS).flatMap(gfwStringKeys))];

const bytesOf = (text: string) => Buffer.from(text, 'utf8');
const QUOTE = 0x22, BACKSLASH = 0x5c, OPEN_BRACE = 0x7b, COMMA = 0x2c;

interface Edit {
  at: number;
  length: number;
  replacement: Buffer;
}

/**
 * A member to find, by an anchor inside it: Buffer.indexOf skips by the window's last byte, so an
 * anchor ending in a letter runs 5 to 20 times faster than one ending in a quote (on 97 MB of
 * entries, 10-20 ms against 40-300).
 */
interface Member {
  /** The bytes searched for, and where the member starts relative to them. */
  anchor: Buffer;
  back: number;
  /** The member's text as far as its value's opening quote. */
  head: Buffer;
  edit(bytes: Buffer, at: number): Edit | undefined;
}

/** Whether a member starts here: after the `{` or `,` that opens it (inside a string every quote is escaped). */
const opensMember = (bytes: Buffer, at: number) => at > 0 && (bytes[at - 1] === OPEN_BRACE || bytes[at - 1] === COMMA);

/** Where the string whose text starts at `from` closes (its unescaped quote). */
function stringEnd(bytes: Buffer, from: number): number {
  for (let at = from; at < bytes.length; at++) {
    if (bytes[at] === BACKSLASH) at++;
    else if (bytes[at] === QUOTE) return at;
  }
  return -1;
}

function authorization(value: 'true' | 'false'): Member {
  const head = bytesOf(`"${AUTHORIZATION}":"`);
  const whole = bytesOf(`"${AUTHORIZATION}":"${value}"`);
  const replacement = bytesOf(`"${AUTHORIZATION}":${value}`);
  return {
    anchor: bytesOf(`${AUTHORIZATION}":"${value[0]}`), back: 1, head,
    edit: (bytes, at) => (bytes.subarray(at, at + whole.length).equals(whole) ? { at, length: whole.length, replacement } : undefined),
  };
}

function decimal(key: string): Member {
  const head = bytesOf(`"${key}":"`);
  return {
    anchor: bytesOf(`${key}":"`), back: 1, head,
    edit(bytes, at) {
      const from = at + head.length;
      const end = stringEnd(bytes, from);
      if (end < 0) return undefined;
      const text = JSON.parse(`"${bytes.toString('utf8', from, end)}"`) as string;
      return { at, length: end + 1 - at, replacement: bytesOf(`"${key}":${JSON.stringify(Number(text))}`) };
    },
  };
}

// An open event's end, `""`, follows its start, the first member of every stored entry.
const START = bytesOf('{"start":"');
const OPEN_END: Member = {
  anchor: bytesOf('end":"","id'), back: 1, head: bytesOf('"end":""'),
  edit(bytes, at) {
    if (bytes[at - 2] !== QUOTE) return undefined;
    const startValue = bytes.lastIndexOf(QUOTE, at - 3) + 1;
    if (startValue < START.length || !bytes.subarray(startValue - START.length, startValue).equals(START)) return undefined;
    return { at, length: '"end":""'.length, replacement: bytesOf('"end":null') };
  },
};

/** The members to rewrite in entries of these kinds. */
function membersOf(kinds: readonly EventKind[]): Member[] {
  const keys = new Set(kinds.flatMap((kind) => gfwStringKeys(EVENT_INFO_FIELDS[kind])));
  return [authorization('true'), authorization('false'), OPEN_END, ...[...keys].map(decimal)];
}

/** Applies the edits in place when none lengthens the text before it has been read, else into a new buffer. */
function applied(bytes: Buffer, edits: Edit[]): Buffer {
  if (edits.length === 0) return bytes;
  edits.sort((a, b) => a.at - b.at);
  let growth = 0;
  let inPlace = true;
  for (const e of edits) {
    growth += e.replacement.length - e.length;
    if (growth > 0) inPlace = false;
  }
  // A new buffer costs a page fault per 4 KB on this kind of machine: 0.4 s for a page of 97 MB,
  // against 6 ms to copy into memory already held (docs/performance.md).
  const out = inPlace ? bytes : Buffer.allocUnsafe(bytes.length + growth);
  let read = 0;
  let write = 0;
  for (const e of edits) {
    write += bytes.copy(out, write, read, e.at);
    write += e.replacement.copy(out, write);
    read = e.at + e.length;
  }
  write += bytes.copy(out, write, read);
  return out.subarray(0, write);
}

/**
 * specFromGfw on stored bytes of entries of the given kinds, without parsing them: one entry, or a
 * run of whole entries joined by separators, rewritten in place where it only shrinks (the caller
 * hands over bytes it owns). The same bytes as parsing, rewriting and writing each entry (tested on
 * every kind and on hostile strings), found by the native byte search: a page of 99,999 entries in
 * a fraction of the time (docs/performance.md, "The big page in runs").
 */
export function specRewriter(kinds: readonly EventKind[] = EVENT_KINDS): (bytes: Buffer) => Buffer {
  const members = membersOf(kinds);
  return (bytes) => {
    const edits: Edit[] = [];
    for (const m of members) {
      for (let found = bytes.indexOf(m.anchor); found >= 0; found = bytes.indexOf(m.anchor, found + m.anchor.length)) {
        const at = found - m.back;
        if (!opensMember(bytes, at) || !bytes.subarray(at, at + m.head.length).equals(m.head)) continue;
        const edit = m.edit(bytes, at);
        if (edit) edits.push(edit);
      }
    }
    return applied(bytes, edits);
  };
}
