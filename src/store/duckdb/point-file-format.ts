// Point files: the lookups by id and by vessel that DuckDB cannot make fast. DuckDB reads a row
// through its ART index and a whole vector of its block: 5-10 ms on 10M events the first time a
// block is read, and a vessel's history costs two queries of 3-8 ms each (docs/performance.md,
// "Lookups by id: point files" and "Vessel histories from the point files"). A point file holds one
// dataset version's stored entries grouped by vessel, in brotli-compressed
// blocks of about 32 KB; an index of a 64-bit key of each id, sorted, with every 256th key (the
// fence) kept in memory by the server, so a lookup by id is two reads, of 4 KB of the index and of
// a block, and one block's decompression; and, per vessel, where its run of records starts, so its
// history is one read of the blocks it spans. The
// loader writes one per version it publishes (point-file-catalog.ts), from the events sorted by vessel;
// the database names it in its meta table, so a file belongs to exactly the database that names it.
//
// Layout (integers little-endian):
//   blocks            each: brotli( u32 n | u32 start[n] | records ), record = u32 idBytes | id |
//                     u32 vesselBytes | vessel id | f64 start µs | f64 end µs (NaN: open) | entry
//   block offsets     u64[blocks + 1], absolute; the last is where this table starts
//   index             16 B per entry, sorted by key: u32 keyHigh | u32 keyLow | u32 block | u32 slot
//   fence             u32 keyHigh | u32 keyLow of every FENCE_STEP-th index entry
//   vessel runs       20 B per vessel key, sorted: u32 keyHigh | u32 keyLow | u32 block | u32 slot | u32 records
//   footer            FOOTER_BYTES: magic | u32 versionId | u32 entries | u32 blocks | u32 fence
//                     entries | u32 vessel runs | u32 0 | u64 offsets at | u64 index at | u64 fence
//                     at | u64 vessel runs at
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, constants } from 'node:zlib';

/** VEPOINT1 files (entries in the events table's order, no vessel runs) are rewritten by `migrate`. */
const MAGIC = 'VEPOINT2';
const FOOTER_BYTES = 64;
const INDEX_ENTRY_BYTES = 16;
const RUN_WORDS = 5;
/** Index entries per fence key: a lookup reads this many (4 KB). */
const FENCE_STEP = 256;
/**
 * Raw bytes per block. Measured on the 1M demo (2026-11-23): brotli at quality 1 on 64 KB blocks
 * took 207 B per entry and 5.6 s per million entries to write, 0.32 ms a lookup; deflate at level 1
 * on 32 KB blocks 236 B, 9.3 s and 0.16 ms; brotli 4 on 64 KB 183 B, 18.8 s and 0.41 ms. Brotli 1
 * on 32 KB blocks, on the 10M benchmark database (2026-11-25): 2,006 MB of point files against 1,899
 * on 64 KB (+10.7 B per event), written in 137.9 s against 110.6 (`migrate`), a lookup by id 0.9-1.0
 * ms over HTTP against 1.1-1.2 and a vessel history 4.1-4.3 against 4.6-4.9; 16 KB blocks took
 * 2,361 MB and 184.5 s, past what the load's budget allows (docs/performance.md).
 */
const BLOCK_BYTES = 32 * 1024;
/** Decompressed blocks kept per file: a history's total and its page read the same blocks. */
const CACHED_BLOCKS = 32;

/** The 64-bit key of an id or vessel id, as two 32-bit halves (no BigInt in the hot paths). */
export function idKey(id: string): [number, number] {
  const digest = createHash('md5').update(id, 'utf8').digest();
  return [digest.readUInt32LE(4), digest.readUInt32LE(0)];
}

/** Compression runs on libuv's threads, so the next block is built (and the next rows read) meanwhile. */
const compress = promisify((raw: Buffer, done: (e: Error | null, out: Buffer) => void) => brotliCompress(raw, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length, [constants.BROTLI_PARAM_LGWIN]: 18 },
}, done));
/** Blocks being compressed at once (written in order as each finishes). */
const BLOCKS_IN_FLIGHT = 3;
/**
 * Bytes of compressed blocks written at once. A write per block (about 6 KB) was a round trip to a
 * thread of libuv's for each; written a MiB at a time, the point file of the 10M catalogue's 2M
 * port visits took 29.1 s rather than 40.7 (docs/performance.md, "Rows made, read and written
 * without waste").
 */
