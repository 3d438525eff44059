// What a block of bytes is made of: its byte histogram, the Shannon entropy of it (bits per byte,
// 0 for one repeated value, 8 for uniformly random bytes) and the share of each byte class, from
// which a kind is named (zero fill, 0xFF padding as erased flash leaves, text, compressed or
// encrypted data, other binary). Pure functions, shared by the map worker and the main thread.

/** Counts each byte value of `bytes` into `counts` (256 entries, added to). */
export function addHistogram(bytes: Uint8Array, counts: Uint32Array): void {
  // Four counters read from one 32-bit load: a run of one value (zero fill) no longer makes every
  // increment wait for the previous one (1.1-1.3 ms per MiB here, against 1.4-1.7 byte by byte).
  const aligned = (bytes.byteOffset & 3) === 0 ? bytes.length >>> 2 : 0;
  if (aligned > 0) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, aligned);
    const c1 = new Uint32Array(256);
    const c2 = new Uint32Array(256);
    const c3 = new Uint32Array(256);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      counts[w & 0xff]++;
      c1[(w >>> 8) & 0xff]++;
      c2[(w >>> 16) & 0xff]++;
      c3[w >>> 24]++;
    }
    for (let k = 0; k < 256; k++) counts[k] += c1[k] + c2[k] + c3[k];
  }
  for (let i = aligned * 4; i < bytes.length; i++) counts[bytes[i]]++;
}

export type BlockKind = 'zeros' | 'ff' | 'text' | 'random' | 'binary';

export interface BlockStats {
  offset: number;
  size: number;
  /** Shannon entropy of the block's bytes, bits per byte (0–8). */
  entropy: number;
  /** Shares of the block (0–1, summing to 1): 0x00; 0xFF; printable ASCII, tab, CR, LF; other bytes below 0x80; 0x80–0xFE. */
  zero: number;
  ff: number;
  text: number;
  control: number;
  high: number;
  kind: BlockKind;
}

const TEXT = new Uint8Array(256);
for (let b = 0x20; b < 0x7f; b++) TEXT[b] = 1;
TEXT[0x09] = TEXT[0x0a] = TEXT[0x0d] = 1;

/** Above this a block looks like compressed or encrypted data (random bytes give 7.98+ from 4 KiB on). */
const RANDOM_ENTROPY = 7.5;

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export function blockStats(offset: number, counts: Uint32Array): BlockStats {
  let size = 0;
  for (let k = 0; k < 256; k++) size += counts[k];
  let entropy = 0;
  let text = 0;
  let high = 0;
  for (let k = 0; k < 256; k++) {
    const n = counts[k];
    if (n === 0) continue;
    const p = n / size;
    entropy -= p * Math.log2(p);
    if (TEXT[k]) text += n;
    else if (k >= 0x80 && k < 0xff) high += n;
  }
  const share = (n: number) => (size === 0 ? 0 : round(n / size, 4));
  const zero = share(counts[0]);
  const ff = share(counts[0xff]);
  const textShare = share(text);
  const highShare = share(high);
  const control = size === 0 ? 0 : round(Math.max(0, 1 - zero - ff - textShare - highShare), 4);
  const e = round(Math.max(0, entropy), 3);
  return { offset, size, entropy: e, zero, ff, text: textShare, control, high: highShare, kind: kindOf(e, zero, ff, textShare) };
}

function kindOf(entropy: number, zero: number, ff: number, text: number): BlockKind {
  if (zero >= 0.98) return 'zeros';
  if (ff >= 0.98) return 'ff';
  if (entropy >= RANDOM_ENTROPY) return 'random';
  if (text >= 0.9) return 'text';
  return 'binary';
}
