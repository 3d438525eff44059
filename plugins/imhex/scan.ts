// How a byte pattern is looked for in a buffer. `Buffer.indexOf` runs in C++: for a needle of 1–6
// bytes it is memchr on the needle's first byte plus a compare, for 7 bytes or more a
// Boyer-Moore-Horspool that measured 3–5× slower on random data (bench/imhex.bench.js). So the plan
// picks a window of at most 6 literal bytes that starts at a rare byte, lets indexOf find it, and
// checks the rest of the pattern (longer literals, `??` wildcards) here.
import type { Pattern } from './hex.js';

/** What `scan` needs; plain arrays and numbers so it can be posted to a worker thread. */
export interface ScanPlan {
  /** The whole pattern; a wildcard position holds 0. */
  bytes: Uint8Array;
  /** 1 where the byte must match. */
  mask: Uint8Array;
  /** Where the window starts in the pattern, and its length (0: the pattern is all wildcards). */
  windowAt: number;
  windowLength: number;
  /** The window is the whole pattern: an indexOf hit is a match. */
  windowIsPattern: boolean;
}

/** The longest needle indexOf still searches with memchr. */
export const MAX_WINDOW = 6;

/**
 * A rough probability of a byte in executables, firmware and text, used when no sample of the data
 * is at hand: zero bytes and 0xff padding are common, then ASCII letters and space, then control
 * bytes, punctuation and digits; bytes above 0x7f other than 0xff are rare.
 */
function typicalFrequency(b: number): number {
  if (b === 0x00) return 0.2;
  if (b === 0xff) return 0.03;
  if (b === 0x20 || (b >= 0x61 && b <= 0x7a)) return 0.015;
  if (b < 0x20 || (b >= 0x21 && b <= 0x7e)) return 0.005;
  return 0.002;
}

/**
 * Cost of a memchr stop inside indexOf, and of a candidate handed back to JavaScript to check:
 * measured ≈ 1 : 3 on random data (≈ 65 and ≈ 215 ns per stop with a 2-byte and a 1-byte window).
 */
const MEMCHR_STOP = 1;
const JS_CANDIDATE = 3;

/** Byte frequencies measured on a sample of the data (each at least a small floor, so no byte is "free"). */
export function sampleFrequencies(sample: Uint8Array): Float64Array {
  const counts = new Float64Array(256);
  for (let i = 0; i < sample.length; i++) counts[sample[i]]++;
  const floor = 0.5 / 256;
  for (let b = 0; b < 256; b++) counts[b] = Math.max(floor, sample.length ? counts[b] / sample.length : floor);
  return counts;
}

/** The plan for `pattern`; `frequencies` (from `sampleFrequencies`) replace the typical ones when given. */
export function planScan(pattern: Pattern, frequencies?: Float64Array): ScanPlan {
  const { bytes, mask } = pattern;
  const byteFrequency = frequencies ? (b: number) => frequencies[b] : typicalFrequency;
  let best = { at: 0, length: 0, cost: Infinity };
  for (let at = 0; at < mask.length; at++) {
    if (mask[at] !== 1) continue;
    let length = 0;
    let p = 1;
    while (at + length < mask.length && mask[at + length] === 1 && length < MAX_WINDOW) p *= byteFrequency(bytes[at + length++]);
    // A window that is the whole pattern never hands a false candidate back to JavaScript.
    const whole = length === mask.length;
    const cost = MEMCHR_STOP * byteFrequency(bytes[at]) + (whole ? 0 : JS_CANDIDATE * p);
    if (cost < best.cost - 1e-12 || (Math.abs(cost - best.cost) <= 1e-12 && length > best.length)) best = { at, length, cost };
  }
  return {
    bytes: Uint8Array.from(bytes),
    mask: Uint8Array.from(mask),
    windowAt: best.at,
    windowLength: best.length,
    windowIsPattern: best.length === mask.length,
  };
}

/**
 * Reports every match starting before `limit` in `buf` (the caller guarantees the pattern's bytes
 * are there for each such start); stops when `emit` returns false. Self-contained — no imports,
 * no closures over module state — because worker threads run its source text (search-pool.ts).
 */
export function scan(buf: Buffer, limit: number, plan: ScanPlan, emit: (at: number) => boolean): void {
  const { bytes, mask, windowAt, windowLength, windowIsPattern } = plan;
  if (windowLength === 0) {
    for (let at = 0; at < limit; at++) if (!emit(at)) return;
    return;
  }
  const window = bytes.subarray(windowAt, windowAt + windowLength);
  const n = mask.length;
  let j = buf.indexOf(window, windowAt);
  while (j !== -1) {
    const at = j - windowAt;
    if (at >= limit) return;
    let ok = true;
    if (!windowIsPattern) {
      for (let k = 0; k < n; k++) {
        if (mask[k] === 1 && buf[at + k] !== bytes[k]) {
          ok = false;
          break;
        }
      }
    }
    if (ok && !emit(at)) return;
    j = buf.indexOf(window, j + 1);
  }
}
