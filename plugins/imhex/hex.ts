// Hex text in, bytes out: `write_bytes` data and `search` patterns (with `??` wildcard bytes).
// Whitespace is allowed anywhere between bytes; every problem names the field it came from.
import { invalidParams } from './errors.js';

export interface Pattern {
  /** The bytes to match; a wildcard position holds 0. */
  bytes: Buffer;
  /** 1 where the byte must match, 0 for a `??` wildcard. */
  mask: Uint8Array;
  /** Normalised text: lower-case bytes separated by spaces (`4a ?? 6f`). */
  text: string;
  wildcards: number;
}

function compact(field: string, text: string): string {
  const s = text.replace(/\s+/g, '');
  if (s === '')
    throw invalidParams(
      field,
      text === '' ? 'is empty: give at least one byte as two hex digits' : 'has only whitespace: give at least one byte as two hex digits',
    );
  return s;
}

function badCharacter(field: string, text: string, allowed: string) {
  const at = [...text].findIndex((c) => !allowed.includes(c.toLowerCase()) && !/\s/.test(c));
  const c = [...text][at];
  return invalidParams(field, `${JSON.stringify(c)} at position ${at} is not a hex digit${allowed.includes('?') ? ' or ??' : ''}`, {
    position: at,
  });
}

const HEX = '0123456789abcdef';

/** `"de ad BE EF"` → bytes. Odd length, non-hex characters and empty text are -32602. */
export function parseHexData(field: string, text: string): Buffer {
  const s = compact(field, text);
  if (!/^[0-9a-fA-F]*$/.test(s)) throw badCharacter(field, text, HEX);
  if (s.length % 2 !== 0) throw invalidParams(field, `has an odd number of hex digits (${s.length}): every byte needs two`);
  return Buffer.from(s, 'hex');
}

/** `"4A ?? 6F"` → a pattern; `??` matches any byte. */
export function parsePattern(field: string, text: string): Pattern {
  const s = compact(field, text);
  if (!/^[0-9a-fA-F?]*$/.test(s)) throw badCharacter(field, text, `${HEX}?`);
  if (s.length % 2 !== 0)
    throw invalidParams(field, `has an odd number of hex digits (${s.length}): every byte needs two (?? for any byte)`);
  const n = s.length / 2;
  const bytes = Buffer.alloc(n);
  const mask = new Uint8Array(n);
  const parts: string[] = [];
  let wildcards = 0;
  for (let i = 0; i < n; i++) {
    const pair = s.slice(2 * i, 2 * i + 2);
    if (pair === '??') {
      wildcards++;
      parts.push('??');
      continue;
    }
    if (pair.includes('?'))
      throw invalidParams(field, `${JSON.stringify(pair)} (byte ${i}) mixes a hex digit with ?: a wildcard is a whole byte, ??`, {
        position: 2 * i,
      });
    bytes[i] = parseInt(pair, 16);
    mask[i] = 1;
    parts.push(pair.toLowerCase());
  }
  return { bytes, mask, text: parts.join(' '), wildcards };
}

/** The longest run of literal bytes: what a fast search looks for before checking the rest. */
export function anchorOf(pattern: Pattern): { at: number; length: number } {
  let best = { at: 0, length: 0 };
  let start = -1;
  for (let i = 0; i <= pattern.mask.length; i++) {
    const literal = i < pattern.mask.length && pattern.mask[i] === 1;
    if (literal && start < 0) start = i;
    if (!literal && start >= 0) {
      if (i - start > best.length) best = { at: start, length: i - start };
      start = -1;
    }
  }
  return best;
}

/** True when `buf` matches the pattern at `at` (the caller guarantees the bytes are there). */
export function matchesAt(buf: Uint8Array, at: number, pattern: Pattern): boolean {
  const { bytes, mask } = pattern;
  for (let i = 0; i < mask.length; i++) if (mask[i] === 1 && buf[at + i] !== bytes[i]) return false;
  return true;
}
