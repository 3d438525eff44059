#!/usr/bin/env node
// imhex benchmark: `search` throughput on a 1 GiB file in the page cache, next to GNU grep counting
// the same byte pattern in the same file, and read_bytes latency (16 bytes at random offsets)
// through a one-shot `mcphost call` and through a served endpoint (HTTP and stdio).
//
//   npm run build && node bench/imhex.bench.js        (IMHEX_BENCH_DIR picks the temp folder)
//
// The 1 GiB file is random bytes with the plain pattern planted 1000 times and the wildcard
// variant (other middle bytes) 1000 more times; it lives in a temp folder deleted at the end.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomFillSync, randomInt } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statfsSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { parsePattern } from '../dist/plugins/imhex/hex.js';
import { FileProvider } from '../dist/plugins/imhex/local/file-provider.js';

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO, 'bin/run.js');
const SIZE = 1024 ** 3;
const PLAIN = Buffer.from('deadbeef13', 'hex'); // no 0x0a: grep splits lines there
const PLANTS = 1000;
const ONE_SHOT_CALLS = Number(process.env.IMHEX_BENCH_CALLS ?? 40);
const SERVED_CALLS = Number(process.env.IMHEX_BENCH_SERVED_CALLS ?? 1000);

const log = (line) => process.stdout.write(`${line}\n`);
const gbps = (bytes, ms) => bytes / ms / 1e6;
const pct = (values, p) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const now = () => process.hrtime.bigint();

const base = process.env.IMHEX_BENCH_DIR ?? tmpdir();
const fs = statfsSync(base);
const free = fs.bavail * fs.bsize;
if (free < 2 * SIZE) {
  log(`imhex bench: skipped — ${base} has ${(free / 1024 ** 3).toFixed(1)} GiB free, needs 2 GiB (set IMHEX_BENCH_DIR)`);
  log(JSON.stringify({ bench: 'imhex', skipped: 'not enough free disk' }));
  process.exit(0);
}
const dir = mkdtempSync(path.join(base, 'imhex-bench-'));
const cleanup = () => rmSync(dir, { recursive: true, force: true });
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

function makeFile(file) {
  const fd = openSync(file, 'w');
  const block = Buffer.allocUnsafe(16 * 1024 * 1024);
  for (let at = 0; at < SIZE; at += block.length) writeSync(fd, randomFillSync(block), 0, block.length, at);
  const planted = { plain: [], wild: [] };
  for (let i = 0; i < 2 * PLANTS; i++) {
    const at = Math.floor(((i + Math.random()) * (SIZE - 64)) / (2 * PLANTS)); // spread out: one per 512 KiB slot
    const copy = Buffer.from(PLAIN);
    if (i % 2 === 1) {
      let middle;
      do middle = randomInt(256);
      while (middle === 0xbe || middle === 0x0a);
      copy[2] = middle;
    }
    writeSync(fd, copy, 0, copy.length, at);
    (i % 2 === 0 ? planted.plain : planted.wild).push(at);
  }
  closeSync(fd);
  return planted;
}

function warm(file) {
  const fd = openSync(file, 'r');
  const b = Buffer.allocUnsafe(8 * 1024 * 1024);
  for (let at = 0; at < SIZE; at += b.length) readSync(fd, b, 0, b.length, at);
  closeSync(fd);
}

async function best(times, fn) {
  let bestMs = Infinity;
  let value;
  for (let i = 0; i < times; i++) {
    const t0 = now();
    value = await fn();
    bestMs = Math.min(bestMs, ms(t0));
  }
  return { ms: bestMs, value };
}

async function grep(args, file) {
  // grep exits 1 when nothing matched; that still is a count.
  const r = await run('grep', [...args, file], {
    env: { ...process.env, LC_ALL: 'C' },
    encoding: 'latin1',
    maxBuffer: 64 * 1024 * 1024,
  }).catch((e) => e);
  return Number(String(r.stdout).trim());
}

async function grepMatches(args, file) {
  const r = await run('sh', ['-c', `grep ${args.join(' ')} "$0" | wc -l`, file], { env: { ...process.env, LC_ALL: 'C' } });
  return Number(r.stdout.trim());
}

