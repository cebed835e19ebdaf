// A page's chunks read as texts or as joined bytes (src/store/entry-bytes.ts) hold the same entries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { EntryBytes, pageStream, type EntryChunk } from '../../src/store/entry-bytes.ts';

const texts = fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 30 });
const bytesOf = (chunk: string[]) => EntryBytes.copy(chunk.map((t) => new Uint8Array(Buffer.from(t, 'utf8'))));
const collect = async <T>(xs: AsyncIterable<T>) => { const out: T[] = []; for await (const x of xs) out.push(x); return out; };

test('entries copied as bytes read back as the same texts, and join as the texts join', () => {
  fc.assert(fc.property(texts, fc.constantFrom(',', '\n'), (chunk, separator) => {
    // Lone surrogates do not survive UTF-8; stored entries are valid UTF-8, so compare what UTF-8 keeps.
    const expected = chunk.map((t) => Buffer.from(t, 'utf8').toString('utf8'));
    assert.deepEqual(bytesOf(chunk).texts(), expected);
    assert.equal(bytesOf(chunk).length, chunk.length);
    assert.deepEqual(Buffer.concat(bytesOf(chunk).separated(separator.charCodeAt(0))), Buffer.from(expected.map((t) => t + separator).join(''), 'utf8'));
  }), { seed: 5, numRuns: 300 });
});

test('values that end with their spare byte, in pieces of whole values, are kept and read back as the values', () => {
  fc.assert(fc.property(texts, fc.array(fc.nat(), { maxLength: 30 }), fc.constantFrom(',', '\n'), (chunk, cuts, separator) => {
    // Each value with a spare byte, back to back, cut into pieces at value boundaries, as the driver hands over runs.
    const values = chunk.map((t) => Buffer.from(`${t} `, 'utf8'));
    const pieces: Uint8Array[] = [];
    const counts: number[] = [];
    const bounds = [...new Set(cuts.map((cut) => cut % (values.length + 1)))].sort((a, b) => a - b);
    let from = 0;
    for (const to of [...bounds, values.length]) {
      if (to > from) {
        pieces.push(new Uint8Array(Buffer.concat(values.slice(from, to))));
        counts.push(to - from);
      }
      from = Math.max(from, to);
    }
    const kept = EntryBytes.spared({ pieces, counts, lengths: Uint32Array.from(values, (v) => v.length) });
    assert.deepEqual(kept.texts(), bytesOf(chunk).texts());
    assert.equal(kept.length, chunk.length);
    const code = separator.charCodeAt(0);
    assert.deepEqual(Buffer.concat(kept.separated(code)), Buffer.concat(bytesOf(chunk).separated(code)));
  }), { seed: 7, numRuns: 300 });
  assert.throws(() => EntryBytes.spared({ pieces: [new Uint8Array(3)], counts: [3], lengths: Uint32Array.of(1, 1, 1, 1) }), /pieces held 3 of 4 values/);
  assert.throws(() => EntryBytes.spared({ pieces: [new Uint8Array(3)], counts: [2], lengths: Uint32Array.of(1, 1) }), /a piece of 3 bytes held 2 bytes of values/);
  assert.throws(() => EntryBytes.spared({ pieces: [new Uint8Array(1)], counts: [2], lengths: Uint32Array.of(0, 1) }), /value 0 has no spare byte/);
});

test('chunks reversed hold their entries last first', () => {
  fc.assert(fc.property(fc.array(texts, { maxLength: 5 }), (chunks) => {
    const valid = chunks.map((chunk) => chunk.map((t) => Buffer.from(t, 'utf8').toString('utf8')));
    assert.deepEqual(EntryBytes.reversed(valid.map(bytesOf)).texts(), valid.flat().reverse());
  }), { seed: 8, numRuns: 200 });
});

test('a page stream gives the same entries as texts or as joined bytes, whether its chunks are texts or bytes', async () => {
  await fc.assert(fc.asyncProperty(fc.array(fc.tuple(texts, fc.boolean()), { maxLength: 6 }), fc.constantFrom(',' as const, '\n' as const), async (chunks, separator) => {
    const valid = chunks.map(([chunk, asBytes]) => [chunk.map((t) => Buffer.from(t, 'utf8').toString('utf8')), asBytes] as const);
    const source = () => ({ async *[Symbol.asyncIterator](): AsyncGenerator<EntryChunk> { for (const [chunk, asBytes] of valid) yield asBytes ? bytesOf(chunk) : chunk; } });
    let discarded = 0;
    const asTexts = await collect(pageStream(source(), async () => { discarded++; }));
    assert.deepEqual(asTexts, valid.map(([chunk]) => chunk));
    const asBytes = await collect(pageStream(source(), async () => {}).joined(separator));
    assert.equal(Buffer.concat(asBytes).toString('utf8'), valid.flatMap(([chunk]) => chunk).join(separator));
    assert.equal(discarded, 0);
  }), { seed: 6, numRuns: 200 });
});
