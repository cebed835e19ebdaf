// Point files: the lookup by id that DuckDB cannot make fast. DuckDB reads a row through its ART
// index and a whole vector of its block: 5-10 ms on 10M events the first time a block is read
// (docs/performance.md, "Lookups by id: point files"). A point file holds one dataset version's
// stored entries in the events table's order, in brotli-compressed blocks of about 64 KB, and an
// index of a 64-bit key of each id, sorted, so a lookup is two small reads and one block's
// decompression (about 0.3 ms). The loader writes one per version it publishes (writer.ts); the
// database names it in its meta table, so a file belongs to exactly the database that names it.
//
// Layout (integers little-endian):
//   blocks            each: brotli( u32 n | u32 start[n] | records ), record = u32 idBytes | id | entry
//   block offsets     u64[blocks + 1], absolute; the last is where this table starts
//   index             16 B per entry, sorted by key: u32 keyHigh | u32 keyLow | u32 block | u32 slot
//   fence             u32 keyHigh | u32 keyLow of every FENCE_STEP-th index entry
//   footer            FOOTER_BYTES: magic | u32 versionId | u32 entries | u32 blocks | u32 fence
//                     entries | u64 offsets at | u64 index at | u64 fence at
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, constants } from 'node:zlib';

const MAGIC = 'VEPOINT1';
const FOOTER_BYTES = 48;
const INDEX_ENTRY_BYTES = 16;
/** Index entries per fence key: a lookup reads at most two such runs (8 KB) of the index. */
const FENCE_STEP = 256;
/**
 * Raw bytes per block. Measured on the 1M demo (2026-11-23): brotli at quality 1 on 64 KB blocks
 * took 207 B per entry and 5.6 s per million entries to write, 0.32 ms a lookup; deflate at level 1
 * on 32 KB blocks 236 B, 9.3 s and 0.16 ms; brotli 4 on 64 KB 183 B, 18.8 s and 0.41 ms.
 */
const BLOCK_BYTES = 64 * 1024;

