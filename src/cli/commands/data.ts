// demo, generate, load and versions: the commands that make or change event data. The engines, the
// loader and the generator are imported when a command runs, so that help and usage errors answer
// at once (loading both drivers takes over a second).
import { existsSync } from 'node:fs';
import { databaseOption, integerOption, loadMemoryLimit, option, optionGiven } from '../../config.ts';
import type { OutputFormat } from '../../data/demo/files.ts';
import type { FileFormat } from '../../data/load-events.ts';
import { parseDateParam } from '../../query/dates.ts';
import { EVENT_KINDS, KIND_BY_DATASET_ID, kindNamed } from '../../domain/kinds.ts';
import { ENTRY_COMPRESSIONS, InvalidRows, LoadRefused, type EntryCompression } from '../../store/writer.ts';
import { UsageError, type Flags } from '../args.ts';
import type { Command } from '../command.ts';
import { counted } from '../counted.ts';
import { progressReporter, waitingNotice } from '../progress.ts';

export const demoCommand: Command = {
  usage: 'vessel-events demo [--events N] [--seed S] [--db PATH | --engine postgres --database-url URL] [--memory-limit 2GB]',
  summary: 'Create a new database of generated demo events (identical for a seed), with vessel groups, ports and region geometries.',
  options: ['engine', 'db', 'database-url', 'events', 'seed', 'memory-limit'],
  async run(flags) {
    const { createDemoDatabase } = await import('../demo.ts');
    const published = await createDemoDatabase(databaseOption(flags), integerOption('events', flags, 1), integerOption('seed', flags, 0), loadMemoryLimit(flags));
    for (const p of published) console.log(`${p.datasetId}:${p.version}\t${counted(p.rows, 'entry', 'entries')}`);
  },
};

function dateOption(name: 'from' | 'to', flags: Flags): number {
  const ms = parseDateParam(option(name, flags));
  if (ms === undefined) throw new UsageError(`--${name} must be a date YYYY-MM-DD`);
  return ms;
}