const WRITE_BYTES = 1 << 20;

/**
 * The key of an id in SQL, as the two halves idKey gives: the loader has DuckDB compute them on its
 * own threads (md5 in JS took about 3 s per million ids on the loader's main thread).
 */
export const ID_KEY_SQL = (id: string) => `(md5_number_upper(${id}) >> 32)::UINTEGER, (md5_number_upper(${id}) & 4294967295)::UINTEGER`;

/** A record to write: its id's key (idKey or ID_KEY_SQL), id, vessel's key, vessel id, start and end (µs since 1970) and stored text. */
export type PointRow = [keyHigh: number, keyLow: number, id: string, vesselHigh: number, vesselLow: number, vessel: string, startUs: number, endUs: number | null, entry: string];

/**
 * The columns of a record as the loader reads them from events: the keys, start and end, the byte
 * lengths of the id and the vessel id, then id, vessel id and entry as one blob. One blob per row
 * is the cheapest way out of DuckDB (each value handed over costs about 1.7 µs), and its bytes go
 * into the block as they are: turning them into JS strings and back into UTF-8 took about twice the
 * whole write (docs/performance.md, "Rows made, read and written without waste").
 */
export const POINT_RECORD_SQL = `${ID_KEY_SQL('id')}, ${ID_KEY_SQL('vessel_id')}, epoch_us(start_ts)::DOUBLE, epoch_us(end_ts)::DOUBLE,
  strlen(id)::UINTEGER, strlen(vessel_id)::UINTEGER, encode(id || vessel_id || entry)`;

/** The key the writer's rows are grouped by: the vessel id's, an unsigned 64-bit hash. */
export const POINT_ROW_KEY_SQL = 'md5_number_upper(vessel_id)';

/**
 * The order the writer takes rows in: grouped by the vessel id's key, ascending, then by start,
 * then by id, so that two writes of the same rows (in one sort or in ranges) give the same file.
 */
export const POINT_ROW_ORDER_SQL = `${POINT_ROW_KEY_SQL}, start_ts, id`;

const RECORD_FIXED_BYTES = 4 + 4 + 16;

/** Writes one point file from rows pushed in vessel-key order; nothing is readable until finish(). */
export class PointFileWriter {
  private at = 0;
  private readonly offsets: number[] = [];
  private readonly keys: GrowingWords; // keyHigh, keyLow, block, slot per entry
  private readonly runs = new GrowingWords(RUN_WORDS); // keyHigh, keyLow, block, slot, records per vessel key
  /** The block being filled: its records from byte 0, `raw` bytes of them. */
  private block = Buffer.allocUnsafe(2 * BLOCK_BYTES);
  private starts: number[] = [];
  private raw = 0;
  private blocks = 0;
  private count = 0;
  private readonly compressing: Promise<Buffer>[] = [];
  /** Compressed blocks (or tables) not yet written, and their bytes: the file's last unwrittenBytes. */
  private readonly unwritten: Buffer[] = [];
  private unwrittenBytes = 0;

  private constructor(private readonly file: FileHandle, private readonly versionId: number, records: number) {
    this.keys = new GrowingWords(4, records);
  }

  /**
   * `records`: how many the caller will add, when it knows, so the index is allocated once. Grown
   * by doubling and sorted from a copy, the index of 36M records (fishing at 50M) took 1,739 MiB
   * at its peak; allocated once and sorted in place, 1,182 (docs/performance.md, "How the loader
   * stays within memory").
   */
  static async create(path: string, versionId: number, records = 0): Promise<PointFileWriter> {
    return new PointFileWriter(await open(path, 'wx'), versionId, records);
  }

  /** Adds records given as JS values (tests, and callers that have them so). */
  async add(rows: readonly PointRow[]): Promise<void> {
    for (const [high, low, id, vesselHigh, vesselLow, vessel, startUs, endUs, entry] of rows) {
      const text = Buffer.from(`${id}${vessel}${entry}`, 'utf8');
      await this.addRecord(high, low, vesselHigh, vesselLow, startUs, endUs, Buffer.byteLength(id, 'utf8'), Buffer.byteLength(vessel, 'utf8'), text);
    }
  }

