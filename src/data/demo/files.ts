// `vessel-events generate`: the demo written as files an operator would load, in the published-
// events layout (one file per kind), plus vessel groups, ports and region geometries. The rows are
// made in worker threads (generator-pool.ts) and NDJSON is written as they come; CSV and Parquet
// are converted from it by the embedded engine with bounded memory, a part of each kind at a time,
// so the disk holds at most a part's NDJSON per kind beside the converted files.
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
  /** Rows of a kind per converted file (PART_ROWS); NDJSON is written whole. */
  partRows?: number;
}

/**
 * Rows of a kind per CSV or Parquet file. A kind with more is written in parts, `fishing-1.parquet`,
 * `fishing-2.parquet` and so on, each converted and its NDJSON removed as soon as the next part
 * begins: 50M events as NDJSON take some 1.25 KB each, 62 GB had none been converted before the
 * end, and took 32.3 GiB at most in parts. Ten million keeps a 10M catalogue's kinds in a file each.
 */
export const PART_ROWS = 10_000_000;

const PUBLISHED_COLUMNS = {
  event_id: 'VARCHAR', event_type: 'VARCHAR', entity_id: 'VARCHAR', seg_id: 'VARCHAR',
  event_start: 'TIMESTAMP', event_end: 'TIMESTAMP',
  lat_mean: 'DOUBLE', lon_mean: 'DOUBLE', lat_min: 'DOUBLE', lat_max: 'DOUBLE', lon_min: 'DOUBLE', lon_max: 'DOUBLE',
  regions_mean_position: `STRUCT(${REGION_MEMBERS.map((m) => `${m.source} VARCHAR[]`).join(', ')})`,
  start_distance_from_shore_km: 'DOUBLE', end_distance_from_shore_km: 'DOUBLE', start_distance_from_port_km: 'DOUBLE', end_distance_from_port_km: 'DOUBLE',
  event_info: 'VARCHAR', event_vessels: 'VARCHAR',
};

/** Writes the files; returns their paths and how many rows each kind got. */
export async function writeDemoFiles(options: GenerateOptions): Promise<{ files: string[]; rows: Record<EventKind, number> }> {
  mkdirSync(join(options.out, 'regions'), { recursive: true });
  const parts = new KindParts(options);
  const rows = Object.fromEntries(EVENT_KINDS.map((k) => [k, 0])) as Record<EventKind, number>;
  let total = 0;
  // As in the published tables, event_info and event_vessels are JSON strings.
  const generator = new GeneratorPool(options, 'published', { output: 'ndjson' });
  try {
    for await (const batch of generator.ndjsonBatches()) {
      for (const kind of EVENT_KINDS) {
        const lines = batch.lines[kind];
        if (lines) await parts.write(kind, lines, batch.counts[kind] ?? 0);
        rows[kind] += batch.counts[kind] ?? 0;
      }
      total += batch.rows;
      options.onProgress?.(total);
    }
  } finally {
    await generator.close();
    await parts.endStreams();
  }

  if (options.format !== 'ndjson') options.onPhase?.(`converting to ${options.format}`);
  const files = await parts.finish();
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

/**
 * Each kind's NDJSON, as a file of its own (`fishing.ndjson`) or, for CSV and Parquet, as parts of
 * PART_ROWS rows, each converted once the next begins and at the end.
 */
class KindParts {
  private readonly streams = new Map<EventKind, WriteStream>();
  /** Rows in each kind's open part. */
  private readonly rowsInPart = new Map<EventKind, number>();
  /** Each kind's converted files; the open part's number is one more. */
  private readonly converted = new Map<EventKind, string[]>();
  private readonly partRows: number;

  constructor(private readonly options: GenerateOptions) {
    this.partRows = options.format === 'ndjson' ? Infinity : (options.partRows ?? PART_ROWS);
  }

  private ndjson(kind: EventKind, part: number): string {
    return join(this.options.out, this.options.format === 'ndjson' ? `${kind}.ndjson` : `${kind}-${part}.ndjson.part`);
  }

  /** Writes `count` rows of a kind (NDJSON lines), converting each part as it fills. */
  async write(kind: EventKind, lines: Uint8Array, count: number): Promise<void> {
    let [rest, left] = [lines, count];
    while (left > 0) {
      if ((this.rowsInPart.get(kind) ?? 0) >= this.partRows) await this.convertPart(kind);
      const room = this.partRows - (this.rowsInPart.get(kind) ?? 0);
      const taken = Math.min(left, room);
      let cut = rest.length;
      if (taken < left) {
        cut = 0;
        for (let line = 0; line < taken; line++) cut = rest.indexOf(0x0a, cut) + 1;
      }
      await this.append(kind, rest.subarray(0, cut));
      this.rowsInPart.set(kind, (this.rowsInPart.get(kind) ?? 0) + taken);
      [rest, left] = [rest.subarray(cut), left - taken];
    }
  }

  private async append(kind: EventKind, bytes: Uint8Array): Promise<void> {
    let stream = this.streams.get(kind);
    if (!stream) {
      stream = createWriteStream(this.ndjson(kind, this.partNumber(kind)));
      this.streams.set(kind, stream);
    }
    if (!stream.write(bytes)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
  }

  private partNumber(kind: EventKind): number {
    return (this.converted.get(kind)?.length ?? 0) + 1;
  }

  private async endStream(kind: EventKind): Promise<void> {
    const stream = this.streams.get(kind);
    if (!stream) return;
    this.streams.delete(kind);
    await new Promise<void>((resolve) => stream.end(() => resolve()));
  }

  async endStreams(): Promise<void> {
    for (const kind of EVENT_KINDS) await this.endStream(kind);
  }

  /** Converts the kind's open part, named as a part (`fishing-1.parquet`), and removes its NDJSON. */
  private async convertPart(kind: EventKind, whole = false): Promise<void> {
    await this.endStream(kind);
    const part = this.partNumber(kind);
    const target = join(this.options.out, whole ? `${kind}.${this.options.format}` : `${kind}-${part}.${this.options.format}`);
    await convertNdjson({ source: this.ndjson(kind, part), columnTypes: PUBLISHED_COLUMNS, target, format: this.options.format as 'csv' | 'parquet', asJsonInCsv: ['regions_mean_position'] });
    rmSync(this.ndjson(kind, part));
    this.converted.set(kind, [...(this.converted.get(kind) ?? []), target]);
    this.rowsInPart.set(kind, 0);
  }

  /**
   * Every kind's files, once the last parts are converted: a kind in one part keeps its plain name,
   * and a kind without rows gets an empty file, as a published table of it would be.
   */
  async finish(): Promise<string[]> {
    await this.endStreams();
    const files: string[] = [];
    for (const kind of EVENT_KINDS) {
      const whole = !this.converted.has(kind);
      if (whole && !this.rowsInPart.has(kind)) writeFileSync(this.ndjson(kind, 1), '');
      if (this.options.format === 'ndjson') files.push(this.ndjson(kind, 1));
      else {
        if (whole || (this.rowsInPart.get(kind) ?? 0) > 0) await this.convertPart(kind, whole);
        files.push(...this.converted.get(kind)!);
      }
    }
    return files;
  }
}
