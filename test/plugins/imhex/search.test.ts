// The chunked search against an independent naive search, with patterns planted across chunk
// boundaries in random data.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePattern } from '../../../plugins/imhex/hex.ts';
import { chunkedSearch, type ReadAt } from '../../../plugins/imhex/local/search.ts';
import { naiveSearch, patternText, seededBytes } from './helpers.ts';

function readerOf(data: Buffer, log?: number[]): ReadAt {
  return async (buffer, length, position) => {
    log?.push(position);
    return data.copy(buffer, 0, position, Math.min(position + length, data.length));
  };
}

async function search(data: Buffer, pattern: Array<number | null>, o: { start?: number; end?: number; chunk: number; max?: number }) {
  const parsed = parsePattern('pattern', patternText(pattern));
  return chunkedSearch(readerOf(data), parsed, {
    start: o.start ?? 0,
    end: o.end ?? data.length,
    size: data.length,
    maxResults: o.max ?? 1_000_000,
    chunkBytes: o.chunk,
  });
}

/** Copies the pattern into `data` at `at`, filling wildcards with random bytes. */
function plant(data: Buffer, at: number, pattern: Array<number | null>, fill: Buffer) {
  pattern.forEach((b, k) => (data[at + k] = b ?? fill[(at + k) % fill.length]));
}

describe('chunked search', () => {
  const CHUNK = 4096;
  const patterns: Array<[string, Array<number | null>]> = [
    ['plain', [0xde, 0xad, 0xbe, 0xef, 0x42]],
    ['wildcards', [0x4a, null, 0x6f, 0x10, null, null, 0x99]],
    ['leading wildcard', [null, 0x7f, 0x45, 0x4c]],
    ['one byte', [0x5a]],
  ];

  it.each(patterns)('finds every %s match, including those straddling chunk boundaries', async (_name, pattern) => {
    const data = seededBytes(64 * CHUNK + 123, 7);
    const fill = seededBytes(997, 99);
    const planted: number[] = [];
    for (let boundary = CHUNK; boundary < data.length - pattern.length; boundary += 3 * CHUNK) {
      for (let back = 0; back < pattern.length; back++) {
        // One straddling copy per boundary, at a different split each time; plus one just before.
        const at = boundary - 1 - ((boundary / CHUNK + back) % pattern.length);
        plant(data, at, pattern, fill);
        planted.push(at);
        break;
      }
    }
    plant(data, data.length - pattern.length, pattern, fill); // at the very end
    const expected = naiveSearch(data, pattern);
    for (const at of [...planted, data.length - pattern.length]) expect(expected).toContain(at);
    const got = await search(data, pattern, { chunk: CHUNK });
    expect(got.offsets).toEqual(expected);
    expect(got.truncated).toBe(false);
  });

  it('honours start_offset and an exclusive end_offset, letting a match run past the end', async () => {
    const data = seededBytes(10_000, 3);
    const pattern = [0x11, 0x22, 0x33];
    for (const at of [100, 4094, 4200, 8000]) plant(data, at, pattern, data);
    const inner = naiveSearch(data, pattern, 101, 8000);
    expect(inner).toContain(4094);
    expect(inner).not.toContain(100);
    expect(inner).not.toContain(8000);
    expect((await search(data, pattern, { start: 101, end: 8000, chunk: 4096 })).offsets).toEqual(inner);
    expect((await search(data, pattern, { start: 100, end: 8001, chunk: 4096 })).offsets).toEqual([100, ...inner, 8000]);
    expect((await search(data, pattern, { start: 8000, end: 8001, chunk: 1 })).offsets).toEqual([8000]);
    // a match starting at end_offset - 1 may run past end_offset
    expect((await search(data, pattern, { start: 4094, end: 4095, chunk: 4096 })).offsets).toEqual([4094]);
  });

  it('stops at maxResults and says truncated only when more matches exist', async () => {
    const data = Buffer.alloc(50_000, 0xaa);
    const first = await search(data, [0xaa, null], { chunk: 4096, max: 1000 });
    expect(first.offsets).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(first.truncated).toBe(true);
    const exact = await search(Buffer.alloc(1001, 0xaa), [0xaa, 0xaa], { chunk: 64, max: 1000 });
    expect(exact.offsets.length).toBe(1000);
    expect(exact.truncated).toBe(false);
  });

  it('agrees with the naive search for any data, pattern, range and chunk size (property)', async () => {
    const byte = fc.integer({ min: 0, max: 3 }); // a small alphabet makes matches common
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 300 }).map((a) => Buffer.from(a.map((b) => b & 3))),
        fc.array(fc.option(byte, { freq: 3 }), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 40 }),
        fc.nat(320),
        fc.nat(320),
        async (data, pattern, chunk, a, b) => {
          const [start, end] = a <= b ? [a, b] : [b, a];
          const got = await search(data, pattern, { start, end, chunk });
          expect(got.offsets).toEqual(naiveSearch(data, pattern, start, Math.min(end, data.length)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('reports progress in bytes and stops reading when cancelled', async () => {
    const data = seededBytes(1 << 20, 5);
    const reads: number[] = [];
    const progress: Array<{ done: number; total: number }> = [];
    const controller = new AbortController();
    const run = chunkedSearch(readerOf(data, reads), parsePattern('p', 'ffffffffffffffff'), {
      start: 0,
      end: data.length,
      size: data.length,
      maxResults: 10,
      chunkBytes: 4096,
      signal: controller.signal,
      progressEvery: 16 * 4096,
      onProgress: (p) => {
        progress.push(p);
        if (progress.length === 3) controller.abort(new Error('user cancelled'));
      },
    });
    await expect(run).rejects.toThrow('user cancelled');
    expect(progress.map((p) => p.done)).toEqual([16 * 4096, 32 * 4096, 48 * 4096]);
    expect(progress.every((p) => p.total === data.length - 7)).toBe(true);
    expect(reads.length).toBeLessThanOrEqual(50); // 256 chunks in all; at most one read ahead of the abort
  });
});