export const generateCommand: Command = {
  usage: 'vessel-events generate --events N --seed S --out DIR [--from 2017-01-01 --to 2025-01-01] [--format ndjson|csv|parquet]',
  summary: 'Write demo events as files in the published-events layout (one per kind; CSV and Parquet in parts of 10 million rows, <kind>-1, <kind>-2...), with vessel-groups.csv, ports.json, vessel-registry.json, iuu-list.json and regions/*.geojson.',
  options: ['events', 'seed', 'out', 'from', 'to', 'format'],
  async run(flags) {
    const { OUTPUT_FORMATS, writeDemoFiles } = await import('../../data/demo/files.ts');
    const format = (option('format', flags) || 'ndjson') as OutputFormat;
    if (!OUTPUT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${OUTPUT_FORMATS.join(', ')}`);
    const events = integerOption('events', flags, 1);
    const [fromMs, toMs] = [dateOption('from', flags), dateOption('to', flags)];
    if (fromMs >= toMs) throw new UsageError('--from must be before --to');
    const progress = progressReporter('generate', events, 'generating');
    try {
      const { files, rows } = await writeDemoFiles({ events, seed: integerOption('seed', flags, 0), fromMs, toMs, out: option('out', flags), format, onProgress: progress.update, onPhase: progress.phase });
      progress.done();
      for (const f of files) console.log(f);
      console.log(EVENT_KINDS.map((k) => `${k} ${rows[k]}`).join(', '));
    } finally {
      progress.done();
    }
  },
};

/**
 * Updates from which `load --update` advises `compact`. On DuckDB, layers over a version written
 * whole: each is scanned by every read of the version, and at 10 layers over 10M events lists took
 * 3-10 times as long as on the compacted version (docs/performance.md, "Updates"). On PostgreSQL,
 * updates whose rows by region, by place and by vessel lie beside those tables: a polygon over 10M
 * events twelve updates deep took 287 ms, 167 once they were folded in (docs/performance.md, "The
 * PostgreSQL engine: compaction").
 */
const COMPACT_ADVISED_LAYERS = 4;

/** --entry-compression when given (a DuckDB file's own choice otherwise), checked. */
function entryCompressionOption(flags: Flags, engine: string): EntryCompression | undefined {
  if (!optionGiven('entry-compression', flags)) return undefined;
  const named = option('entry-compression', flags);
  if (!(ENTRY_COMPRESSIONS as readonly string[]).includes(named)) throw new UsageError(`--entry-compression must be one of ${ENTRY_COMPRESSIONS.join(', ')}, got "${named}"`);
  if (engine !== 'duckdb') throw new UsageError('--entry-compression chooses how a DuckDB file stores its entries; PostgreSQL compresses its own (--engine duckdb only)');
  return named as EntryCompression;
}

export const loadCommand: Command = {
  usage: 'vessel-events load [--db PATH | --engine postgres --database-url URL] [--version V] [--dataset KIND] [--format F] [--skip-invalid] [--update [--remove IDS]] [--memory-limit 2GB] [--entry-compression fsst|zstd] FILE...',
  summary: 'Load published-events files (NDJSON, CSV, Parquet), or GFW Events API entries (--format gfw-json), as a new version of each dataset they hold; latest then points at it. With --update, the rows are applied by event_id to each dataset\'s latest version instead (a known id replaces its row, a new id is added), and --remove lists ids to take out of the --dataset; the result is a new version, and the one it came from stays loaded until dropped.',
  options: ['engine', 'db', 'database-url', 'version', 'dataset', 'format', 'skip-invalid', 'update', 'remove', 'memory-limit', 'entry-compression'],
  maxArguments: Infinity,
  more: [
    '  FILE...           published-events rows (docs/data-format.md); with --format gfw-json, API entries: a list response ({"entries": [...]}), a JSON array, or NDJSON',
    '  --remove IDS      a file of event ids, one per line, as the API serves them (an encounter\'s with its .1 or .2); needs --update and --dataset',
  ],
  async run(flags, positionals) {
    const { defaultVersionTag, FILE_FORMATS, formatOf, loadFiles, readRemovals } = await import('../../data/load-events.ts');
    const update = option('update', flags) === 'true';
    const removeFile = option('remove', flags);
    if (removeFile && !update) throw new UsageError('--remove takes ids out of the latest version: add --update');
    if (positionals.length === 0 && !removeFile) throw new UsageError(update ? 'name at least one file to apply, or ids to remove with --remove' : 'name at least one file to load');
    const named = option('dataset', flags);
    const kind = named ? kindNamed(named) : undefined;
    if (named && !kind) throw new UsageError(`--dataset must be a kind (${EVENT_KINDS.join(', ')}) or a dataset id (${Object.keys(KIND_BY_DATASET_ID).join(', ')}), got "${named}"`);
    if (removeFile && !kind) throw new UsageError('--remove needs --dataset: the dataset whose ids the file lists');
    if (removeFile && !existsSync(removeFile)) throw new UsageError(`no such file: ${removeFile}`);
    const forced = option('format', flags);
    if (forced && !(FILE_FORMATS as readonly string[]).includes(forced)) throw new UsageError(`--format must be one of ${FILE_FORMATS.join(', ')}`);
    const files = positionals.map((path) => {
      if (!existsSync(path)) throw new UsageError(`no such file: ${path}`);
      const format = (forced as FileFormat) || formatOf(path);
      if (!format) throw new UsageError(`cannot tell the format of ${path} from its extension; give --format`);
      return { path, format };
    });
    const database = databaseOption(flags);
    const entryCompression = entryCompressionOption(flags, database.engine);
    const progress = progressReporter(update ? 'update' : 'load');
    try {
      const removals = removeFile ? [await readRemovals(removeFile, kind!)] : [];
      const result = await loadFiles(files, {
        database,
        version: option('version', flags) || defaultVersionTag(),
        source: [...(removeFile ? [`--remove ${removeFile}`] : []), ...positionals].join(' '),
        ...(kind ? { kind } : {}),
        skipInvalid: option('skip-invalid', flags) === 'true',
        memoryLimit: loadMemoryLimit(flags),
        ...(entryCompression ? { entryCompression } : {}),
        ...(update ? { update: { removals } } : {}),
        onProgress: progress.update,
        onPhase: progress.phase,
        onWait: waitingNotice,
      });
      progress.done();
      for (const p of result.published) console.log(`${p.datasetId}:${p.version}\t${counted(p.rows, 'entry', 'entries')}${p.change ? `\tfrom ${p.change.from}: ${p.change.replaced} replaced, ${p.change.added} added, ${p.change.removed} removed` : ''}`);
      const deep = result.published.filter((p) => (p.change?.layers ?? 0) >= COMPACT_ADVISED_LAYERS);
      if (deep.length > 0 && database.engine === 'duckdb') {
        console.error(`note: ${deep.map((p) => `${p.datasetId}:${p.version} is ${p.change!.layers} updates over its version written whole`).join('; ')}. ` +
          `Reads of a version slow as its updates add up (docs/performance.md, "Updates"): \`vessel-events compact --db ${database.path}\` writes it whole.`);
      } else if (deep.length > 0) {
        console.error(`note: ${deep.map((p) => `${p.datasetId}:${p.version} has ${p.change!.layers} updates whose rows by region, by place and by vessel lie beside those tables`).join('; ')}. ` +
          `Reads of its versions slow as they add up (docs/performance.md, "The PostgreSQL engine: compaction"): \`vessel-events compact --engine postgres --database-url URL\` folds them in.`);
      }
      if (result.skippedCount > 0) {
        console.log(`skipped ${counted(result.skippedCount, 'invalid row')}${result.skippedCount > result.skipped.length ? `; the first ${result.skipped.length}` : ''}:`);
        for (const s of result.skipped) console.log(`  ${s.file}:${s.line}: ${s.problem}`);
      }
    } catch (e) {
      progress.done();
      if (e instanceof InvalidRows || e instanceof LoadRefused) throw new Error(`${e.message}\nnothing was ${update ? 'changed' : 'loaded'}`);
      throw e;
    }
  },
};

