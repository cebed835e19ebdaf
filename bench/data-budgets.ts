// The data budgets, measured (never asserted in tests):
//   npm run bench:data -- --events 1000000 [--format parquet] [--seed 1] [--update 50000]
//   npm run bench:data -- --db PATH --rows FISHING.parquet --update 50000 [--updates 30] [--leave-layers]
//   npm run bench:data -- --database-url URL --rows FISHING.parquet --update 50000 [--updates 3]   (PostgreSQL)
// --draw-seed N draws other rows from --rows (7 by default); on PostgreSQL the ids earlier updates
// hid are left out of the draws.
// Times the two ways data gets in (the demo pipeline `vessel-events demo`, and `generate` files
// then `load` them), the database size per event, and the peak memory and disk of each run, on real
// processes of the CLI. With --update N, then updates in a row (three, or --updates) of N fishing
// events each (a fifth new ids, the rest existing rows whose end moves an hour) and N/50 removals,
// drawn from the generated fishing file, then `compact` (not with --leave-layers, which leaves the
// database layered for `npm run bench -- --db`); with --db, those updates alone, on an existing
// database, drawn from --rows; with --database-url, the same on an existing PostgreSQL database
// (which has no compaction: an update there writes its rows into its lineage's partition of changes). Results go to
// bench/results/<date>-data-<events>.json (-update-<N>[-x<count>][-postgres-<events>] for those runs;
// a name already taken gets -2, -3..., bench/results-file.ts).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { sqlText } from '../src/store/sql.ts';
import { freeResultsStem } from './results-file.ts';

/** Where updates are applied: a DuckDB file, or a PostgreSQL database. */
type Target = { db: string } | { url: string };
const targetArgs = (t: Target) => ('db' in t ? ['--db', t.db] : ['--engine', 'postgres', '--database-url', t.url]);

const { values } = parseArgs({ options: {
  events: { type: 'string', default: '1000000' }, format: { type: 'string', default: 'parquet' }, seed: { type: 'string', default: '1' },
  update: { type: 'string' }, db: { type: 'string' }, 'database-url': { type: 'string' }, rows: { type: 'string' },
  updates: { type: 'string', default: '3' }, 'draw-seed': { type: 'string', default: '7' }, 'leave-layers': { type: 'boolean', default: false },
} });
if ((values.db || values['database-url']) && (!values.update || !values.rows)) throw new Error('--db and --database-url need --update N and --rows FISHING.parquet (the rows the updates are drawn from)');
const events = Number(values.events);
const BIN = join(import.meta.dirname, '../bin/vessel-events.js');
const work = mkdtempSync(join(tmpdir(), 'vessel-events-bench-'));

/**
 * Bytes of what a database's writer keeps in `dir` under names starting with `prefix`: the working
 * copy, its scratch file and spilled sorts, the point files. Files come and go while it is read.
 */
function bytesUnder(dir: string, prefix: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.name.startsWith(prefix)) continue;
    try {
      bytes += entry.isDirectory() ? folderSize(join(dir, entry.name)) : sizeOf(join(dir, entry.name));
    } catch {
      // removed since the folder was listed
    }
  }
  return bytes;
}

/**
 * Runs the CLI under /usr/bin/time; returns wall seconds, peak resident memory, its output and,
 * given `disk`, the most its files took on disk at once (sampled every half second).
 */
async function timed(args: string[], disk?: { dir: string; prefix: string }): Promise<{ seconds: number; peakMiB: number; stdout: string; peakDiskBytes?: number }> {
  const started = process.hrtime.bigint();
  const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, BIN, ...args], { env: { ...process.env, CI: 'true' } });
  let [stdout, stderr, peakDiskBytes] = ['', '', 0];
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const sample = () => {
    if (disk) peakDiskBytes = Math.max(peakDiskBytes, bytesUnder(disk.dir, disk.prefix));
  };
  const sampler = setInterval(sample, 500);
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (status !== 0) throw new Error(`vessel-events ${args.join(' ')} failed:\n${stderr}`);
  const peakKiB = Number(stderr.trim().split('\n').at(-1));
  return { seconds: Math.round(seconds * 10) / 10, peakMiB: Math.round(peakKiB / 1024), stdout, ...(disk ? { peakDiskBytes } : {}) };
}

const sizeOf = (path: string) => statSync(path).size;
const machine = () => ({ cpus: cpus().length, cpu: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version });

/** Writes `name`.json, beside a result of the same name rather than over it (results-file.ts). */
function write(name: string, result: unknown): void {
  const file = `${freeResultsStem(name)}.json`;
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  console.log(`written ${file}`);
}
const folderSize = (dir: string): number => readdirSync(dir, { withFileTypes: true }).reduce((s, e) => s + (e.isDirectory() ? folderSize(join(dir, e.name)) : sizeOf(join(dir, e.name))), 0);

