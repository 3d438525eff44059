// The local provider on real files: values checked against independent fs reads.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePattern } from '../../../plugins/imhex/hex.ts';
import { FileProvider, type FileProviderOptions } from '../../../plugins/imhex/local/file-provider.ts';
import type { ProviderCall } from '../../../plugins/imhex/provider.ts';
import type { ClientInfo } from '../../../src/backend/index.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { seededBytes } from './helpers.ts';

const tmp = tempDir('imhex-file-');
const providers: FileProvider[] = [];
afterAll(() => Promise.all(providers.map((p) => p.close())));

function provider(file: string, options: Partial<FileProviderOptions> = {}) {
  const p = new FileProvider({ file, writable: false, allowGrow: false, chunkBytes: 4 * 1024 * 1024, ...options });
  providers.push(p);
  return p;
}

const call = (extra: Partial<ProviderCall> = {}): ProviderCall => ({ signal: new AbortController().signal, ...extra });
/** A client as the host hands it to a backend: its own values, one per key. */
function fakeClient(id: string): ClientInfo {
  const values = new Map<string, unknown>();
  return {
    id,
    caller: `caller-${id}`,
    transport: 'http',
    capabilities: {},
    remote: true,
    state: <T>(key: string, create: () => T): T => {
      if (!values.has(key)) values.set(key, create());
      return values.get(key) as T;
    },
  };
}
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const failure = (p: Promise<unknown>) =>
  p.then(
    () => Promise.reject(new Error('expected a failure')),
    (e) => e,
  );

function readAt(file: string, position: number, length: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(length);
    return b.subarray(0, readSync(fd, b, 0, length, position));
  } finally {
    closeSync(fd);
  }
}

