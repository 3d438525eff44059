// imhex_file_map: per-block entropy and byte classes, against an independent byte-by-byte count
// (Shannon entropy from a plain histogram of readFileSync's bytes), on a file with planted regions
// of each kind and on a real executable (this Node binary); the worker-thread path and the main
// thread give the same map; bad ranges name their field.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planMap } from '../../../plugins/imhex/file-map.ts';
import { FileProvider } from '../../../plugins/imhex/local/file-provider.ts';
import { serveInProcess, type InProcessSession } from '../../helpers/in-process.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { seededBytes, writeImHexConfig } from './helpers.ts';

const tmp = tempDir('imhex-map-');
const KIB = 1024;
const LOREM = Buffer.from(
  'The quick brown fox jumps over the lazy dog.\nPack my box with five dozen liquor jugs.\tSphinx of black quartz, judge my vow!\r\n',
);

/** 64 KiB each: zeros, 0xFF, text, random, then x86-like code (random low bytes, few high). */
function planted(): Buffer {
  const text = Buffer.alloc(64 * KIB);
  for (let i = 0; i < text.length; i += LOREM.length) LOREM.copy(text, i);
  const code = seededBytes(64 * KIB, 5).map((b, i) => (i % 3 === 0 ? b & 0x0f : i % 7 === 0 ? 0x48 : b & 0x7f));
  return Buffer.concat([Buffer.alloc(64 * KIB), Buffer.alloc(64 * KIB, 0xff), text, seededBytes(64 * KIB, 9), code]);
}

/** The obvious computation, one byte at a time: what every block should say. */
function reference(data: Uint8Array, start: number, size: number) {
  const counts = new Array<number>(256).fill(0);
  for (let i = start; i < start + size; i++) counts[data[i]]++;
  let entropy = 0;
  for (const n of counts) if (n > 0) entropy -= (n / size) * Math.log2(n / size);
  const textBytes = counts.reduce((sum, n, b) => sum + ((b >= 0x20 && b < 0x7f) || b === 9 || b === 10 || b === 13 ? n : 0), 0);
  const highBytes = counts.reduce((sum, n, b) => sum + (b >= 0x80 && b < 0xff ? n : 0), 0);
  return { entropy, zero: counts[0] / size, ff: counts[0xff] / size, text: textBytes / size, high: highBytes / size };
}

interface Block {
  offset: number;
  size: number;
  entropy: number;
  zero: number;
  ff: number;
  text: number;
  control: number;
  high: number;
  kind: string;
}
interface FileMapResult {
  file_size: number;
  start_offset: number;
  end_offset: number;
  block_size: number;
  blocks: Block[];
  summary: { entropy_mean: number; kinds: Record<string, number> };
}

function expectMatchesReference(map: FileMapResult, data: Uint8Array) {
  let at = map.start_offset;
  for (const block of map.blocks) {
    expect(block.offset).toBe(at);
    const ref = reference(data, block.offset, block.size);
    expect(block.entropy).toBeCloseTo(ref.entropy, 2);
    expect(block.zero).toBeCloseTo(ref.zero, 3);
    expect(block.ff).toBeCloseTo(ref.ff, 3);
    expect(block.text).toBeCloseTo(ref.text, 3);
    expect(block.high).toBeCloseTo(ref.high, 3);
    expect(block.zero + block.ff + block.text + block.control + block.high).toBeCloseTo(1, 3);
    at += block.size;
  }
  expect(at).toBe(map.end_offset);
}