  /**
   * Adds one record: `text` holds the id's UTF-8 bytes (idBytes of them), then the vessel id's
   * (vesselBytes), then the entry's, as POINT_RECORD_SQL gives them.
   */
  addRecord(high: number, low: number, vesselHigh: number, vesselLow: number, startUs: number, endUs: number | null, idBytes: number, vesselBytes: number, text: Uint8Array): Promise<void> | undefined {
    this.startRecordOf(vesselHigh, vesselLow);
    const size = RECORD_FIXED_BYTES + text.length;
    if (this.raw + size > this.block.length) {
      const bigger = Buffer.allocUnsafe(2 * (this.raw + size));
      this.block.copy(bigger, 0, 0, this.raw);
      this.block = bigger;
    }
    const block = this.block;
    let at = this.raw;
    block.writeUInt32LE(idBytes, at);
    block.set(text.subarray(0, idBytes), at + 4);
    at += 4 + idBytes;
    block.writeUInt32LE(vesselBytes, at);
    block.set(text.subarray(idBytes, idBytes + vesselBytes), at + 4);
    at += 4 + vesselBytes;
    block.writeDoubleLE(startUs, at);
    block.writeDoubleLE(endUs ?? NaN, at + 8);
    block.set(text.subarray(idBytes + vesselBytes), at + 16);
    this.keys.push(high, low, this.blocks, this.starts.length);
    this.starts.push(this.raw);
    this.raw += size;
    this.count++;
    // Most records only fill the block: they need no promise, and the caller no await.
    return this.raw >= BLOCK_BYTES ? this.flush() : undefined;
  }

  /** Counts the record about to be added in its vessel's run, starting a run at a new key. */
  private startRecordOf(high: number, low: number): void {
    const last = this.runs.length - RUN_WORDS;
    const words = this.runs.words();
    if (last >= 0 && words[last] === high && words[last + 1] === low) {
      words[last + 4]!++;
      return;
    }
    if (last >= 0 && compareKeys(words[last]!, words[last + 1]!, high, low) > 0) {
      throw new Error('point file rows must come grouped by vessel key, in ascending order');
    }
    this.runs.push(high, low, this.blocks, this.starts.length, 1);
  }

  private async writeOldest(): Promise<void> {
    const block = await this.compressing.shift()!;
    this.offsets.push(this.at);
    await this.write(block);
  }

  /** Appends bytes at the end of the file; they are written WRITE_BYTES or more at a time (drain). */
  private async write(bytes: Buffer): Promise<void> {
    this.unwritten.push(bytes);
    this.unwrittenBytes += bytes.length;
    this.at += bytes.length;
    if (this.unwrittenBytes >= WRITE_BYTES) await this.drain();
  }

  private async drain(): Promise<void> {
    if (this.unwritten.length === 0) return;
    const buffers = this.unwritten.splice(0);
    const at = this.at - this.unwrittenBytes;
    this.unwrittenBytes = 0;
    await this.file.writev(buffers, at);
  }

  private async flush(): Promise<void> {
    if (this.starts.length === 0) return;
    const head = Buffer.alloc(4 + 4 * this.starts.length);
    head.writeUInt32LE(this.starts.length, 0);
    this.starts.forEach((s, i) => head.writeUInt32LE(s, 4 + 4 * i));
    // A copy: the block is filled again while this one is compressed.
    this.compressing.push(compress(Buffer.concat([head, this.block.subarray(0, this.raw)])));
    this.blocks++;
    this.starts = [];
    this.raw = 0;
    if (this.compressing.length >= BLOCKS_IN_FLIGHT) await this.writeOldest();
  }