describe('local file provider', () => {
  const data = seededBytes(100_000, 42);
  const file = tmp.write('data.bin', '');
  writeFileSync(file, data);

  it('reads bytes at any offset as lowercase hex, short at the end of the data', async () => {
    const p = provider(file);
    for (const [offset, count] of [
      [0, 16],
      [12_345, 100],
      [99_990, 16],
      [100_000, 16],
      [250_000, 4],
      [7, 0],
    ]) {
      const r = await p.readBytes(offset, count);
      const expected = data.subarray(Math.min(offset, data.length), Math.min(offset + count, data.length));
      expect(r).toEqual({ offset, count, bytes_read: expected.length, hex_data: expected.toString('hex') });
    }
  });

  it('accepts offsets up to Number.MAX_SAFE_INTEGER', async () => {
    const p = provider(file);
    const max = Number.MAX_SAFE_INTEGER;
    expect(await p.readBytes(max, 16)).toEqual({ offset: max, count: 16, bytes_read: 0, hex_data: '' });
    expect(await p.getOffsetInfo(max)).toEqual({ offset: max, address_str: '0x1FFFFFFFFFFFFF' });
    expect(await p.getOffsetInfo(4096)).toEqual({ offset: 4096, address_str: '0x00001000' });
  });

  it('keeps one selection per client and file: the same client sees it through every provider of that file, another client never', async () => {
    const other = tmp.write('other.bin', 'x'.repeat(64));
    const a = provider(file);
    const b = provider(other);
    const alice = call({ client: fakeClient('alice') });
    const bob = call({ client: fakeClient('bob') });
    expect(await a.getSelection(alice)).toEqual({ start_offset: null, size: 0, end_offset: null });
    expect(await a.setSelection(256, 16, alice)).toEqual({ status: 'success', start_offset: 256, size: 16 });
    await b.setSelection(1, 2, alice);
    await a.setSelection(5, 5, bob);
    expect(await a.getSelection(alice)).toEqual({ start_offset: 256, size: 16, end_offset: 271 });
    expect(await a.getSelection(bob)).toEqual({ start_offset: 5, size: 5, end_offset: 9 });
    expect(await provider(path.join(tmp.dir, '.', 'data.bin')).getSelection(alice)).toEqual({
      start_offset: 256,
      size: 16,
      end_offset: 271,
    });
    expect(await b.getSelection(alice)).toEqual({ start_offset: 1, size: 2, end_offset: 2 });
    expect(await b.getSelection(bob)).toEqual({ start_offset: null, size: 0, end_offset: null });
    const e = await failure(a.setSelection(99_990, 11, alice));
    expect(e).toMatchObject({ code: -32602 });
    expect(e.message).toMatch(/^size: .*runs past the end of the data \(100000 bytes\)/);
    await a.setSelection(0, 0, alice);
    expect(await a.getSelection(alice)).toEqual({ start_offset: null, size: 0, end_offset: null });
    expect(await a.getSelection(bob)).toEqual({ start_offset: 5, size: 5, end_offset: 9 });
  });

  it('refuses writes with -32003 unless writable, leaving the file byte-identical', async () => {
    const copy = tmp.write('ro.bin', '');
    writeFileSync(copy, data);
    const before = sha(copy);
    const mtime = statSync(copy).mtimeMs;
    const e = await failure(provider(copy).writeBytes(0, Buffer.from('00ff', 'hex'), call()));
    expect(e.code).toBe(-32003);
    expect(e.message).toMatch(/^Provider is not writable: .* set plugins\.imhex\.writable: true/);
    expect(sha(copy)).toBe(before);
    expect(statSync(copy).mtimeMs).toBe(mtime);
  });

  it('writes in place when writable, but never past the end unless allowGrow', async () => {
    const copy = tmp.write('rw.bin', '');
    writeFileSync(copy, data);
    const p = provider(copy, { writable: true });
    expect(await p.writeBytes(500, Buffer.from('deadbeef', 'hex'), call())).toEqual({ offset: 500, bytes_written: 4, status: 'success' });
    expect(readAt(copy, 498, 8).toString('hex')).toBe(
      `${data.subarray(498, 500).toString('hex')}deadbeef${data.subarray(504, 506).toString('hex')}`,
    );
    const before = sha(copy);
    const e = await failure(p.writeBytes(99_998, Buffer.from('01020304', 'hex'), call()));
    expect(e).toMatchObject({ code: -32602 });
    expect(e.message).toMatch(
      /^offset: writing 4 bytes at 99998 runs past the end of the data \(100000 bytes\): writes never grow the file unless plugins\.imhex\.allowGrow is true/,
    );
    expect(sha(copy)).toBe(before); // not even the two bytes that fit were written
    expect(statSync(copy).size).toBe(100_000);
  });

  it('flushes a write to disk (fsync) before reporting success', async () => {
    const copy = tmp.write('sync.bin', 'abcdef');
    const probe = await open(copy, 'r');
    const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
    await probe.close();
    const events: string[] = [];
    const sync = proto.sync;
    proto.sync = async function (this: unknown) {
      events.push('sync');
      return sync.call(this);
    };
    try {
      const p = provider(copy, { writable: true });
      await p.writeBytes(1, Buffer.from('ZZ'), call()).then(() => events.push('success'));
    } finally {
      proto.sync = sync;
    }
    expect(events).toEqual(['sync', 'success']);
    expect(readFileSync(copy, 'latin1')).toBe('aZZdef');
  });

  it('grows the file from its end with allowGrow, but leaves no holes', async () => {
    const copy = tmp.write('grow.bin', 'abc');
    const p = provider(copy, { writable: true, allowGrow: true });
    await p.writeBytes(2, Buffer.from('XYZ'), call());
    expect(readFileSync(copy, 'latin1')).toBe('abXYZ');
    await p.writeBytes(5, Buffer.from('!'), call());
    expect(readFileSync(copy, 'latin1')).toBe('abXYZ!');
    const e = await failure(p.writeBytes(10, Buffer.from('?'), call()));
    expect(e.message).toMatch(/must start at or before its end/);
    expect(readFileSync(copy, 'latin1')).toBe('abXYZ!');
  });

  it('says which file is missing and how to fix it', async () => {
    const e = await failure(provider(path.join(tmp.dir, 'nope.bin')).readBytes(0, 1));
    expect(e.code).toBe('UNAVAILABLE');
    expect(e.message).toMatch(/cannot open .*nope\.bin: ENOENT — set plugins\.imhex\.file \(or pass --file\) to an existing file/);

    const folder = await failure(provider(tmp.dir).readBytes(0, 1));
    expect(folder.code).toBe('UNAVAILABLE');
    expect(folder.message).toMatch(/it is a directory, not a regular file — set plugins\.imhex\.file \(or --file\) to a regular file/);
  });
});

