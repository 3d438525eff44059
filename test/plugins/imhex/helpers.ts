// Shared by the imhex tests: reproducible random bytes, an independent naive search, and the
// plugin's config written into a temporary .mcprc.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** Deterministic pseudo-random bytes (xorshift32), so a failure can be reproduced from its seed. */
export function seededBytes(length: number, seed = 1): Buffer {
  const out = Buffer.allocUnsafe(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Every offset in [start, end) where `pattern` (null = any byte) matches, the slow obvious way. */
export function naiveSearch(data: Uint8Array, pattern: Array<number | null>, start = 0, end = data.length): number[] {
  const found: number[] = [];
  for (let at = start; at < end && at + pattern.length <= data.length; at++) {
    let ok = true;
    for (let k = 0; k < pattern.length && ok; k++) ok = pattern[k] === null || data[at + k] === pattern[k];
    if (ok) found.push(at);
  }
  return found;
}

/** `[0x4a, null, 0x6f]` → `"4a ?? 6f"`. */
export function patternText(pattern: Array<number | null>): string {
  return pattern.map((b) => (b === null ? '??' : b.toString(16).padStart(2, '0'))).join(' ');
}

/** Writes `.mcprc.json` with a plugins.imhex section into `dir`. */
export function writeImHexConfig(dir: string, section: Record<string, unknown>): string {
  const file = path.join(dir, '.mcprc.json');
  writeFileSync(file, JSON.stringify({ plugins: { imhex: section } }, null, 2));
  return file;
}