export const versionsCommand: Command = {
  usage: 'vessel-events versions list | drop DATASET:VERSION [--db PATH | --engine postgres --database-url URL]',
  summary: 'List the loaded dataset versions, or remove one (latest then points at the newest remaining version). On DuckDB a version of the database file is dropped by writing the file afresh, which gives its space back to the disk; an update layer by removing its file.',
  options: ['engine', 'db', 'database-url'],
  maxArguments: 2,
  async run(flags, [action, target]) {
    const { describeDatabase, dropVersion, listVersions } = await import('../../store/engines.ts');
    const database = databaseOption(flags);
    if (database.engine === 'duckdb' && !existsSync(database.path)) throw new UsageError(`no database at ${describeDatabase(database)}`);
    if (action === 'list') {
      for (const v of await listVersions(database)) console.log(`${v.datasetId}:${v.version}\t${counted(v.rowCount, 'entry', 'entries')}\tloaded ${v.loadedAt}`);
    } else if (action === 'drop') {
      const [datasetId, version] = (target ?? '').split(':');
      const kind = KIND_BY_DATASET_ID[datasetId ?? ''];
      if (!kind || !version || version === 'latest') throw new UsageError('versions drop needs DATASET:VERSION with an explicit version, e.g. public-global-fishing-events:v20240101');
      const rows = await dropVersion(database, datasetId!, kind, version, waitingNotice);
      console.log(`dropped ${datasetId}:${version} (${counted(rows, 'entry', 'entries')})`);
    } else {
      throw new UsageError('use "versions list" or "versions drop DATASET:VERSION"');
    }
  },
};

export const migrateCommand: Command = {
  usage: 'vessel-events migrate --db PATH | --engine postgres --database-url URL',
  summary: 'Rewrite a DuckDB database written by an older version in this version\'s storage layout, keeping its events, versions, groups, ports and regions, or write what a database of this layout lacks: the point files (lookups by id and vessel histories; written before them, or of an older format) and the rows of the tables sorted by place (polygon queries) and by region (region totals), the vessel identities (vessel search) and the monthly counts (statistics). The old file is replaced only when the new one is complete. On PostgreSQL, move a database of layout 1 (one events table), 2 (a partition per dataset version) or 3 (the version of an update sharing the partition of the version it applies to) to layout 4 (the stored record in columns of its own rather than one JSON text a row; from layout 2, three indexes built again), or write the statistics rollups and rows by region, by place and by vessel of versions loaded before them, in one transaction.',
  options: ['db', 'engine', 'database-url'],
  async run(flags) {
    const { migrateDatabase, migratePostgresDatabase } = await import('../../store/engines.ts');
    const database = databaseOption(flags);
    if (database.engine === 'postgres') {
      try {
        const { from, to, versions, rows, split, rollupVersions, regionVersions, spatialVersions, vesselVersions, regionMonthVersions } = await migratePostgresDatabase(database.url, waitingNotice);
        const records = `the records of ${counted(split, 'event')} in columns of their own`;
        if (from === to) console.log(`wrote the statistics rollups of ${counted(rollupVersions, 'version')}, the rows by region (region totals) of ${counted(regionVersions, 'version')}, the rows by place (polygon queries) of ${counted(spatialVersions, 'version')}, the rows by vessel (vessel histories) of ${counted(vesselVersions, 'version')} and the region totals by month of ${counted(regionMonthVersions, 'version')} of the PostgreSQL database`);
        else if (from === 3) console.log(`migrated the PostgreSQL database from layout ${from} to ${to}: ${records}`);
        else if (from === 2) console.log(`migrated the PostgreSQL database from layout ${from} to ${to}: the rows' version marks added and their indexes built again, ${records}`);
        else console.log(`migrated the PostgreSQL database from layout ${from} to ${to}: ${counted(rows, 'event')} in ${counted(versions, 'version')}, a partition each, with their statistics rollups and rows by region, by place and by vessel, ${records}`);
      } catch (e) {
        if (e instanceof LoadRefused) throw new Error(`${e.message}\nnothing was changed`);
        throw e;
      }
      return;
    }
    const dbPath = database.path;
    let progress: ReturnType<typeof progressReporter> | undefined;
    try {
      const { from, to, rows, pointFiles, spatialVersions, regionVersions, identityVersions, statsMonthVersions } = await migrateDatabase(dbPath, waitingNotice, (written, total) => {
        progress ??= progressReporter('migrate', total, 'writing point files');
        progress.update(written);
      });
      progress?.done();
      if (from === to) console.log(`wrote the point files (lookups by id and vessel histories) of ${counted(pointFiles, 'version')}, the rows sorted by place (polygon queries) of ${counted(spatialVersions, 'version')}, the rows sorted by region (region totals) of ${counted(regionVersions, 'version')}, the vessel identities (vessel search) of ${counted(identityVersions, 'version')} and the monthly counts (statistics) of ${counted(statsMonthVersions, 'version')} of ${dbPath}: ${counted(rows, 'event')}`);
      else console.log(`migrated ${dbPath} from storage layout ${from} to ${to}: ${counted(rows, 'event')}, ${counted(pointFiles, 'point file')}`);
    } catch (e) {
      if (e instanceof LoadRefused) throw new Error(`${e.message}\nnothing was changed`);
      throw e;
    }
  },
};

