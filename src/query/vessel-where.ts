// The `where` of a vessel search: the subset of the Vessels API's advanced query this service
// answers. Comparisons `field = 'value'` on shipname, ssvid (or mmsi), imo, callsign and flag,
// joined by AND and OR (AND binds tighter) and grouped by parentheses, e.g.
// `(shipname = 'SEIN PHOENIX' OR mmsi = '441618000') AND flag = 'KOR'`. Anything else is refused
// with the position and what was expected there, never read as a wider search.
import { invalid } from './errors.ts';

export const WHERE_FIELDS = ['shipname', 'ssvid', 'imo', 'callsign', 'flag'] as const;
export type WhereField = (typeof WHERE_FIELDS)[number];

/** Field names as written, lower case: mmsi is the ssvid under its usual name. */
const FIELD_SPELLINGS: Readonly<Record<string, WhereField>> = { shipname: 'shipname', ssvid: 'ssvid', mmsi: 'ssvid', imo: 'imo', callsign: 'callsign', flag: 'flag' };

export type WhereExpression =
  | { op: 'and' | 'or'; operands: WhereExpression[] }
  | { op: 'equals'; field: WhereField; value: string };

/** Longer texts and deeper nesting than any hand-written search: refused before they cost anything. */
export const MAX_WHERE_LENGTH = 2000;
export const MAX_WHERE_DEPTH = 20;

type Token = { kind: 'word' | 'string' | 'symbol'; text: string; at: number };

/** Parses `where`; a problem is a 422 titled with the parameter as the client spelled it. */
export function parseWhere(text: string, title = 'where'): WhereExpression {
  const fail = (detail: string) => invalid(title, `${title} ${detail}`);
  if (text.length > MAX_WHERE_LENGTH) throw fail(`is ${text.length} characters long; at most ${MAX_WHERE_LENGTH} are accepted`);
  const tokens = tokenize(text, fail);
  let next = 0;
  const describe = (t: Token | undefined) => (t ? `"${t.text}" at character ${t.at + 1}` : 'the end of the text');
  const peekWord = (word: string) => tokens[next]?.kind === 'word' && tokens[next]!.text.toUpperCase() === word;

  const expression = (depth: number): WhereExpression => {
    if (depth > MAX_WHERE_DEPTH) throw fail(`nests parentheses deeper than ${MAX_WHERE_DEPTH}`);
    const ors = [conjunction(depth)];
    while (peekWord('OR')) {
      next++;
      ors.push(conjunction(depth));
    }
    return ors.length === 1 ? ors[0]! : { op: 'or', operands: ors };
  };
  const conjunction = (depth: number): WhereExpression => {
    const ands = [operand(depth)];
    while (peekWord('AND')) {
      next++;
      ands.push(operand(depth));
    }
    return ands.length === 1 ? ands[0]! : { op: 'and', operands: ands };
  };
  const operand = (depth: number): WhereExpression => {
    const t = tokens[next];
    if (t?.kind === 'symbol' && t.text === '(') {
      next++;
      const inner = expression(depth + 1);
      const close = tokens[next];
      if (close?.kind !== 'symbol' || close.text !== ')') throw fail(`expects ")" but found ${describe(close)}`);
      next++;
      return inner;
    }
    if (t?.kind !== 'word') throw fail(`expects a field (${Object.keys(FIELD_SPELLINGS).join(', ')}) or "(" but found ${describe(t)}`);
    const field = FIELD_SPELLINGS[t.text.toLowerCase()];
    if (!field) throw fail(`has an unknown field "${t.text}" at character ${t.at + 1}; the fields are ${Object.keys(FIELD_SPELLINGS).join(', ')}`);
    next++;
    const operator = tokens[next];
    if (operator?.kind !== 'symbol' || operator.text !== '=') throw fail(`expects "=" after ${t.text} but found ${describe(operator)}; = is the only comparison`);
    next++;
    const value = tokens[next];
    if (value?.kind !== 'string' && value?.kind !== 'word') throw fail(`expects a value such as '${field === 'flag' ? 'KOR' : 'SEIN PHOENIX'}' after ${t.text} = but found ${describe(value)}`);
    next++;
    return { op: 'equals', field, value: value.text };
  };

  const parsed = expression(0);
  if (next < tokens.length) throw fail(`expects AND, OR or the end but found ${describe(tokens[next])}`);
  return parsed;
}

function tokenize(text: string, fail: (detail: string) => Error): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === '=') {
      tokens.push({ kind: 'symbol', text: c, at: i++ });
    } else if (c === "'" || c === '"') {
      // A quote inside a value is written twice, as in SQL.
      const at = i++;
      let value = '';
      for (;;) {
        if (i >= text.length) throw fail(`has a value opened at character ${at + 1} and never closed (${c})`);
        if (text[i] === c && text[i + 1] === c) {
          value += c;
          i += 2;
        } else if (text[i] === c) {
          i++;
          break;
        } else {
          value += text[i++];
        }
      }
      tokens.push({ kind: 'string', text: value, at });
    } else if (/[\p{L}\p{N}_.-]/u.test(c)) {
      const at = i;
      while (i < text.length && /[\p{L}\p{N}_.-]/u.test(text[i]!)) i++;
      tokens.push({ kind: 'word', text: text.slice(at, i), at });
    } else {
      throw fail(`has "${c}" at character ${i + 1}, which it does not read: comparisons are field = 'value', joined by AND, OR and parentheses`);
    }
  }
  if (tokens.length === 0) throw fail('is empty');
  return tokens;
}