/** Rows drawn once for every update of a run: `count` disjoint slices of size + removals rows. */
async function drawRows(rows: string, size: number, count: number, gone: readonly string[] = []): Promise<{ files: (run: number) => Promise<{ rows: string; removals: string }>; close: () => void }> {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  const removals = Math.max(1, Math.floor(size / 50));
  await c.run('CREATE TABLE gone (id VARCHAR)');
  for (let i = 0; i < gone.length; i += 10_000) await c.run(`INSERT INTO gone VALUES ${gone.slice(i, i + 10_000).map((id) => `(${sqlText(id)})`).join(', ')}`);
  // DuckDB samples a SELECT's FROM before its WHERE: the rows left after `gone` are sampled in a
  // SELECT of their own, or each run would draw the same rows and find fewer of them left.
  const wanted = count * (size + removals);
  await c.run(`CREATE TABLE drawn AS SELECT row_number() OVER () AS n, * FROM (SELECT * FROM (SELECT * FROM read_parquet(${sqlText(rows)}) WHERE event_id NOT IN (SELECT id FROM gone)) USING SAMPLE reservoir(${wanted} ROWS) REPEATABLE (${Number(values['draw-seed'])}))`);
  const drawnRows = Number((await c.runAndReadAll('SELECT count(*) FROM drawn')).getRowsJS()[0]![0]);
  if (drawnRows < wanted) throw new Error(`${rows} has ${drawnRows} rows no earlier update touched; ${count} updates of ${size} and ${removals} removals need ${wanted}`);
  const endType = String((await c.runAndReadAll(`SELECT data_type FROM information_schema.columns WHERE table_name = 'drawn' AND column_name = 'event_end'`)).getRowsJS()[0]![0]);
  const later = endType.startsWith('TIMESTAMP') ? 'coalesce(event_end, event_start) + INTERVAL 1 HOUR' : `strftime(coalesce(event_end, event_start)::TIMESTAMP + INTERVAL 1 HOUR, '%Y-%m-%dT%H:%M:%S.%gZ')`;
  const changed = Math.floor(size * 0.8);
  /**
   * The files of update `run`: `size` fishing rows (a fifth under new ids, the rest with their end
   * an hour later) and size/50 ids to remove. Each run has its own slice of the drawn rows, so no
   * id it removes was removed before.
   */
  const files = async (run: number) => {
    const from = run * (size + removals);
    const paths = { rows: join(work, `update-${run}.parquet`), removals: join(work, `remove-${run}.txt`) };
    await c.run(`COPY (
      SELECT * EXCLUDE (n) REPLACE (${later} AS event_end) FROM drawn WHERE n > ${from} AND n <= ${from + changed}
      UNION ALL SELECT * EXCLUDE (n) REPLACE ('update${run}-' || event_id AS event_id) FROM drawn WHERE n > ${from + changed} AND n <= ${from + size}
    ) TO ${sqlText(paths.rows)} (FORMAT parquet)`);
    await c.run(`COPY (SELECT event_id FROM drawn WHERE n > ${from + size} AND n <= ${from + size + removals}) TO ${sqlText(paths.removals)} (FORMAT csv, HEADER false)`);
    return paths;
  };
  return { files, close: () => { c.closeSync(); instance.closeSync(); } };
}

/**
 * Updates in a row on the target, each timed (on DuckDB each is a layer beside the database), then,
 * on DuckDB unless --leave-layers, the compaction that writes the last whole; the catalogue's size
 * after each (on DuckDB point files and layers included; on PostgreSQL the database's).
 */
async function updates(target: Target, rows: string, size: number): Promise<Record<string, unknown>> {
  const count = Number(values.updates);
  const drawn = await drawRows(rows, size, count, 'url' in target ? await removedBefore(target.url) : []);
  const runs: { seconds: number; peakMiB: number }[] = [];
  try {
    for (let run = 0; run < count; run++) {
      const files = await drawn.files(run);
      const { stdout: _, ...timing } = await timed(['load', ...targetArgs(target), '--update', '--version', `bench-update-${Date.now()}-${run}`, '--dataset', 'fishing', '--remove', files.removals, files.rows]);
      runs.push(timing);
      rmSync(files.rows);
      log(`update ${run + 1} of ${count}: ${runs.at(-1)!.seconds} s, ${runs.at(-1)!.peakMiB} MiB`);
    }
  } finally {
    drawn.close();
  }
  const seconds = runs.map((r) => r.seconds).sort((a, b) => a - b);
  const catalogueBytes = async () => {
    if ('url' in target) {
      const c = new pg.Client({ connectionString: target.url });
      await c.connect();
      try {
        return Number((await c.query('SELECT pg_database_size(current_database()) AS n')).rows[0].n);
      } finally {
        await c.end();
      }
    }
    const db = target.db;
    return sizeOf(db) + folderSize(`${db}.points`) + (existsSync(`${db}.layers`) ? folderSize(`${db}.layers`) : 0);
  };
  const catalogueBytesAfter = await catalogueBytes();
  const compact = 'url' in target || values['leave-layers'] ? undefined : await timed(['compact', ...targetArgs(target)], { dir: dirname(target.db), prefix: basename(target.db) });
  return {
    size, removals: Math.max(1, Math.floor(size / 50)), runs,
    p50Seconds: seconds[Math.floor((seconds.length - 1) / 2)], maxSeconds: seconds.at(-1),
    catalogueBytesAfter, ...(compact ? { compact: { seconds: compact.seconds, peakMiB: compact.peakMiB, peakDiskBytes: compact.peakDiskBytes, catalogueBytesAfter: await catalogueBytes() } } : {}),
  };
}