  /** Writes the tables and the footer and syncs the file; resolves to the records written. */
  async finish(): Promise<number> {
    try {
      await this.flush();
      while (this.compressing.length > 0) await this.writeOldest();
      this.offsets.push(this.at);
      const count = this.count;

      const table = Buffer.alloc(8 * this.offsets.length);
      this.offsets.forEach((o, i) => table.writeBigUInt64LE(BigInt(o), 8 * i));
      const offsetsAt = this.at;
      await this.write(table);

      const sorted = sortByKey(this.keys.words(), count);
      const indexAt = this.at;
      await this.write(Buffer.from(sorted.buffer, sorted.byteOffset, count * INDEX_ENTRY_BYTES));

      const fenceEntries = Math.ceil(count / FENCE_STEP);
      const fence = Buffer.alloc(8 * fenceEntries);
      for (let f = 0; f < fenceEntries; f++) {
        fence.writeUInt32LE(sorted[4 * f * FENCE_STEP]!, 8 * f);
        fence.writeUInt32LE(sorted[4 * f * FENCE_STEP + 1]!, 8 * f + 4);
      }
      const fenceAt = this.at;
      await this.write(fence);

      const runs = this.runs.words().subarray(0, this.runs.length);
      const runsAt = this.at;
      await this.write(Buffer.from(runs.buffer, runs.byteOffset, runs.byteLength));

      const footer = Buffer.alloc(FOOTER_BYTES);
      footer.write(MAGIC, 0, 'latin1');
      footer.writeUInt32LE(this.versionId, 8);
      footer.writeUInt32LE(count, 12);
      footer.writeUInt32LE(this.blocks, 16);
      footer.writeUInt32LE(fenceEntries, 20);
      footer.writeUInt32LE(this.runs.length / RUN_WORDS, 24);
      footer.writeBigUInt64LE(BigInt(offsetsAt), 32);
      footer.writeBigUInt64LE(BigInt(indexAt), 40);
      footer.writeBigUInt64LE(BigInt(fenceAt), 48);
      footer.writeBigUInt64LE(BigInt(runsAt), 56);
      await this.write(footer);
      await this.drain();
      await this.file.sync();
      return count;
    } finally {
      await this.close();
    }
  }

  /** Closes the file unfinished (a failed load removes it). */
  async close(): Promise<void> {
    await Promise.allSettled(this.compressing.splice(0));
    await this.file.close().catch(() => {});
  }
}

/** One record of a vessel's run: what a history is filtered and sorted on, and where its entry is. */
export interface VesselRecord {
  id: string;
  vessel: string;
  /** Microseconds since 1970, as stored. */
  startUs: number;
  endUs: number | null;
  entry(): string;
}

/** A version's point file, open for lookups. */
export class PointFile {
  private readonly cache = new Map<number, Buffer>();

  private constructor(
    private readonly file: FileHandle,
    private readonly offsets: Float64Array,
    /**
     * The fence: the key (high, low) of every FENCE_STEP-th index entry. A lookup reads the index
     * run it points to from the file. Holding every key's high half and block in memory instead
     * (8 B an event) took 400 MB of the server at 50M events, for 0.5 ms less a lookup
     * (docs/performance.md, "Lookups by id: the index read").
     */
    private readonly fence: Uint32Array,
    private readonly entries: number,
    private readonly indexAt: number,
    /** Every vessel run (RUN_WORDS words each), in memory: 20 B per vessel of the version. */
    private readonly runs: Uint32Array,
  ) {}

  /** Opens a file and checks that it is whole, of this format and written for this version. */
  static async open(path: string, versionId: number): Promise<PointFile> {
    const file = await open(path, 'r');
    try {
      const f = await readFooter(file, path, versionId);
      const table = await readAt(file, f.offsetsAt, 8 * (f.blocks + 1));
      const offsets = new Float64Array(f.blocks + 1);
      for (let b = 0; b <= f.blocks; b++) offsets[b] = Number(table.readBigUInt64LE(8 * b));
      const fenceBytes = await readAt(file, f.fenceAt, 8 * f.fenceEntries);
      const fence = new Uint32Array(2 * f.fenceEntries);
      for (let i = 0; i < fence.length; i++) fence[i] = fenceBytes.readUInt32LE(4 * i);
      const runBytes = await readAt(file, f.runsAt, 4 * RUN_WORDS * f.runCount);
      const runs = new Uint32Array(RUN_WORDS * f.runCount);
      for (let i = 0; i < runs.length; i++) runs[i] = runBytes.readUInt32LE(4 * i);
      return new PointFile(file, offsets, fence, f.entries, f.indexAt, runs);
    } catch (e) {
      await file.close();
      throw e;
    }
  }

