// The scan plan (which bytes indexOf looks for) and the worker-thread search, against the naive
// search on real files, with matches planted across task and buffer boundaries.
import { statSync, writeFileSync } from 'node:fs';
import { renameSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePattern } from '../../../plugins/imhex/hex.ts';
import { SearchPool } from '../../../plugins/imhex/local/search-pool.ts';
import { MAX_WINDOW, planScan, sampleFrequencies } from '../../../plugins/imhex/scan.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { naiveSearch, patternText, seededBytes } from './helpers.ts';

const tmp = tempDir('imhex-pool-');
const pool = new SearchPool(2);
afterAll(() => pool.close());

describe('scan plan', () => {
  it('looks for at most six bytes, so indexOf stays on memchr', () => {
    const plan = planScan(parsePattern('p', Buffer.from('MCPHOST!').toString('hex')));
    expect(plan.windowLength).toBe(MAX_WINDOW);
    expect(plan.windowIsPattern).toBe(false);
    const short = planScan(parsePattern('p', 'de ad be ef 13'));
    expect(short).toMatchObject({ windowAt: 0, windowLength: 5, windowIsPattern: true });
  });

  it('starts the window at a byte that is rare in the data sampled', () => {
    const random = sampleFrequencies(seededBytes(64 * 1024, 3));
    expect(planScan(parsePattern('p', '00 00 00 01'), random)).toMatchObject({ windowAt: 0, windowLength: 4 });
    const zeros = Buffer.alloc(64 * 1024);
    seededBytes(16 * 1024, 4).copy(zeros, 0); // a quarter random, the rest zero: like an executable's padding
    expect(planScan(parsePattern('p', '00 00 00 01'), sampleFrequencies(zeros))).toMatchObject({ windowAt: 3, windowLength: 1 });
    expect(planScan(parsePattern('p', '?? 00 ?? 7f 45 4c 46'), sampleFrequencies(zeros))).toMatchObject({ windowAt: 3, windowLength: 4 });
  });
});

describe('search on worker threads', () => {
  const data = seededBytes(300_000, 11);
  const pattern = [0x7f, null, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x99];
  const fill = seededBytes(101, 12);
  // One copy across every task boundary (4096) and every read-buffer boundary (1000), at varying splits.
  for (let at = 995; at < data.length - 16; at += 997) pattern.forEach((b, k) => (data[at + k] = b ?? fill[(at + k) % fill.length]));
  const file = tmp.write('data.bin', '');
  writeFileSync(file, data);
  const st = statSync(file, { bigint: true });
  const base = (p: Array<number | null>) => ({
    file,
    dev: String(st.dev),
    ino: String(st.ino),
    plan: planScan(parsePattern('p', patternText(p))),
    size: data.length,
    taskBytes: 4096,
    bufferBytes: 1000,
  });

  it('finds every match, in order, whatever task or buffer it straddles', async () => {
    const expected = naiveSearch(data, pattern, 7, 290_000);
    expect(expected.length).toBeGreaterThan(250);
    const r = await pool.search({ ...base(pattern), start: 7, lastStart: 290_000, wanted: 1_000_000 });
    expect(r.offsets).toEqual(expected);
  });

  it('stops once the first `wanted` matches are known, and they are the first ones', async () => {
    const all = naiveSearch(data, [0x00, null]);
    const r = await pool.search({ ...base([0x00, null]), start: 0, lastStart: data.length - 1, wanted: 11 });
    expect(r.offsets).toEqual(all.slice(0, 11));
    expect(r.bytesSearched).toBeLessThan(data.length);
  });

  it('stops when cancelled, and refuses a file replaced since the search was planned', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the test'));
    await expect(
      pool.search({ ...base(pattern), start: 0, lastStart: data.length, wanted: 10, signal: controller.signal }),
    ).rejects.toThrow('cancelled by the test');
    const replacement = tmp.write('new.bin', 'other');
    const planned = base(pattern);
    renameSync(replacement, file);
    await expect(pool.search({ ...planned, start: 0, lastStart: data.length, wanted: 10 })).rejects.toMatchObject({
      code: 'FILE_REPLACED',
      message: `${file} was replaced by another file during the search`,
    });
  });
});