/** The 64-bit key of an id, as two 32-bit halves (no BigInt in the hot paths). */
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
 * The key of an id in SQL, as the two halves idKey gives: the loader has DuckDB compute them on its
 * own threads (md5 in JS took about 3 s per million ids on the loader's main thread).
 */
export const ID_KEY_SQL = (id: string) => `(md5_number_upper(${id}) >> 32)::UINTEGER, (md5_number_upper(${id}) & 4294967295)::UINTEGER`;

/** An entry to write: its id's key (idKey or ID_KEY_SQL), id and stored text. */
export type PointEntry = [keyHigh: number, keyLow: number, id: string, entry: string];

/** Writes a point file from a version's entries in stored order; resolves to the entries written. */
export async function writePointFile(path: string, versionId: number, entries: AsyncIterable<PointEntry[]>): Promise<number> {
  const file = await open(path, 'wx');
  try {
    let at = 0;
    const offsets: number[] = [];
    const keys = new GrowingWords(); // keyHigh, keyLow, block, slot per entry
    let records: Buffer[] = [];
    let starts: number[] = [];
    let raw = 0;
    let blocks = 0;
    const compressing: Promise<Buffer>[] = [];
    const writeOldest = async () => {
      const block = await compressing.shift()!;
      offsets.push(at);
      await file.write(block, 0, block.length, at);
      at += block.length;
    };
    const flush = async () => {
      if (records.length === 0) return;
      const head = Buffer.alloc(4 + 4 * starts.length);
      head.writeUInt32LE(starts.length, 0);
      starts.forEach((s, i) => head.writeUInt32LE(s, 4 + 4 * i));
      compressing.push(compress(Buffer.concat([head, ...records])));
      blocks++;
      if (compressing.length >= BLOCKS_IN_FLIGHT) await writeOldest();
      records = [];
      starts = [];
      raw = 0;
    };
    let count = 0;
    for await (const chunk of entries) {
      for (const [high, low, id, entry] of chunk) {
        const idBytes = Buffer.from(id, 'utf8');
        const record = Buffer.alloc(4 + idBytes.length + Buffer.byteLength(entry, 'utf8'));
        record.writeUInt32LE(idBytes.length, 0);
        idBytes.copy(record, 4);
        record.write(entry, 4 + idBytes.length, 'utf8');
        keys.push(high, low, blocks, starts.length);
        starts.push(raw);
        records.push(record);
        raw += record.length;
        count++;
        if (raw >= BLOCK_BYTES) await flush();
      }
    }
    await flush();
    while (compressing.length > 0) await writeOldest();
    offsets.push(at);

    const table = Buffer.alloc(8 * offsets.length);
    offsets.forEach((o, i) => table.writeBigUInt64LE(BigInt(o), 8 * i));
    const offsetsAt = at;
    await file.write(table, 0, table.length, at);
    at += table.length;

    const sorted = sortByKey(keys.words(), count);
    const index = Buffer.from(sorted.buffer, sorted.byteOffset, count * INDEX_ENTRY_BYTES);
    const indexAt = at;
    await file.write(index, 0, index.length, at);
    at += index.length;

    const fenceEntries = Math.ceil(count / FENCE_STEP);
    const fence = Buffer.alloc(8 * fenceEntries);
    for (let f = 0; f < fenceEntries; f++) {
      fence.writeUInt32LE(sorted[4 * f * FENCE_STEP]!, 8 * f);
      fence.writeUInt32LE(sorted[4 * f * FENCE_STEP + 1]!, 8 * f + 4);
    }
    const fenceAt = at;
    await file.write(fence, 0, fence.length, at);
    at += fence.length;

    const footer = Buffer.alloc(FOOTER_BYTES);
    footer.write(MAGIC, 0, 'latin1');
    footer.writeUInt32LE(versionId, 8);
    footer.writeUInt32LE(count, 12);
    footer.writeUInt32LE(blocks, 16);
    footer.writeUInt32LE(fenceEntries, 20);
    footer.writeBigUInt64LE(BigInt(offsetsAt), 24);
    footer.writeBigUInt64LE(BigInt(indexAt), 32);
    footer.writeBigUInt64LE(BigInt(fenceAt), 40);
    await file.write(footer, 0, footer.length, at);
    await file.sync();
    return count;
  } finally {
    await file.close();
  }
}

/** A version's point file, open for lookups. */
export class PointFile {
  private constructor(
    private readonly file: FileHandle,
    private readonly entries: number,
    private readonly offsets: Float64Array,
    private readonly fence: Uint32Array,
    private readonly indexAt: number,
  ) {}

  /** Opens a file and checks that it is whole and written for this version. */
  static async open(path: string, versionId: number): Promise<PointFile> {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      if (size < FOOTER_BYTES) throw new Error(`${path} is not a point file (too short)`);
      const footer = await readAt(file, size - FOOTER_BYTES, FOOTER_BYTES);
      if (footer.toString('latin1', 0, 8) !== MAGIC) throw new Error(`${path} is not a point file`);
      if (footer.readUInt32LE(8) !== versionId) throw new Error(`${path} holds version ${footer.readUInt32LE(8)}, not ${versionId}`);
      const entries = footer.readUInt32LE(12);
      const blocks = footer.readUInt32LE(16);
      const fenceEntries = footer.readUInt32LE(20);
      const offsetsAt = Number(footer.readBigUInt64LE(24));
      const indexAt = Number(footer.readBigUInt64LE(32));
      const fenceAt = Number(footer.readBigUInt64LE(40));
      if (fenceAt + 8 * fenceEntries + FOOTER_BYTES !== size || indexAt + INDEX_ENTRY_BYTES * entries !== fenceAt || offsetsAt + 8 * (blocks + 1) !== indexAt) {
        throw new Error(`${path} is cut short or damaged`);
      }
      const table = await readAt(file, offsetsAt, 8 * (blocks + 1));
      const offsets = new Float64Array(blocks + 1);
      for (let b = 0; b <= blocks; b++) offsets[b] = Number(table.readBigUInt64LE(8 * b));
      const fenceBytes = await readAt(file, fenceAt, 8 * fenceEntries);
      const fence = new Uint32Array(2 * fenceEntries);
      for (let i = 0; i < 2 * fenceEntries; i++) fence[i] = fenceBytes.readUInt32LE(4 * i);
      return new PointFile(file, entries, offsets, fence, indexAt);
    } catch (e) {
      await file.close();
      throw e;
    }
  }

  /** The stored entry of an id, or undefined when this version has none. */
  async entry(id: string): Promise<string | undefined> {
    if (this.entries === 0) return undefined;
    const [high, low] = idKey(id);
    // The first fence key not below the id's key; the run before it may hold the same key too.
    let lo = 0;
    let hi = this.fence.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(this.fence[2 * mid]!, this.fence[2 * mid + 1]!, high, low) < 0) lo = mid + 1;
      else hi = mid;
    }
    const first = Math.max(0, lo - 1) * FENCE_STEP;
    const last = Math.min(this.entries, (lo + 1) * FENCE_STEP);
    const run = await readAt(this.file, this.indexAt + first * INDEX_ENTRY_BYTES, (last - first) * INDEX_ENTRY_BYTES);
    for (let at = 0; at < run.length; at += INDEX_ENTRY_BYTES) {
      const order = compareKeys(run.readUInt32LE(at), run.readUInt32LE(at + 4), high, low);
      if (order > 0) break;
      if (order < 0) continue;
      const found = await this.read(run.readUInt32LE(at + 8), run.readUInt32LE(at + 12));
      if (found[0] === id) return found[1];
    }
    return undefined;
  }

  private async read(block: number, slot: number): Promise<[string, string]> {
    const start = this.offsets[block]!;
    const raw = brotliDecompressSync(await readAt(this.file, start, this.offsets[block + 1]! - start));
    const n = raw.readUInt32LE(0);
    const base = 4 + 4 * n;
    const from = base + raw.readUInt32LE(4 + 4 * slot);
    const to = slot + 1 < n ? base + raw.readUInt32LE(8 + 4 * slot) : raw.length;
    const idBytes = raw.readUInt32LE(from);
    return [raw.toString('utf8', from + 4, from + 4 + idBytes), raw.toString('utf8', from + 4 + idBytes, to)];
  }

  async close(): Promise<void> {
    await this.file.close();
  }
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

/** A Uint32Array that grows by doubling. */
class GrowingWords {
  private data = new Uint32Array(4 * 1024);
  private length = 0;
  push(a: number, b: number, c: number, d: number): void {
    if (this.length + 4 > this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = a;
    this.data[this.length++] = b;
    this.data[this.length++] = c;
    this.data[this.length++] = d;
  }
  words(): Uint32Array {
    return this.data;
  }
}

/**
 * The index entries (4 words each, the key in the first two) sorted by key: a least-significant-digit
 * radix sort in 16-bit digits, linear in the entries (a comparison sort of 6M entries took seconds).
 */
export function sortByKey(words: Uint32Array, count: number): Uint32Array {
  let from = words.slice(0, 4 * count);
  let to = new Uint32Array(4 * count);
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
