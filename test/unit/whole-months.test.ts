// wholeMonthsOf (src/store/whole-months.ts): the months a table counted by month of start sums for a
// window, shared by the statistics rollups and PostgreSQL's region_months. Every month it names lies
// wholly inside the window, and the months just outside its span do not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { wholeMonthsOf } from '../../src/store/whole-months.ts';

const nextMonth = (ms: number) => { const d = new Date(ms); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1); };
const previousMonth = (ms: number) => { const d = new Date(ms); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1); };
const isMonthStart = (ms: number) => { const d = new Date(ms); return d.getTime() === Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1); };

// Instants from 2010 to 2030, half of them on a month's first instant, where the edges are decided.
const instant = fc.oneof(
  fc.integer({ min: Date.UTC(2010, 0, 1), max: Date.UTC(2030, 0, 1) }),
  fc.tuple(fc.integer({ min: 2010, max: 2029 }), fc.integer({ min: 0, max: 11 })).map(([y, m]) => Date.UTC(y, m, 1)),
);

test('wholeMonthsOf names exactly the months wholly inside the window', () => {
  fc.assert(fc.property(fc.option(instant, { nil: undefined }), fc.option(instant, { nil: undefined }), (start, end) => {
    const months = wholeMonthsOf(start, end);
    if (months === undefined) {
      assert.ok(start !== undefined && end !== undefined, 'a window open at either end has whole months');
      const first = isMonthStart(start) ? start : nextMonth(start);
      assert.ok(nextMonth(first) > end, 'no month fits in the window');
      return;
    }
    const { firstWholeMs, afterWholeMs } = months;
    assert.equal(firstWholeMs === undefined, start === undefined);
    assert.equal(afterWholeMs === undefined, end === undefined);
    if (firstWholeMs !== undefined) {
      assert.ok(isMonthStart(firstWholeMs) && firstWholeMs >= start!, 'the first month starts inside the window');
      assert.ok(previousMonth(firstWholeMs) < start!, 'the month before it starts before the window');
    }
    if (afterWholeMs !== undefined) {
      assert.ok(isMonthStart(afterWholeMs) && afterWholeMs <= end!, 'the last month ends inside the window');
      assert.ok(nextMonth(afterWholeMs) > end!, 'the month after it ends after the window');
    }
    if (firstWholeMs !== undefined && afterWholeMs !== undefined) assert.ok(firstWholeMs < afterWholeMs);
  }), { numRuns: 5000 });
});

test('wholeMonthsOf on the edges: a window of one whole month, and one a millisecond short', () => {
  assert.deepEqual(wholeMonthsOf(Date.UTC(2021, 1, 1), Date.UTC(2021, 2, 1)), { firstWholeMs: Date.UTC(2021, 1, 1), afterWholeMs: Date.UTC(2021, 2, 1) });
  assert.equal(wholeMonthsOf(Date.UTC(2021, 1, 1) + 1, Date.UTC(2021, 2, 1)), undefined);
  assert.equal(wholeMonthsOf(Date.UTC(2021, 1, 1), Date.UTC(2021, 2, 1) - 1), undefined);
  assert.deepEqual(wholeMonthsOf(undefined, Date.UTC(2021, 2, 15)), { firstWholeMs: undefined, afterWholeMs: Date.UTC(2021, 2, 1) });
});
