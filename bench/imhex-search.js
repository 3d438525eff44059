// The pieces of the imhex search benchmark (bench/imhex.bench.js): the 1 GiB test file, GNU grep
// as the reference (its output read through a pipe and parsed, so its offsets are checked against
// ours), and each search method mcphost has or had, run on the same file.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { randomFillSync, randomInt } from 'node:crypto';
import { open } from 'node:fs/promises';
import { anchorOf, parsePattern } from '../dist/plugins/imhex/hex.js';
import { FileProvider } from '../dist/plugins/imhex/local/file-provider.js';
import { readFully } from '../dist/plugins/imhex/local/open-file.js';
import { chunkedSearch } from '../dist/plugins/imhex/local/search.js';

export const SIZE = 1024 ** 3;

/**
 * The needles: `pattern` for mcphost, `grep` for GNU grep (-F with a pattern file, or -P/-E for the
 * wildcard), `plant` copies spread over the file (none contains 0x0a: grep works on lines).
 */
export const NEEDLES = [
  { name: 'common first byte', pattern: '00 00 00 01', bytes: '00000001', plant: 1000 },
  { name: 'rare', pattern: 'de ad be ef 13', bytes: 'deadbeef13', plant: 1000 },
  { name: '8-byte ASCII word', pattern: '4d 43 50 48 4f 53 54 21', bytes: Buffer.from('MCPHOST!').toString('hex'), plant: 1000 },
  { name: '2-byte', pattern: '4d 5a', bytes: '4d5a', plant: 0 },
  { name: 'wildcard', pattern: 'de ad ?? ef 13', bytes: 'dead00ef13', wildcardAt: 2, plant: 1000, pcre: '\\xde\\xad.\\xef\\x13' },
];

/** Random bytes with each needle planted `plant` times, one per slot so copies never overlap. */
export function makeFile(file) {
  const fd = openSync(file, 'w');
  const block = Buffer.allocUnsafe(16 * 1024 * 1024);
  for (let at = 0; at < SIZE; at += block.length) writeSync(fd, randomFillSync(block), 0, block.length, at);
  const copies = NEEDLES.flatMap((n) => Array.from({ length: n.plant }, () => n));
  const slot = Math.floor(SIZE / copies.length);
  copies.forEach((n, i) => {
    const bytes = Buffer.from(n.bytes, 'hex');
    if (n.wildcardAt !== undefined) {
      let middle;
      do middle = randomInt(256);
      while (middle === 0x0a);
      bytes[n.wildcardAt] = middle;
    }
    writeSync(fd, bytes, 0, bytes.length, i * slot + randomInt(slot - 64));
  });
  closeSync(fd);
}

/** Reads the whole file once so every method runs on the page cache. */
export function warm(file) {
  const fd = openSync(file, 'r');
  const b = Buffer.allocUnsafe(8 * 1024 * 1024);
  for (let at = 0; at < SIZE; at += b.length) readSync(fd, b, 0, b.length, at);
  closeSync(fd);
}

/** The bytes grep -F (or, with `.` for the wildcard, grep -E) reads from its pattern file. */
export function grepPatternBytes(needle) {
  const b = Buffer.from(needle.bytes, 'hex');
  return needle.wildcardAt === undefined
    ? b
    : Buffer.concat([b.subarray(0, needle.wildcardAt), Buffer.from('.'), b.subarray(needle.wildcardAt + 1)]);
}

/**
 * GNU grep -obUa (LC_ALL=C), its stdout a pipe read here; resolves with the match offsets and the
 * time to its exit. `mode` F and E read `patternFile` (grepPatternBytes); P takes the PCRE text.
 */
export function grep(file, needle, mode, patternFile) {
  const len = Buffer.from(needle.bytes, 'hex').length;
  const args = mode === 'P' ? ['-obUaP', `(?s)${needle.pcre}`, file] : [`-obUa${mode}`, '-f', patternFile, file];
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn('grep', args, { env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0 && code !== 1) return reject(new Error(`grep ${args.join(' ')} exited ${code}`));
      resolve({ ms, offsets: parseGrep(Buffer.concat(chunks), len) });
    });
  });
}

/** `offset:<match bytes>\n` lines; a match may hold any byte but a newline, and is `len` long. */
function parseGrep(out, len) {
  const offsets = [];
  let i = 0;
  while (i < out.length) {
    let n = 0;
    while (out[i] !== 0x3a) n = n * 10 + (out[i++] - 0x30);
    offsets.push(n);
    i += 1 + len + 1;
  }
  return offsets;
}

const call = { signal: new AbortController().signal };
const MAX = 100_000;

/** The search mcphost had before: indexOf of the whole longest literal run, 4 MiB async reads, main thread. */
export async function beforeMethod(file, needle) {
  const pattern = parsePattern('pattern', needle.pattern);
  const anchor = anchorOf(pattern);
  const plan = {
    bytes: Uint8Array.from(pattern.bytes),
    mask: Uint8Array.from(pattern.mask),
    windowAt: anchor.at,
    windowLength: anchor.length,
    windowIsPattern: pattern.wildcards === 0,
  };
  const fh = await open(file, 'r');
  try {
    return await timed(() =>
      chunkedSearch((b, len, pos) => readFully(fh, b, len, pos), pattern, {
        start: 0,
        end: SIZE,
        size: SIZE,
        maxResults: MAX,
        chunkBytes: 4 * 1024 * 1024,
        plan,
      }),
    );
  } finally {
    await fh.close();
  }
}

/** FileProvider.search with `threads` workers (0: the main thread) and `chunkBytes` reads. */
export function providerMethod(file, threads, chunkBytes) {
  const p = new FileProvider({ file, writable: false, allowGrow: false, chunkBytes, searchThreads: threads });
  return {
    run: (needle) => timed(() => p.search({ pattern: parsePattern('pattern', needle.pattern), start_offset: 0, maxResults: MAX }, call)),
    close: () => p.close(),
  };
}

export async function timed(fn) {
  const t0 = process.hrtime.bigint();
  const r = await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, offsets: r.offsets };
}