const log = (line: string) => console.error(`${new Date().toISOString().slice(11, 19)} ${line}`);

/** The demo and the files loaded: times, sizes and peak memory, then the updates if asked. */
async function loadBudgets(): Promise<void> {
  const demoDb = join(work, 'demo.duckdb');
  const { stdout: _demoOut, ...demo } = await timed(['demo', '--events', String(events), '--seed', values.seed!, '--db', demoDb], { dir: work, prefix: 'demo.duckdb' });
  const out = join(work, 'files');
  const { stdout: written, ...generate } = await timed(['generate', '--events', String(events), '--seed', values.seed!, '--out', out, '--format', values.format!], { dir: work, prefix: 'files' });
  const filesDb = join(work, 'files.duckdb');
  // The event files generate names (a kind of over 10 million rows comes in parts), fishing's first.
  const kinds = written.split('\n').filter((line) => line.endsWith(`.${values.format}`));
  const { stdout: _loadOut, ...load } = await timed(['load', '--db', filesDb, '--version', 'v1', ...kinds], { dir: work, prefix: 'files.duckdb' });
  const rows = Number(execFileSync(process.execPath, [BIN, 'versions', 'list', '--db', filesDb], { encoding: 'utf8' }).split('\n').filter(Boolean).reduce((s, l) => s + Number(/\t(\d+) entr(?:y|ies)\b/.exec(l)?.[1] ?? 0), 0));
  const result = {
    date: new Date().toISOString(),
    machine: machine(),
    events,
    entries: rows,
    demo: { ...demo, databaseBytes: sizeOf(demoDb), bytesPerEntry: Math.round(sizeOf(demoDb) / rows) },
    generate: { ...generate, format: values.format, fileBytes: folderSize(out) },
    load: { ...load, databaseBytes: sizeOf(filesDb), bytesPerEntry: Math.round(sizeOf(filesDb) / rows) },
    generateThenLoadSeconds: Math.round((generate.seconds + load.seconds) * 10) / 10,
    ...(values.update ? { update: await updates({ db: filesDb }, kinds[0]!, Number(values.update)) } : {}),
  };
  write(`${result.date.slice(0, 10)}-data-${events}`, result);
}

/**
 * The fishing ids earlier updates of a PostgreSQL database removed or replaced (rows marked hidden,
 * src/store/postgres/lineage.ts), which a run's draws leave out: an id to remove must be there.
 */
async function removedBefore(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    // On the fishing partitions' (version_id, start_ts, id) index alone, which includes the marks:
    // by kind, the draw read every row of the 11 GB partition at 10M (95-137 s, 2026-12-03).
    const partitions = (await c.query(`SELECT DISTINCT coalesce(lineage_id, version_id) AS p FROM dataset_versions WHERE kind = 'fishing'`)).rows.map((r) => Number(r.p));
    await c.query('SET enable_seqscan = off');
    await c.query('SET enable_bitmapscan = off');
    return (await c.query('SELECT DISTINCT id FROM events WHERE version_id = ANY($1::smallint[]) AND to_version IS NOT NULL', [partitions.flatMap((p) => [p, -p])])).rows.map((r) => r.id as string);
  } finally {
    await c.end();
  }
}

/** The events of each dataset's latest version in a PostgreSQL database. */
async function latestRows(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query('SELECT sum(row_count) AS n FROM dataset_versions WHERE version_id IN (SELECT max(version_id) FROM dataset_versions GROUP BY kind)')).rows[0].n);
  } finally {
    await c.end();
  }
}

try {
  if (values.db || values['database-url']) {
    const target: Target = values.db ? { db: values.db } : { url: values['database-url']! };
    // A PostgreSQL run is named for the events its latest versions held before it, so that runs on
    // catalogues of other sizes the same day are kept apart.
    const held = 'url' in target ? await latestRows(target.url) : undefined;
    const result = { date: new Date().toISOString(), machine: machine(), database: values.db ?? 'PostgreSQL', ...(held === undefined ? {} : { events: held }), update: await updates(target, values.rows!, Number(values.update)) };
    write(`${result.date.slice(0, 10)}-data-update-${values.update}${values.updates === '3' ? '' : `-x${values.updates}`}${held === undefined ? '' : `-postgres-${held}`}`, result);
  } else {
    await loadBudgets();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
