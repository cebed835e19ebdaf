// The data budgets of the demo/loader issue, measured (never asserted in tests):
//   npm run bench:data -- --events 1000000 [--format parquet] [--seed 1]
// Times the two ways data gets in (the demo pipeline `vessel-events demo`, and `generate` files
// then `load` them), the database size per event, and the peak memory of each run, on real
// processes of the CLI. Results go to bench/results/<date>-data-<events>.json.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { events: { type: 'string', default: '1000000' }, format: { type: 'string', default: 'parquet' }, seed: { type: 'string', default: '1' } } });
const events = Number(values.events);
const BIN = join(import.meta.dirname, '../bin/vessel-events.js');
const work = mkdtempSync(join(tmpdir(), 'vessel-events-bench-'));

/** Runs the CLI under /usr/bin/time; returns wall seconds and peak resident memory. */
function timed(args: string[]): { seconds: number; peakMiB: number } {
  const started = process.hrtime.bigint();
  const run = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, BIN, ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0) throw new Error(`vessel-events ${args.join(' ')} failed:\n${run.stderr}`);
  const peakKiB = Number(run.stderr.trim().split('\n').at(-1));
  return { seconds: Math.round(seconds * 10) / 10, peakMiB: Math.round(peakKiB / 1024) };
}

const sizeOf = (path: string) => statSync(path).size;
const folderSize = (dir: string): number => readdirSync(dir, { withFileTypes: true }).reduce((s, e) => s + (e.isDirectory() ? folderSize(join(dir, e.name)) : sizeOf(join(dir, e.name))), 0);

try {
  const demoDb = join(work, 'demo.duckdb');
  const demo = timed(['demo', '--events', String(events), '--seed', values.seed!, '--db', demoDb]);
  const out = join(work, 'files');
  const generate = timed(['generate', '--events', String(events), '--seed', values.seed!, '--out', out, '--format', values.format!]);
  const filesDb = join(work, 'files.duckdb');
  const kinds = ['fishing', 'encounter', 'loitering', 'port_visit', 'gap'].map((k) => join(out, `${k}.${values.format}`));
  const load = timed(['load', '--db', filesDb, '--version', 'v1', ...kinds]);
  const rows = Number(execFileSync(process.execPath, [BIN, 'versions', 'list', '--db', filesDb], { encoding: 'utf8' }).split('\n').filter(Boolean).reduce((s, l) => s + Number(/\t(\d+) entr(?:y|ies)\b/.exec(l)?.[1] ?? 0), 0));
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
    events,
    entries: rows,
    demo: { ...demo, databaseBytes: sizeOf(demoDb), bytesPerEntry: Math.round(sizeOf(demoDb) / rows) },
    generate: { ...generate, format: values.format, fileBytes: folderSize(out) },
    load: { ...load, databaseBytes: sizeOf(filesDb), bytesPerEntry: Math.round(sizeOf(filesDb) / rows) },
    generateThenLoadSeconds: Math.round((generate.seconds + load.seconds) * 10) / 10,
  };
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  const file = join(import.meta.dirname, 'results', `${result.date.slice(0, 10)}-data-${events}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  console.log(`written ${file}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
