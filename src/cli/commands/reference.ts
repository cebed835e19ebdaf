// groups, ports and regions: reference data loaded beside the events. The engines are imported when
// a command runs (see data.ts).
import { existsSync } from 'node:fs';
import { databaseOption, option } from '../../config.ts';
import type { Database } from '../../store/engines.ts';
import type { DatabaseWriter, WriterOptions } from '../../store/writer.ts';
import { readGroups, readIuuList, readPorts, readRegions, readRegistry } from '../../data/reference-files.ts';
import { REGION_DATASETS } from '../../domain/regions.ts';
import { UsageError } from '../args.ts';
import type { Command } from '../command.ts';
import { counted } from '../counted.ts';
import { waitingNotice } from '../progress.ts';

/** An edit of the database, with the engines imported first. */
async function edit<T>(database: Database, change: (w: DatabaseWriter) => Promise<T>, options: WriterOptions): Promise<T> {
  const { editDatabase } = await import('../../store/engines.ts');
  return editDatabase(database, change, options);
}

function files(action: string | undefined, rest: string[]): string[] {
  if (action !== 'load') throw new UsageError('the only action is "load"');
  if (rest.length === 0) throw new UsageError('name at least one file');
  for (const f of rest) if (!existsSync(f)) throw new UsageError(`no such file: ${f}`);
  return rest;
}

export const groupsCommand: Command = {
  usage: 'vessel-events groups load --db PATH|--engine postgres --database-url URL FILE...',
  summary: 'Load vessel groups: CSV "group_id,vessel_id", or JSON {"group": ["vessel", ...]}. Each group in a file replaces the group of that id.',
  options: ['engine', 'db', 'database-url'],
  maxArguments: Infinity,
  async run(flags, [action, ...rest]) {
    const members = files(action, rest).flatMap(readGroups);
    await edit(databaseOption(flags), (w) => w.replaceGroups(members), { onWait: waitingNotice });
    console.log(`loaded ${counted(new Set(members.map((m) => m.groupId)).size, 'group')} (${counted(members.length, 'member')})`);
  },
};

export const portsCommand: Command = {
  usage: 'vessel-events ports load --db PATH|--engine postgres --database-url URL FILE...',
  summary: 'Load ports: CSV "id,name,flag,lat,lon" or a JSON array of such objects; a port replaces the one of the same id.',
  options: ['engine', 'db', 'database-url'],
  maxArguments: Infinity,
  async run(flags, [action, ...rest]) {
    const ports = files(action, rest).flatMap(readPorts);
    await edit(databaseOption(flags), (w) => w.upsertPorts(ports), { onWait: waitingNotice });
    console.log(`loaded ${counted(ports.length, 'port')}`);
  },
};

export const iuuCommand: Command = {
  usage: 'vessel-events iuu load --db PATH|--engine postgres --database-url URL FILE...',
  summary: 'Load an IUU vessel list, replacing the loaded one: CSV, NDJSON or a JSON array of listings with vessel_id or ssvid (mmsi), listed_from (YYYY-MM-DD), and optionally listed_to, shipname, flag, source. The insights\' VESSEL-IDENTITY-IUU-VESSEL-LIST reads it.',
  options: ['engine', 'db', 'database-url'],
  maxArguments: Infinity,
  async run(flags, [action, ...rest]) {
    const listings = files(action, rest).flatMap(readIuuList);
    await edit(databaseOption(flags), (w) => w.replaceIuuList(listings), { onWait: waitingNotice });
    console.log(`loaded an IUU vessel list of ${counted(listings.length, 'listing')}`);
  },
};

export const vesselsCommand: Command = {
  usage: 'vessel-events vessels load --db PATH|--engine postgres --database-url URL FILE...',
  summary: 'Load a vessel registry, replacing the loaded one: CSV, NDJSON or a JSON array of records with vessel_id and optionally ssvid, imo, callsign, shipname, flag, geartypes, length_m, tonnage_gt, source_code, date_from, date_to, owner, owner_flag, owner_date_from, owner_date_to, authorizations (docs/api.md, "A vessel registry file"). The Vessels API gives its records, owners and authorizations.',
  options: ['engine', 'db', 'database-url'],
  maxArguments: Infinity,
  async run(flags, [action, ...rest]) {
    const records = files(action, rest).flatMap(readRegistry);
    await edit(databaseOption(flags), (w) => w.replaceRegistry(records), { onWait: waitingNotice });
    console.log(`loaded a vessel registry of ${counted(records.length, 'record')} (${counted(new Set(records.map((r) => r.vesselId)).size, 'vessel')})`);
  },
};

export const regionsCommand: Command = {
  usage: 'vessel-events regions load --db PATH|--engine postgres --database-url URL --dataset REGION_DATASET FILE | list --db PATH|--engine postgres --database-url URL [--dataset REGION_DATASET] [--name TEXT]',
  summary: `Load the geometries of one region dataset (GeoJSON FeatureCollection; region id in feature.id or properties.id), replacing its previous ones; or list region ids and names (--name finds names holding the text, accents and case aside). Region datasets: ${Object.keys(REGION_DATASETS).join(', ')}.`,
  options: ['engine', 'db', 'database-url', 'dataset', 'name'],
  maxArguments: 2,
  async run(flags, [action, ...rest]) {
    if (action === 'list') return printRegions(databaseOption(flags), option('dataset', flags), option('name', flags));
    const [file] = files(action, rest);
    const dataset = option('dataset', flags);
    const regions = readRegions(file!, dataset);
    await edit(databaseOption(flags), (w) => w.replaceRegions(dataset, regions), { onWait: waitingNotice });
    console.log(`loaded ${counted(regions.length, 'region')} of ${dataset}`);
  },
};

/** Region ids with names (from loaded geometries) and ids events carry without a geometry. */
async function printRegions(database: Database, dataset: string, name: string): Promise<void> {
  const { describeDatabase, listRegions } = await import('../../store/engines.ts');
  if (database.engine === 'duckdb' && !existsSync(database.path)) throw new UsageError(`no database at ${describeDatabase(database)}`);
  if (dataset && !Object.hasOwn(REGION_DATASETS, dataset)) throw new UsageError(`unknown region dataset "${dataset}"; known: ${Object.keys(REGION_DATASETS).join(', ')}`);
  const regions = await listRegions(database, { dataset, name });
  if (regions.length === 0) {
    const where = dataset || 'any region dataset';
    throw new Error(name ? `no region of ${where} has a name holding "${name}" (accents and case aside)` : `no region of ${where} is loaded or carried by an event`);
  }
  for (const r of regions) console.log(`${r.dataset}\t${r.id}\t${r.name ?? '(no geometry loaded)'}`);
}
