// The data inspector of get_offset_info: the bytes at an offset read as integers (64-bit ones as
// strings, since they do not fit a JSON number), floats in both byte orders, and text previews.

export interface NumberViews {
  u16: number | null;
  i16: number | null;
  u32: number | null;
  i32: number | null;
  u64: string | null;
  i64: string | null;
  f32: number | string | null;
  f64: number | string | null;
}

export interface Inspection {
  /** How many bytes were there to interpret (up to 16; fewer at the end of the data). */
  bytes_available: number;
  hex: string;
  u8: number | null;
  i8: number | null;
  little_endian: NumberViews;
  big_endian: NumberViews;
  /** Printable ASCII, `.` for anything else. */
  ascii: string;
  /** The bytes decoded as UTF-8 (U+FFFD for invalid sequences), control characters escaped. */
  utf8: string;
}

export const INSPECT_BYTES = 16;

/** A float as the shortest decimal that reads back to the same value; non-finite ones as strings. */
function float(value: number, bits: 32 | 64): number | string {
  if (!Number.isFinite(value)) return String(value);
  if (bits === 64) return value;
  for (let digits = 1; digits <= 9; digits++) {
    const short = Number(value.toPrecision(digits));
    if (Math.fround(short) === value) return short;
  }
  return value;
}

function views(b: Buffer, le: boolean): NumberViews {
  const n = b.length;
  const pick = <T>(size: number, read: () => T): T | null => (n >= size ? read() : null);
  return {
    u16: pick(2, () => (le ? b.readUInt16LE(0) : b.readUInt16BE(0))),
    i16: pick(2, () => (le ? b.readInt16LE(0) : b.readInt16BE(0))),
    u32: pick(4, () => (le ? b.readUInt32LE(0) : b.readUInt32BE(0))),
    i32: pick(4, () => (le ? b.readInt32LE(0) : b.readInt32BE(0))),
    u64: pick(8, () => String(le ? b.readBigUInt64LE(0) : b.readBigUInt64BE(0))),
    i64: pick(8, () => String(le ? b.readBigInt64LE(0) : b.readBigInt64BE(0))),
    f32: pick(4, () => float(le ? b.readFloatLE(0) : b.readFloatBE(0), 32)),
    f64: pick(8, () => float(le ? b.readDoubleLE(0) : b.readDoubleBE(0), 64)),
  };
}

export function asciiPreview(b: Uint8Array): string {
  let s = '';
  for (const c of b) s += c >= 0x20 && c <= 0x7e ? String.fromCharCode(c) : '.';
  return s;
}

function utf8Preview(b: Buffer): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(b);
  return text.replace(/\p{Cc}/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

export function inspect(bytes: Buffer): Inspection {
  const b = bytes.subarray(0, INSPECT_BYTES);
  return {
    bytes_available: b.length,
    hex: b.toString('hex'),
    u8: b.length >= 1 ? b.readUInt8(0) : null,
    i8: b.length >= 1 ? b.readInt8(0) : null,
    little_endian: views(b, true),
    big_endian: views(b, false),
    ascii: asciiPreview(b),
    utf8: utf8Preview(b),
  };
}
