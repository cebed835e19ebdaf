// Progress of long loads: the reading phase with its rate and time left, then each later phase by
// name with its time and an estimate that never sits at "~0 s left", and a closing line.
import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { progressReporter } from '../../src/cli/progress.ts';

describe('progress', () => {
  test('phases are named, estimated from the reading time, and never stuck at ~0 s left', () => {
    mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
    try {
      const lines: string[] = [];
      const progress = progressReporter('load', 1000, 'reading', (text) => lines.push(text.replace(/^\r|\x1b\[K$/g, '').trim()));
      mock.timers.tick(1000);
      progress.update(500);
      assert.match(lines.at(-1)!, /^load: reading, 500 rows, 500 rows\/s, ~1 s left$/);
      mock.timers.tick(19_000);
      progress.update(1000);
      // Reading took 20 s: sorting files' rows is expected to take 1.6 times as long.
      progress.phase('sorting');
      assert.match(lines.at(-1)!, /^load: sorting, 0 s, ~32 s left$/);
      mock.timers.tick(4000);
      assert.match(lines.at(-1)!, /^load: sorting, 4 s, ~28 s left$/);
      mock.timers.tick(30_000);
      assert.match(lines.at(-1)!, /^load: sorting, 34 s, longer than the ~32 s it usually takes$/);
      assert.ok(lines.every((l) => !/~0 s left/.test(l)), 'never ~0 s left');
      progress.phase('publishing');
      mock.timers.tick(2000);
      progress.done();
      assert.match(lines.at(-1)!, /^load: done in 56 s \(reading 20 s, sorting 34 s, publishing 2 s\)$/);
      // Nothing more is printed once done.
      const count = lines.length;
      mock.timers.tick(5000);
      assert.equal(lines.length, count);
    } finally {
      mock.timers.reset();
    }
  });

  test('after generating (the demo), sorting is expected to take less than after reading files', () => {
    mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
    try {
      const lines: string[] = [];
      const progress = progressReporter('demo', 1000, 'generating', (text) => lines.push(text.replace(/^\r|\x1b\[K$/g, '').trim()));
      mock.timers.tick(20_000);
      progress.update(1000);
      progress.phase('sorting');
      assert.match(lines.at(-1)!, /^demo: sorting, 0 s, ~8 s left$/);
      progress.done();
    } finally {
      mock.timers.reset();
    }
  });

  test('in a log each line is written once: rows a minute apart, a line as each phase starts, the closing line', () => {
    mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
    try {
      const written: string[] = [];
      const progress = progressReporter('load', 10_000, 'reading', (text) => written.push(text), 'lines');
      for (let second = 1; second <= 150; second++) {
        mock.timers.tick(1000);
        progress.update(second * 50);
      }
      // Rows at the first report, then a minute apart: not every half second as on a terminal.
      assert.deepEqual(written, [
        'load: reading, 50 rows, 50 rows/s, ~199 s left\n',
        'load: reading, 3,050 rows, 50 rows/s, ~139 s left\n',
        'load: reading, 6,050 rows, 50 rows/s, ~79 s left\n',
      ]);
      progress.phase('sorting');
      mock.timers.tick(100_000);
      progress.phase('publishing');
      mock.timers.tick(5_000);
      progress.done();
      // Reading took 150 s: sorting is expected to take 240; no line is redrawn while a phase runs.
      assert.deepEqual(written.slice(3), [
        'load: sorting, ~240 s expected\n',
        'load: publishing, ~15 s expected\n',
        'load: done in 255 s (reading 150 s, sorting 100 s, publishing 5 s)\n',
      ]);
      assert.ok(written.every((line) => !line.includes('\r') && !line.includes('\x1b')), 'no terminal control characters in a log');
    } finally {
      mock.timers.reset();
    }
  });

  test('quiet writes nothing', () => {
    const written: string[] = [];
    const progress = progressReporter('load', 10, 'reading', (text) => written.push(text), 'quiet');
    progress.update(5);
    progress.phase('sorting');
    progress.done();
    assert.deepEqual(written, []);
  });
});
