// A list page as GeoParquet (`format=parquet`, docs/api.md, "Analyst formats"). A Parquet file ends with its
// schema and the place of every row group, so the page is written whole before its first byte is
// sent: the stored entries go to an NDJSON file, the embedded engine converts it (src/store), and
// the file is streamed with its length, then removed. Both files live in the system's temporary
// folder for the request's lifetime; a client that leaves stops the work.
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ENTRY_FIELDS, type PathTree, type TypedTree } from '../domain/entry-paths.ts';
import type { EventKind } from '../domain/kinds.ts';
import type { EntryShape } from '../query/types.ts';
import { exportParquet } from '../store/engines.ts';
import { shapedPaths } from './formats.ts';
import { joinable, type EntryPages } from './list-body.ts';

/** The typed members the paths keep, in the layout's order. */
function keep(typed: TypedTree, paths: PathTree): TypedTree {
  const out: TypedTree = {};
  for (const [key, type] of Object.entries(typed)) {
    const sub = paths[key];
    if (sub === undefined) continue;
    if (sub === true || typeof type !== 'object') out[key] = type;
    else if ('fields' in type) out[key] = { fields: keep(type.fields, sub) };
    else if (typeof type.list === 'object' && 'fields' in type.list) out[key] = { list: { fields: keep(type.list.fields, sub) } };
    else out[key] = type;
  }
  return out;
}

/** The Parquet columns of a page: the members its entries carry after shaping, typed. */
export function parquetColumns(kinds: readonly EventKind[], shape: EntryShape): TypedTree {
  return keep(ENTRY_FIELDS, shapedPaths(kinds, shape));
}

/** The page's stored entries, one per line. */
async function* storedLines(pages: EntryPages): AsyncGenerator<string | Buffer> {
  if (joinable(pages)) {
    for await (const bytes of pages.joined('\n')) if (bytes.length > 0) yield bytes;
    yield '\n';
    return;
  }
  for await (const entries of pages) if (entries.length > 0) yield `${entries.join('\n')}\n`;
}

export interface ParquetBody {
  stream: Readable;
  size: number;
}

/** The page as a Parquet file, ready to send; its folder is removed once the stream closes. */
export async function parquetBody(pages: EntryPages, kinds: readonly EventKind[], shape: EntryShape, signal: AbortSignal): Promise<ParquetBody> {
  const dir = mkdtempSync(join(tmpdir(), 'vessel-events-parquet-page-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const source = join(dir, 'entries.ndjson');
    const target = join(dir, 'entries.parquet');
    await pipeline(Readable.from(storedLines(pages)), createWriteStream(source), { signal });
    await exportParquet({ source, target, columns: parquetColumns(kinds, shape), signal });
    rmSync(source);
    const stream = createReadStream(target);
    stream.once('close', remove);
    return { stream, size: statSync(target).size };
  } catch (e) {
    remove();
    throw e;
  }
}