describe('a sparse file over 4 GiB', () => {
  const big = path.join(tmp.dir, 'sparse.bin');
  const SIZE = 5 * 1024 ** 3 + 77;
  const FOUR_GIB = 2 ** 32;
  const marks: Array<[number, Buffer]> = [
    [FOUR_GIB - 3, Buffer.from('cafebabe0102', 'hex')], // straddles the 4 GiB line
    [FOUR_GIB + 123_456_789, Buffer.from('cafebabe0304', 'hex')],
    [SIZE - 6, Buffer.from('cafebabe0506', 'hex')], // the last bytes
  ];
  writeFileSync(big, '');
  truncateSync(big, SIZE);
  const fd = openSync(big, 'r+');
  for (const [at, bytes] of marks) writeSync(fd, bytes, 0, bytes.length, at);
  closeSync(fd);

  it('reads, searches and writes beyond 32-bit offsets', async () => {
    expect(statSync(big).size).toBe(SIZE);
    const p = provider(big, { writable: true });
    for (const [at, bytes] of marks) {
      const r = await p.readBytes(at - 2, bytes.length + 4);
      expect(r.hex_data).toBe(readAt(big, at - 2, bytes.length + 4).toString('hex'));
      expect(r.hex_data.slice(4, 4 + bytes.length * 2)).toBe(bytes.toString('hex'));
    }
    const pattern = parsePattern('pattern', 'ca fe ba be ?? ??');
    // On the calling thread, and on worker threads (ranges of 8 MiB or more).
    for (const searcher of [p, provider(big, { searchThreads: 2 })]) {
      const low = await searcher.search(
        { pattern, start_offset: FOUR_GIB - 32 * 1024 ** 2, end_offset: FOUR_GIB + 160 * 1024 ** 2, maxResults: 10 },
        call(),
      );
      expect(low).toEqual({ offsets: [marks[0][0], marks[1][0]] });
      const high = await searcher.search({ pattern, start_offset: SIZE - 32 * 1024 ** 2, maxResults: 10 }, call());
      expect(high).toEqual({ offsets: [marks[2][0]] });
    }
    expect(await p.getOffsetInfo(FOUR_GIB + 1)).toEqual({ offset: FOUR_GIB + 1, address_str: '0x100000001' });
    const at = SIZE - 1000;
    await p.writeBytes(at, Buffer.from('0badf00d', 'hex'), call());
    expect(readAt(big, at, 4).toString('hex')).toBe('0badf00d');
    expect(statSync(big).size).toBe(SIZE);
  }, 60_000);

  it('reports progress over a large range and stops when cancelled', async () => {
    const p = provider(big, { chunkBytes: 4 * 1024 * 1024, progressMinBytes: 1 });
    const updates: Array<{ progress: number; total?: number }> = [];
    const controller = new AbortController();
    const run = p.search(
      { pattern: parsePattern('pattern', '11 22 33 44'), start_offset: 0, maxResults: 10 },
      {
        signal: controller.signal,
        progress: (u) => {
          updates.push(u);
          if (updates.length === 5) controller.abort(new Error('cancelled by the test'));
        },
      },
    );
    await expect(run).rejects.toThrow('cancelled by the test');
    expect(updates.length).toBe(5);
    const total = SIZE - 3;
    for (const [i, u] of updates.entries()) {
      expect(u.total).toBe(total);
      expect(u.progress).toBeGreaterThan(i === 0 ? 0 : updates[i - 1].progress);
    }
    expect(updates[4].progress).toBeLessThan(total / 10);
  }, 60_000);
});