function startHttp(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--plugins', 'imhex', '--transport', 'http', '--port', '0'], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /serving .* on (http:\/\/\S+)/.exec(stderr);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

async function servedLatency(client, offsets, check) {
  const times = [];
  for (const offset of offsets) {
    const t0 = now();
    const r = await client.callTool({ name: 'imhex_read_bytes', arguments: { offset, count: 16 } });
    times.push(ms(t0));
    check(offset, r.structuredContent?.hex_data);
  }
  return times;
}

const file = path.join(dir, 'big.bin');
log(`creating ${SIZE / 1024 ** 3} GiB of random data in ${dir} …`);
const planted = makeFile(file);
writeFileSync(path.join(dir, 'plain.pat'), PLAIN);
warm(file);
const hasGrep = (() => {
  try {
    execFileSync('grep', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

// --- search throughput -----------------------------------------------------------------------
const provider = new FileProvider({ file, writable: false, allowGrow: false, chunkBytes: 4 * 1024 * 1024 });
const call = { signal: new AbortController().signal };
const search = (text) => provider.search({ pattern: parsePattern('pattern', text), start_offset: 0, maxResults: 1_000_000 }, call);
const plain = await best(5, () => search('de ad be ef 13'));
const wild = await best(5, () => search('de ad ?? ef 13'));
await provider.close();
if (!planted.plain.every((at) => plain.value.offsets.includes(at))) throw new Error('plain search missed a planted copy');
if (!planted.wild.every((at) => wild.value.offsets.includes(at))) throw new Error('wildcard search missed a planted copy');

const cli = await best(2, async () => {
  const r = await run(
    process.execPath,
    [BIN, 'call', 'imhex', 'search', '--pattern', 'deadbeef13', '--max-results', '1000000', '--file', file, '--json'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(r.stdout).structuredContent.offsets.length;
});

const figures = {
  sizeBytes: SIZE,
  plain: { ms: plain.ms, gbps: gbps(SIZE, plain.ms), matches: plain.value.offsets.length },
  wildcard: { ms: wild.ms, gbps: gbps(SIZE, wild.ms), matches: wild.value.offsets.length },
  oneShotCall: { ms: cli.ms, gbps: gbps(SIZE, cli.ms), matches: cli.value },
};
log(
  `search plain    "de ad be ef 13": ${plain.ms.toFixed(0)} ms  ${figures.plain.gbps.toFixed(2)} GB/s  ${figures.plain.matches} matches (in-process provider, best of 5)`,
);
log(
  `search wildcard "de ad ?? ef 13": ${wild.ms.toFixed(0)} ms  ${figures.wildcard.gbps.toFixed(2)} GB/s  ${figures.wildcard.matches} matches`,
);
log(`search plain via mcphost call (process start included): ${cli.ms.toFixed(0)} ms  ${figures.oneShotCall.gbps.toFixed(2)} GB/s`);

if (hasGrep) {
  const gF = await best(3, () => grep(['-c', '-a', '-F', '-f', path.join(dir, 'plain.pat')], file));
  const gP = await best(3, () => grep(['-c', '-a', '-P', '\\xde\\xad\\xbe\\xef\\x13'], file));
  const gW = await best(3, () => grep(['-c', '-a', '-P', '(?s)\\xde\\xad.\\xef\\x13'], file));
  const plainMatches = await grepMatches(['-o', '-a', '-F', '-f', path.join(dir, 'plain.pat')], file);
  const wildMatches = await grepMatches(['-o', '-a', '-P', "'(?s)\\xde\\xad.\\xef\\x13'"], file);
  const grepPlain = Math.min(gF.ms, gP.ms);
  figures.grep = {
    plainFixed: { ms: gF.ms, gbps: gbps(SIZE, gF.ms), lines: gF.value },
    plainPcre: { ms: gP.ms, gbps: gbps(SIZE, gP.ms), lines: gP.value },
    wildcardPcre: { ms: gW.ms, gbps: gbps(SIZE, gW.ms), lines: gW.value },
    matches: { plain: plainMatches, wildcard: wildMatches },
  };
  figures.ratio = { plain: grepPlain / plain.ms, wildcard: gW.ms / wild.ms };
  log(
    `grep -c -a -F -f pat (LC_ALL=C):          ${gF.ms.toFixed(0)} ms  ${figures.grep.plainFixed.gbps.toFixed(2)} GB/s  ${gF.value} lines`,
  );
  log(
    `grep -c -a -P '\\xde\\xad\\xbe\\xef\\x13':        ${gP.ms.toFixed(0)} ms  ${figures.grep.plainPcre.gbps.toFixed(2)} GB/s  ${gP.value} lines`,
  );
  log(
    `grep -c -a -P '(?s)\\xde\\xad.\\xef\\x13':      ${gW.ms.toFixed(0)} ms  ${figures.grep.wildcardPcre.gbps.toFixed(2)} GB/s  ${gW.value} lines`,
  );
  log(`grep -o … | wc -l (matches, not lines): plain ${plainMatches}, wildcard ${wildMatches}`);
  log(
    `ratio (grep time / imhex time): plain ${figures.ratio.plain.toFixed(2)}× (vs the faster grep), wildcard ${figures.ratio.wildcard.toFixed(2)}×`,
  );
} else {
  log('grep not found: no comparison');
}

// --- read_bytes latency ----------------------------------------------------------------------
const offsets = (n) => Array.from({ length: n }, () => randomInt(SIZE - 16));
const truth = (() => {
  const fd = openSync(file, 'r');
  return (offset) => {
    const b = Buffer.alloc(16);
    readSync(fd, b, 0, 16, offset);
    return b.toString('hex');
  };
})();
const check = (offset, hex) => {
  if (hex !== truth(offset)) throw new Error(`read_bytes at ${offset} returned ${hex}, expected ${truth(offset)}`);
};

const oneShot = [];
for (const offset of offsets(ONE_SHOT_CALLS)) {
  const t0 = now();
  const r = await run(process.execPath, [
    BIN,
    'call',
    'imhex',
    'read_bytes',
    '--offset',
    String(offset),
    '--count',
    '16',
    '--file',
    file,
    '--json',
  ]);
  oneShot.push(ms(t0));
  check(offset, JSON.parse(r.stdout).structuredContent.hex_data);
}
const env = { ...process.env, IMHEX_FILE: file, HOME: dir };
for (const key of Object.keys(env)) if (key.startsWith('MCPHOST_')) delete env[key];

const http = await startHttp(env);
const httpClient = new Client({ name: 'imhex-bench', version: '1' });
await httpClient.connect(new StreamableHTTPClientTransport(new URL(http.url)));
await servedLatency(httpClient, offsets(20), check); // warm-up
const httpTimes = await servedLatency(httpClient, offsets(SERVED_CALLS), check);
await httpClient.close();
http.child.kill('SIGTERM');

const stdioClient = new Client({ name: 'imhex-bench', version: '1' });
await stdioClient.connect(
  new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--plugins', 'imhex'], env, stderr: 'ignore' }),
);
await servedLatency(stdioClient, offsets(20), check);
const stdioTimes = await servedLatency(stdioClient, offsets(SERVED_CALLS), check);
await stdioClient.close();

const lat = (t) => ({ n: t.length, p50: pct(t, 50), p95: pct(t, 95) });
figures.readBytes = { oneShotCall: lat(oneShot), servedHttp: lat(httpTimes), servedStdio: lat(stdioTimes) };
const fmt = (l) => `p50 ${l.p50.toFixed(2)} ms  p95 ${l.p95.toFixed(2)} ms  (n=${l.n})`;
log(`read_bytes 16 B, mcphost call (one-shot): ${fmt(figures.readBytes.oneShotCall)}`);
log(`read_bytes 16 B, served over HTTP:        ${fmt(figures.readBytes.servedHttp)}`);
log(`read_bytes 16 B, served over stdio:       ${fmt(figures.readBytes.servedStdio)}`);

cleanup();
log(JSON.stringify({ bench: 'imhex', ...figures }));
process.exit(0);
