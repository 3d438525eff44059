#!/usr/bin/env node
// imhex_file_map benchmark: 256 blocks over 1 GiB files in the page cache, on worker threads (the
// default: the cores, at most 4) and on the main thread, best of IMHEX_MAP_ROUNDS, with the main
// thread's worst event-loop delay during the worker run (what another client's call would wait);
// rounds alternate between the two, so a drift of the machine's load hits both alike.
// Inputs: random bytes (crypto), zeros (the worst case of the histogram: every byte the same
// counter), a firmware-like mix (zero fill, 0xFF padding, text, random and code-like blocks), and
// a real executable (Debian's chromium binary, 280 MiB, where installed). Each map is checked
// against the kinds the input must give.
//
//   npm run build && node bench/imhex-map.bench.js      (or: npm run bench -- imhex-map)
//   IMHEX_BENCH_DIR=/big/tmp  IMHEX_MAP_ROUNDS=5
import { randomFillSync } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statfsSync, statSync, writeSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { FileProvider } from '../dist/plugins/imhex/local/file-provider.js';

const SIZE = 1024 ** 3;
const ROUNDS = Number(process.env.IMHEX_MAP_ROUNDS ?? 3);
const THREADS = Math.min(availableParallelism(), 4);
const log = (line = '') => process.stdout.write(`${line}\n`);

const base = process.env.IMHEX_BENCH_DIR ?? tmpdir();
const fsInfo = statfsSync(base);
if (fsInfo.bavail * fsInfo.bsize < 1.5 * SIZE) {
  log(`imhex-map bench: skipped — ${base} has less than 1.5 GiB free (set IMHEX_BENCH_DIR)`);
  log(JSON.stringify({ bench: 'imhex-map', skipped: 'not enough free disk' }));
  process.exit(0);
}
const dir = mkdtempSync(path.join(base, 'imhex-map-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));

function write(name, fill) {
  const file = path.join(dir, name);
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(16 * 1024 * 1024);
  for (let at = 0, i = 0; at < SIZE; at += block.length, i++) writeSync(fd, fill(block, i), 0, block.length, at);
  closeSync(fd);
  return file;
}

const TEXT = Buffer.from('The quick brown fox jumps over the lazy dog. 0123456789\n');
/** 16 MiB blocks in turn: zeros, 0xFF, text, random, code-like (low bytes, some 0x48 REX prefixes). */
function firmware(block, i) {
  const k = i % 5;
  if (k === 0) return block.fill(0);
  if (k === 1) return block.fill(0xff);
  if (k === 2) {
    for (let j = 0; j < block.length; j += TEXT.length) TEXT.copy(block, j);
    return block;
  }
  randomFillSync(block);
  if (k === 4) for (let j = 0; j < block.length; j++) block[j] = j % 3 === 0 ? block[j] & 0x0f : j % 7 === 0 ? 0x48 : block[j] & 0x7f;
  return block;
}

function warm(file) {
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(16 * 1024 * 1024);
  for (let at = 0; readSync(fd, buf, 0, buf.length, at) > 0; at += buf.length);
  closeSync(fd);
}

/** One map, timed, with the main thread's worst event-loop delay while it ran. */
async function once(provider) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const t0 = performance.now();
  const map = await provider.fileMap({ start_offset: 0, blocks: 256 }, { signal: new AbortController().signal });
  const ms = performance.now() - t0;
  delay.disable();
  return { ms, map, delay: delay.max / 1e6 };
}

/** Rounds alternate between the providers (the machine's load drifts); the best of each is kept. */
async function best(providers) {
  const out = providers.map(() => ({ ms: Infinity, map: undefined, worstDelay: 0 }));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, provider] of providers.entries()) {
      const { ms, map, delay } = await once(provider);
      out[i] = { ms: Math.min(out[i].ms, ms), map, worstDelay: Math.max(out[i].worstDelay, delay) };
    }
  }
  return out;
}

const inputs = [
  { name: 'random bytes, 1 GiB', make: () => write('random.bin', (b) => randomFillSync(b)), kinds: { random: 256 } },
  { name: 'zeros, 1 GiB (histogram worst case)', make: () => write('zeros.bin', (b) => b.fill(0)), kinds: { zeros: 256 } },
  {
    name: 'firmware-like mix, 1 GiB',
    make: () => write('mix.bin', firmware),
    kinds: { zeros: 52, ff: 52, text: 52, random: 52, binary: 48 },
  },
];
const chromium = '/usr/lib/chromium/chromium';
if (existsSync(chromium))
  inputs.push({ name: `chromium executable, ${(statSync(chromium).size / 1024 ** 2).toFixed(0)} MiB`, file: chromium });

log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (noisy when above ~0.5 per core)`,
);
log(`imhex_file_map, 256 blocks, best of ${ROUNDS}; workers: ${THREADS}`);
log(
  `${'input'.padEnd(40)} ${'workers'.padStart(9)} ${'GiB/s'.padStart(6)} ${'main thread'.padStart(12)} ${'loop delay'.padStart(11)}  kinds`,
);
const figures = [];
for (const input of inputs) {
  const file = input.file ?? input.make();
  warm(file);
  const size = statSync(file).size;
  const pooled = new FileProvider({ file, writable: false, allowGrow: false, chunkBytes: 1 << 20, searchThreads: THREADS });
  const single = new FileProvider({ file, writable: false, allowGrow: false, chunkBytes: 1 << 20, searchThreads: 0 });
  const [w, m] = await best([pooled, single]);
  await Promise.all([pooled.close(), single.close()]);
  if (JSON.stringify(w.map) !== JSON.stringify(m.map)) throw new Error(`${input.name}: the workers' map differs from the main thread's`);
  const kinds = Object.fromEntries(Object.entries(w.map.summary.kinds).filter(([, n]) => n > 0));
  for (const [kind, n] of Object.entries(input.kinds ?? {})) {
    if (Math.abs((kinds[kind] ?? 0) - n) > 1)
      throw new Error(`${input.name}: expected about ${n} ${kind} blocks, got ${JSON.stringify(kinds)}`);
  }
  const gibs = size / 1024 ** 3 / (w.ms / 1000);
  log(
    `${input.name.padEnd(40)} ${`${w.ms.toFixed(0)} ms`.padStart(9)} ${gibs.toFixed(2).padStart(6)} ${`${m.ms.toFixed(0)} ms`.padStart(12)} ${`${w.worstDelay.toFixed(1)} ms`.padStart(11)}  ${JSON.stringify(kinds)}`,
  );
  figures.push({
    input: input.name,
    bytes: size,
    workersMs: Math.round(w.ms),
    mainThreadMs: Math.round(m.ms),
    loopDelayMs: Math.round(w.worstDelay),
  });
  if (!input.file) rmSync(file);
}
log(JSON.stringify({ bench: 'imhex-map', threads: THREADS, rounds: ROUNDS, load: loadavg()[0], figures }));