  /** Whether a file is whole, of this format and written for this version (its footer alone is read). */
  static async usable(path: string, versionId: number): Promise<boolean> {
    let file: FileHandle | undefined;
    try {
      file = await open(path, 'r');
      await readFooter(file, path, versionId);
      return true;
    } catch {
      return false;
    } finally {
      await file?.close();
    }
  }

  /** The stored entry of an id, or undefined when this version has none. */
  async entry(id: string): Promise<string | undefined> {
    const [high, low] = idKey(id);
    // The first fence key not below the id's: entries with its key start in the run before it.
    const fence = this.fence;
    let lo = 0;
    let hi = fence.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(fence[2 * mid]!, fence[2 * mid + 1]!, high, low) < 0) lo = mid + 1;
      else hi = mid;
    }
    // Ids whose 64-bit keys are equal (one pair in 2^64, but possible) are told apart by the id;
    // their entries may run on into the next run.
    for (let first = Math.max(0, lo - 1) * FENCE_STEP; first < this.entries; first += FENCE_STEP) {
      const n = Math.min(FENCE_STEP, this.entries - first);
      const run = await readAt(this.file, this.indexAt + first * INDEX_ENTRY_BYTES, n * INDEX_ENTRY_BYTES);
      // The writer wrote the index from a Uint32Array (native order), read back the same way; the
      // buffer is the read's own, so the words are aligned.
      const words = new Uint32Array(run.buffer, run.byteOffset, 4 * n);
      for (let k = 0; k < n; k++) {
        const order = compareKeys(words[4 * k]!, words[4 * k + 1]!, high, low);
        if (order < 0) continue;
        if (order > 0) return undefined;
        const record = recordAt(await this.block(words[4 * k + 2]!), words[4 * k + 3]!);
        if (record.id === id) return record.entry();
      }
    }
    return undefined;
  }

  /** The records of one vessel in this version, in stored order (by start). */
  async vesselRecords(vessel: string): Promise<VesselRecord[]> {
    const [high, low] = idKey(vessel);
    const runs = this.runs;
    let lo = 0;
    let hi = runs.length / RUN_WORDS;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(runs[RUN_WORDS * mid]!, runs[RUN_WORDS * mid + 1]!, high, low) < 0) lo = mid + 1;
      else hi = mid;
    }
    const at = RUN_WORDS * lo;
    if (lo * RUN_WORDS >= runs.length || runs[at] !== high || runs[at + 1] !== low) return [];
    let block = runs[at + 2]!;
    let slot = runs[at + 3]!;
    const found: VesselRecord[] = [];
    for (let left = runs[at + 4]!; left > 0;) {
      const raw = await this.block(block);
      const n = raw.readUInt32LE(0);
      for (; slot < n && left > 0; slot++, left--) {
        const record = recordAt(raw, slot);
        // Another vessel whose id has the same 64-bit key shares the run.
        if (record.vessel === vessel) found.push(record);
      }
      block++;
      slot = 0;
    }
    return found;
  }

  /** A block decompressed, from the cache when it was read lately. */
  private async block(block: number): Promise<Buffer> {
    const cached = this.cache.get(block);
    if (cached) {
      this.cache.delete(block);
      this.cache.set(block, cached);
      return cached;
    }
    const start = this.offsets[block]!;
    const raw = brotliDecompressSync(await readAt(this.file, start, this.offsets[block + 1]! - start));
    this.cache.set(block, raw);
    if (this.cache.size > CACHED_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    return raw;
  }

  async close(): Promise<void> {
    await this.file.close();
  }
}

/** The record in a block's slot; its entry is decoded only when asked for. */
function recordAt(raw: Buffer, slot: number): VesselRecord {
  const n = raw.readUInt32LE(0);
  const base = 4 + 4 * n;
  const from = base + raw.readUInt32LE(4 + 4 * slot);
  const to = slot + 1 < n ? base + raw.readUInt32LE(8 + 4 * slot) : raw.length;
  const idBytes = raw.readUInt32LE(from);
  const vesselAt = from + 4 + idBytes;
  const vesselBytes = raw.readUInt32LE(vesselAt);
  const timesAt = vesselAt + 4 + vesselBytes;
  const endUs = raw.readDoubleLE(timesAt + 8);
  return {
    id: raw.toString('utf8', from + 4, vesselAt),
    vessel: raw.toString('utf8', vesselAt + 4, timesAt),
    startUs: raw.readDoubleLE(timesAt),
    endUs: Number.isNaN(endUs) ? null : endUs,
    entry: () => raw.toString('utf8', timesAt + 16, to),
  };
}

