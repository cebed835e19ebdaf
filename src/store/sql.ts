// SQL both engines write alike: numbered parameters and the list's order.
import type { SortValue } from '../query/kinds.ts';

// Bound parameters, numbered ($1, $2, ...) as both engines write them: a value bound once can be
// used several times, and callers can append more parameters after a WHERE clause. Every user
// value is a parameter, never SQL text.
export class SqlBuilder<Value = unknown> {
  readonly params: Value[] = [];
  placeholders(values: readonly Value[]): string {
    return values.map((v) => this.param(v)).join(', ');
  }
  param(value: Value): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

// Ties are broken by id so pages are stable. An open event has not ended: it sorts after every
// ended event on +end and before them on -end. Both engines store these columns under these names.
export const ORDER_BY: Readonly<Record<SortValue, string>> = {
  '+start': 'start_ts ASC, id ASC',
  '-start': 'start_ts DESC, id DESC',
  '+end': 'end_ts ASC NULLS LAST, id ASC',
  '-end': 'end_ts DESC NULLS FIRST, id DESC',
};
