// `vessel-events generate`: the demo written as files an operator would load, in the published-
// events layout (one file per kind), plus vessel groups, ports and region geometries. The rows are
// made in worker threads (generator-pool.ts) and NDJSON is written as they come; CSV and Parquet
// are converted from it by the embedded engine with bounded memory.
import { createWriteStream, mkdirSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { EVENT_KINDS, type EventKind } from '../../domain/kinds.ts';
import { REGION_MEMBERS } from '../../domain/regions.ts';
import type { DemoOptions } from './generate.ts';
import { GeneratorPool } from './generator-pool.ts';
import { convertNdjson } from '../../store/engines.ts';

export const OUTPUT_FORMATS = ['ndjson', 'csv', 'parquet'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface GenerateOptions extends DemoOptions {
  out: string;
  format: OutputFormat;
  onProgress?: (rows: number) => void;
  /** Told when the rows are written and a later step starts (converting to CSV or Parquet). */
  onPhase?: (phase: string) => void;
}

const PUBLISHED_COLUMNS = {
  event_id: 'VARCHAR', event_type: 'VARCHAR', entity_id: 'VARCHAR', seg_id: 'VARCHAR',
  event_start: 'TIMESTAMP', event_end: 'TIMESTAMP',
  lat_mean: 'DOUBLE', lon_mean: 'DOUBLE', lat_min: 'DOUBLE', lat_max: 'DOUBLE', lon_min: 'DOUBLE', lon_max: 'DOUBLE',
  regions_mean_position: `STRUCT(${REGION_MEMBERS.map((m) => `${m.source} VARCHAR[]`).join(', ')})`,
  start_distance_from_shore_km: 'DOUBLE', end_distance_from_shore_km: 'DOUBLE', start_distance_from_port_km: 'DOUBLE', end_distance_from_port_km: 'DOUBLE',
  event_info: 'VARCHAR', event_vessels: 'VARCHAR',
};

async function write(stream: WriteStream, bytes: Uint8Array): Promise<void> {
  if (!stream.write(bytes)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
}

/** Writes the files; returns their paths and how many rows each kind got. */
export async function writeDemoFiles(options: GenerateOptions): Promise<{ files: string[]; rows: Record<EventKind, number> }> {
  mkdirSync(join(options.out, 'regions'), { recursive: true });
  const ndjson = (kind: EventKind) => join(options.out, `${kind}.ndjson`);
  const streams = Object.fromEntries(EVENT_KINDS.map((k) => [k, createWriteStream(ndjson(k))])) as Record<EventKind, WriteStream>;
  const rows = Object.fromEntries(EVENT_KINDS.map((k) => [k, 0])) as Record<EventKind, number>;
  let total = 0;
  // As in the published tables, event_info and event_vessels are JSON strings.
  const generator = new GeneratorPool(options, 'published', { output: 'ndjson' });
  try {
    for await (const batch of generator.ndjsonBatches()) {
      for (const kind of EVENT_KINDS) {
        const lines = batch.lines[kind];
        if (lines) await write(streams[kind], lines);
        rows[kind] += batch.counts[kind] ?? 0;
      }
      total += batch.rows;
      options.onProgress?.(total);
    }
  } finally {
    await generator.close();
    await Promise.all(EVENT_KINDS.map((k) => new Promise<void>((resolve) => streams[k].end(() => resolve()))));
  }

  if (options.format !== 'ndjson') options.onPhase?.(`converting to ${options.format}`);
  const files = options.format === 'ndjson' ? EVENT_KINDS.map(ndjson) : await convert(options, ndjson);
  const reference = generator.reference();
  writeFileSync(join(options.out, 'vessel-groups.csv'), `group_id,vessel_id\n${reference.groups.map((g) => `${g.groupId},${g.vesselId}`).join('\n')}\n`);
  writeFileSync(join(options.out, 'ports.json'), JSON.stringify(reference.ports));
  // JSON arrays, not NDJSON: `load DIR/*.ndjson` takes the event files alone.
  writeFileSync(join(options.out, 'vessel-registry.json'), `[${reference.registry.map((r) => JSON.stringify({
    vessel_id: r.vesselId, ssvid: r.ssvid, imo: r.imo, callsign: r.callsign, shipname: r.shipname, flag: r.flag, geartypes: r.geartypes, length_m: r.lengthM, tonnage_gt: r.tonnageGt,
    source_code: r.sourceCode, date_from: r.dateFrom, date_to: r.dateTo, owner: r.owner?.name, owner_flag: r.owner?.flag, owner_date_from: r.owner?.dateFrom, owner_date_to: r.owner?.dateTo,
    authorizations: r.authorizations.map((a) => ({ source_code: a.sourceCode, date_from: a.dateFrom, date_to: a.dateTo })),
  })).join(',\n')}]\n`);
  writeFileSync(join(options.out, 'iuu-list.json'), `[${reference.iuu.map((l) => JSON.stringify({ vessel_id: l.vesselId, ssvid: l.ssvid, shipname: l.shipname, flag: l.flag, listed_from: l.listedFrom, listed_to: l.listedTo, source: l.source })).join(',\n')}]\n`);
  for (const [dataset, regions] of Object.entries(reference.regions)) {
    const features = regions.map((r) => ({ type: 'Feature', id: r.id, properties: { id: r.id, name: r.name, ...(r.iso3 ? { iso3: r.iso3 } : {}) }, geometry: JSON.parse(r.geometry) }));
    writeFileSync(join(options.out, 'regions', `${dataset}.geojson`), JSON.stringify({ type: 'FeatureCollection', features }));
  }
  return { files, rows };
}

// One kind at a time, each NDJSON file removed once converted: the disk holds one copy at most.
async function convert(options: GenerateOptions, ndjson: (k: EventKind) => string): Promise<string[]> {
  const files: string[] = [];
  for (const kind of EVENT_KINDS) {
    const target = join(options.out, `${kind}.${options.format}`);
    await convertNdjson({ source: ndjson(kind), columnTypes: PUBLISHED_COLUMNS, target, format: options.format as 'csv' | 'parquet', asJsonInCsv: ['regions_mean_position'] });
    rmSync(ndjson(kind));
    files.push(target);
  }
  return files;
}
