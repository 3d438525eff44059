import { describe, expect, it } from 'vitest';
import { anchorOf, parseHexData, parsePattern } from '../../../plugins/imhex/hex.ts';

function failure(run: () => unknown): { code: unknown; message: string; data: unknown } {
  try {
    run();
  } catch (error) {
    return error as never;
  }
  throw new Error('expected a throw');
}

describe('write_bytes data', () => {
  it('accepts upper/lower case and spaces', () => {
    expect(parseHexData('data', 'DE ad\tBE ef')).toEqual(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
  });

  it.each([
    ['', /data: is empty/],
    ['   ', /data: has only whitespace/],
    ['abc', /data: has an odd number of hex digits \(3\)/],
    ['zz', /data: "z" at position 0 is not a hex digit/],
    ['00 0x12', /data: "x" at position 4 is not a hex digit/],
    ['4a??', /data: "\?" at position 2/],
  ])('%j is invalid params (-32602) naming the field', (text, message) => {
    const e = failure(() => parseHexData('data', text));
    expect(e.code).toBe(-32602);
    expect(e.message).toMatch(message);
    expect(e.data).toMatchObject({ field: 'data' });
  });
});

describe('search pattern', () => {
  it('parses ?? wildcards and spaces into bytes and a mask', () => {
    const p = parsePattern('pattern', '4A ?? 6f');
    expect([...p.bytes]).toEqual([0x4a, 0, 0x6f]);
    expect([...p.mask]).toEqual([1, 0, 1]);
    expect(p.text).toBe('4a ?? 6f');
    expect(p.wildcards).toBe(1);
    expect(parsePattern('pattern', '4a??6F').text).toBe('4a ?? 6f');
  });

  it.each([
    ['', /pattern: is empty/],
    ['4a ?', /odd number of hex digits/],
    ['4? 00', /"4\?" \(byte 0\) mixes a hex digit with \?/],
    ['4a *', /"\*" at position 3 is not a hex digit or \?\?/],
  ])('%j is invalid params (-32602)', (text, message) => {
    const e = failure(() => parsePattern('pattern', text));
    expect(e.code).toBe(-32602);
    expect(e.message).toMatch(message);
  });

  it('anchors on the longest literal run', () => {
    expect(anchorOf(parsePattern('p', '01 ?? 02 03 04 ?? 05 06'))).toEqual({ at: 2, length: 3 });
    expect(anchorOf(parsePattern('p', '?? ??'))).toEqual({ at: 0, length: 0 });
    expect(anchorOf(parsePattern('p', '0a0b'))).toEqual({ at: 0, length: 2 });
  });
});