export const compactCommand: Command = {
  usage: 'vessel-events compact --db PATH [--memory-limit 2GB] | --engine postgres --database-url URL',
  summary: 'Write the latest version of each dataset that an update (load --update) made whole into the database file. An update is published in seconds as a layer beside the database (<db>.layers/), read from its rows alone; once compacted, the version is served by every access path, as a load\'s is. Older updated versions stay layers, served by their tags until dropped. The database file is replaced only when the new one is complete. On PostgreSQL, an update writes its rows by region, by place and by vessel beside those tables, which every read of its versions then takes into account; compact folds them into the tables, in one transaction, every version keeping its rows.',
  options: ['db', 'memory-limit', 'engine', 'database-url'],
  async run(flags) {
    const { compactDatabase, compactPostgresDatabase } = await import('../../store/engines.ts');
    const database = databaseOption(flags);
    if (database.engine === 'postgres') {
      try {
        const compacted = await compactPostgresDatabase(database.url, waitingNotice);
        if (compacted.length === 0) console.log('nothing to compact: the tables that dropped updates left beside those by region, by place and by vessel were empty, and are dropped');
        for (const l of compacted) {
          console.log(`${l.datasetId}:${l.version}\t${counted(l.updates, 'update')}: ${counted(l.added, 'row')} added and ${counted(l.hidden, 'row')} hidden, by region, by place and by vessel, folded into those tables`);
        }
      } catch (e) {
        if (e instanceof LoadRefused) throw new Error(`${e.message}\nnothing was changed`);
        throw e;
      }
      return;
    }
    const dbPath = database.path;
    if (!existsSync(dbPath)) throw new UsageError(`no database at ${dbPath}`);
    let progress: ReturnType<typeof progressReporter> | undefined;
    try {
      const compacted = await compactDatabase(dbPath, {
        onWait: waitingNotice,
        memoryLimit: loadMemoryLimit(flags),
        onRows: (written, total) => {
          progress ??= progressReporter('compact', total, 'writing point files');
          progress.update(written);
        },
      });
      progress?.done();
      for (const v of compacted) console.log(`${v.datasetId}:${v.version}\t${counted(v.rows, 'entry', 'entries')}\twritten whole`);
    } catch (e) {
      progress?.done();
      if (e instanceof LoadRefused) throw new Error(`${e.message}\nnothing was changed`);
      throw e;
    }
  },
};

export const cleanCommand: Command = {
  usage: 'vessel-events clean --db PATH',
  summary: 'Remove what killed loads left beside the database: working copies (<db>.loading-<pid>) and their scratch files, updates being written (<db>.layers/loading-<pid>.duckdb), and point files (<db>.points/) the database does not name. Every load does this too.',
  options: ['db'],
  async run(flags) {
    const { cleanStaleWork } = await import('../../store/engines.ts');
    const removed = await cleanStaleWork(option('db', flags), waitingNotice);
    for (const r of removed) console.log(`removed ${r.path} (${(r.bytes / 1e6).toFixed(1)} MB)`);
    console.log(`${counted(removed.length, 'stale file')} removed, ${(removed.reduce((n, r) => n + r.bytes, 0) / 1e6).toFixed(1)} MB freed`);
  },
};