describe('imhex_file_map through mcphost (in-process)', () => {
  const dir = tmp.dir;
  const file = path.join(dir, 'planted.bin');
  const data = planted();
  writeFileSync(file, data);
  writeImHexConfig(dir, { file: 'planted.bin' });
  let session: InProcessSession;
  beforeAll(async () => {
    session = await serveInProcess({ cwd: dir, plugins: ['imhex'] });
  });
  afterAll(() => session?.close());

  const map = async (args: Record<string, unknown>) => {
    const r = await session.client.callTool({ name: 'imhex_file_map', arguments: args });
    return r as { isError?: boolean; content: Array<{ text: string }>; structuredContent: FileMapResult };
  };

  it('names each planted region by its kind, with the entropy and classes a plain count gives', async () => {
    const r = await map({ block_size: 64 * KIB });
    expect(r.isError).toBeFalsy();
    const m = r.structuredContent;
    expect(m).toMatchObject({ file_size: data.length, start_offset: 0, end_offset: data.length, block_size: 64 * KIB });
    expect(m.blocks.map((b) => b.kind)).toEqual(['zeros', 'ff', 'text', 'random', 'binary']);
    expect(m.summary.kinds).toEqual({ zeros: 1, ff: 1, text: 1, random: 1, binary: 1 });
    expect(m.blocks[0].entropy).toBe(0);
    expect(m.blocks[3].entropy).toBeGreaterThan(7.99);
    expectMatchesReference(m, data);
    expect(r.content[0].text).toContain('[0x30000, 0x40000): high entropy (compressed or encrypted), 1 block');
  });

  it('maps a range in a given number of blocks (multiples of 512 bytes)', async () => {
    const m = (await map({ start_offset: 100_000, end_offset: 200_000, blocks: 10 })).structuredContent;
    expect(m).toMatchObject({ start_offset: 100_000, end_offset: 200_000, block_size: 10_240 });
    expect(m.blocks).toHaveLength(10);
    expect(m.blocks.at(-1)!.size).toBe(100_000 - 9 * 10_240);
    expectMatchesReference(m, data);
  });

  it('says which field is wrong and how to fix it', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ block_size: 100 }, /block_size: must be 512 or more, got 100/],
      [{ blocks: 5000 }, /blocks: must be 1 to 4096, got 5000/],
      [{ blocks: 4, block_size: 4096 }, /block_size: give blocks or block_size, not both/],
      [{ start_offset: data.length + 1 }, /start_offset: \d+ is past the end of the data/],
      [{ start_offset: 10, end_offset: 5 }, /end_offset: 5 is before start_offset 10/],
    ];
    for (const [args, message] of cases) {
      const r = await map(args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.content[0].text).toMatch(message);
    }
    expect(() => planMap({ start_offset: 0, block_size: 512 }, 1 << 30)).toThrow(
      'block_size: 512 cuts 1073741824 bytes into more than 4096 blocks: use at least 262144, or map a smaller range',
    );
  });
});

describe('the worker threads and the main thread', () => {
  const exe = readFileSync(process.execPath);
  const providers = [0, 2].map(
    (threads) =>
      new FileProvider({ file: process.execPath, writable: false, allowGrow: false, chunkBytes: 1 << 20, searchThreads: threads }),
  );
  afterAll(() => Promise.all(providers.map((p) => p.close())));
  const signal = new AbortController().signal;

  it(`give the same map of a real executable (${process.execPath}, ${statSync(process.execPath).size} bytes), equal to a plain count`, async () => {
    const [main, workers] = await Promise.all(providers.map((p) => p.fileMap({ start_offset: 0, blocks: 97 }, { signal })));
    expect(workers).toEqual(main);
    expect(main.blocks.length).toBeGreaterThan(90);
    expectMatchesReference(main, exe);
    // An executable has code, strings and padding: not one kind throughout.
    expect(Object.values(main.summary.kinds).filter((n) => n > 0).length).toBeGreaterThan(1);
  }, 60_000);

  it('stop when the call is cancelled', async () => {
    const ac = new AbortController();
    const running = providers[1].fileMap({ start_offset: 0, block_size: 512 * 1024 }, { signal: ac.signal });
    ac.abort(new Error('cancelled by the client'));
    await expect(running).rejects.toThrow('cancelled by the client');
  });
});
