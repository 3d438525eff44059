// The hexdump against the real xxd, and the data inspector against Node's own Buffer readers.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { xxd } from '../../../plugins/imhex/hexdump.ts';
import { inspect } from '../../../plugins/imhex/inspector.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { seededBytes } from './helpers.ts';

const hasXxd = (() => {
  try {
    execFileSync('xxd', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasXxd) console.log('imhex hexdump: xxd not installed (Debian package xxd); skipping the cross-check against real xxd');

describe('hexdump', () => {
  const tmp = tempDir('imhex-xxd-');
  const data = Buffer.concat([Buffer.from('Hello, world!\n\x00\x01\x7f\x80 ~'), seededBytes(300, 11)]);
  const file = path.join(tmp.dir, 'data.bin');
  writeFileSync(file, data);

  it.skipIf(!hasXxd).each([
    [0, data.length],
    [3, 37],
    [16, 16],
    [5, 1],
    [100, 1000], // runs past the end
  ])('matches `xxd -s %i -l %i` byte for byte', (offset, count) => {
    const expected = execFileSync('xxd', ['-s', String(offset), '-l', String(count), file], {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C' },
    }).replace(/\n$/, '');
    expect(xxd(data.subarray(offset, offset + count), offset)).toBe(expected);
  });

  it('widens the address column past 32 bits as xxd does', () => {
    expect(xxd(Buffer.from('AB'), 0x1_0000_0000)).toBe('100000000: 4142                                     AB');
    expect(xxd(Buffer.from([0x00, 0x41]), 0xfffffff0)).toBe('fffffff0: 0041                                     .A');
  });
});

describe('data inspector', () => {
  it('reads integers and floats in both byte orders like Buffer does', () => {
    for (let seed = 1; seed < 200; seed++) {
      const b = seededBytes(16, seed);
      const r = inspect(b);
      expect(r.u8).toBe(b.readUInt8(0));
      expect(r.i8).toBe(b.readInt8(0));
      expect(r.little_endian.u16).toBe(b.readUInt16LE(0));
      expect(r.big_endian.i16).toBe(b.readInt16BE(0));
      expect(r.little_endian.u32).toBe(b.readUInt32LE(0));
      expect(r.big_endian.i32).toBe(b.readInt32BE(0));
      expect(r.little_endian.u64).toBe(b.readBigUInt64LE(0).toString());
      expect(r.big_endian.i64).toBe(b.readBigInt64BE(0).toString());
      for (const [v, f] of [
        [r.little_endian.f32, b.readFloatLE(0)],
        [r.big_endian.f32, b.readFloatBE(0)],
      ] as const) {
        if (Number.isFinite(f)) expect(Math.fround(v as number)).toBe(f);
        else expect(v).toBe(String(f));
      }
      const f64 = b.readDoubleLE(0);
      expect(r.little_endian.f64).toBe(Number.isFinite(f64) ? f64 : String(f64));
      expect(r.hex).toBe(b.toString('hex'));
    }
  });

  it('gives float32 as the shortest decimal that reads back, and names non-finite values', () => {
    const b = Buffer.alloc(8);
    b.writeFloatLE(1.1, 0);
    expect(inspect(b).little_endian.f32).toBe(1.1);
    b.writeFloatBE(Number.NaN, 0);
    expect(inspect(b).big_endian.f32).toBe('NaN');
    b.writeDoubleLE(-Infinity, 0);
    expect(inspect(b).little_endian.f64).toBe('-Infinity');
  });

  it('leaves out what does not fit near the end of the data, and previews text', () => {
    const r = inspect(Buffer.from([0x41, 0xc3, 0xa9]));
    expect(r.bytes_available).toBe(3);
    expect(r.little_endian.u16).toBe(0xc341);
    expect(r.little_endian.u32).toBeNull();
    expect(r.big_endian.u64).toBeNull();
    expect(r.ascii).toBe('A..');
    expect(r.utf8).toBe('Aé');
    const empty = inspect(Buffer.alloc(0));
    expect(empty.u8).toBeNull();
    expect(empty.ascii).toBe('');
  });
});