/** The footer of a point file, checked: this format, this version, and tables that fill the file exactly. */
async function readFooter(file: FileHandle, path: string, versionId: number) {
  const { size } = await file.stat();
  const footer = await readAt(file, Math.max(0, size - FOOTER_BYTES), Math.min(size, FOOTER_BYTES));
  const magic = footer.length === FOOTER_BYTES ? footer.toString('latin1', 0, 8) : '';
  if (magic !== MAGIC) {
    // An older format's footer is shorter: its magic is found where that footer starts.
    const older = footer.toString('latin1').match(/VEPOINT\d/)?.[0];
    if (older === MAGIC) throw new Error(`${path} is cut short or damaged`);
    if (older) throw new Error(`${path} is a point file of an older format (${older}); run "vessel-events migrate" to rewrite it`);
    throw new Error(`${path} is not a point file`);
  }
  if (footer.readUInt32LE(8) !== versionId) throw new Error(`${path} holds version ${footer.readUInt32LE(8)}, not ${versionId}`);
  const f = {
    entries: footer.readUInt32LE(12),
    blocks: footer.readUInt32LE(16),
    fenceEntries: footer.readUInt32LE(20),
    runCount: footer.readUInt32LE(24),
    offsetsAt: Number(footer.readBigUInt64LE(32)),
    indexAt: Number(footer.readBigUInt64LE(40)),
    fenceAt: Number(footer.readBigUInt64LE(48)),
    runsAt: Number(footer.readBigUInt64LE(56)),
  };
  if (f.runsAt + 4 * RUN_WORDS * f.runCount + FOOTER_BYTES !== size || f.fenceAt + 8 * f.fenceEntries !== f.runsAt
    || f.indexAt + INDEX_ENTRY_BYTES * f.entries !== f.fenceAt || f.offsetsAt + 8 * (f.blocks + 1) !== f.indexAt) {
    throw new Error(`${path} is cut short or damaged`);
  }
  return f;
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new Error(`point file cut short: ${bytesRead} of ${length} bytes at ${position}`);
  return buffer;
}

function compareKeys(aHigh: number, aLow: number, bHigh: number, bLow: number): number {
  return aHigh - bHigh || aLow - bLow;
}

/** A Uint32Array that grows by doubling, `width` words per item. */
class GrowingWords {
  private data: Uint32Array;
  length = 0;
  constructor(private readonly width: number, items = 0) {
    this.data = new Uint32Array(width * Math.max(1024, items));
  }
  push(a: number, b: number, c: number, d: number, e = 0): void {
    if (this.length + this.width > this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    const at = this.length;
    this.data[at] = a;
    this.data[at + 1] = b;
    this.data[at + 2] = c;
    this.data[at + 3] = d;
    if (this.width > 4) this.data[at + 4] = e;
    this.length += this.width;
  }
  words(): Uint32Array {
    return this.data;
  }
}

/**
 * The index entries (4 words each, the key in the first two) sorted by key, in place (the first
 * `count` entries of `words`, which it returns) with one buffer as large: a least-significant-digit
 * radix sort in 16-bit digits, linear in the entries (a comparison sort of 6M entries took
 * seconds). Its four passes end in the entries' own buffer.
 */
export function sortByKey(words: Uint32Array, count: number): Uint32Array {
  let from: Uint32Array = words.subarray(0, 4 * count);
  let to: Uint32Array = new Uint32Array(4 * count);
  const counts = new Uint32Array(65536);
  for (const [word, shift] of [[1, 0], [1, 16], [0, 0], [0, 16]] as const) {
    counts.fill(0);
    for (let i = 0; i < count; i++) counts[(from[4 * i + word]! >>> shift) & 0xffff]!++;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < count; i++) {
      const at = 4 * counts[(from[4 * i + word]! >>> shift) & 0xffff]!++;
      to[at] = from[4 * i]!;
      to[at + 1] = from[4 * i + 1]!;
      to[at + 2] = from[4 * i + 2]!;
      to[at + 3] = from[4 * i + 3]!;
    }
    [from, to] = [to, from];
  }
  return from;
}
