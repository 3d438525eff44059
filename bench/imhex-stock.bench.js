#!/usr/bin/env node
// imhex in mode imhex-mcp against local-file mode on the same file: imhex_file_map (256 blocks)
// and imhex_search (a rare 5-byte needle planted 100 times), best of IMHEX_STOCK_ROUNDS each. Stock
// ImHex is the replica of its MCP server (test/fixtures/imhex/imhex-replica.js) behind the replica
// of `imhex --mcp`, a real child process on stdio, reached through mcphost's StockProvider.
// Two paces: with ImHex's fixed per-request costs taken out (1 ms of socket quiet, no sleep in
// the bridge), which is what mcphost's own work costs; and at ImHex's own pace (100 ms of socket
// quiet per request, libwolv's SO_RCVTIMEO, and the bridge's 100 ms sleep per answer), which no
// client of ImHex's server can go below. Each row also times the bare reads (the same pieces read
// and decoded, nothing computed): the floor any analysis over read_data has. Pieces stay under
// 3.5 MiB: ImHex sends each piece twice in base64 (text and structuredContent), and mcphost refuses
// a stdio message over 10 MiB.
//
//   npm run build && node bench/imhex-stock.bench.js      IMHEX_STOCK_MIB=64 IMHEX_STOCK_ROUNDS=3
import { randomFillSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePattern } from '../dist/plugins/imhex/hex.js';
import { FileProvider } from '../dist/plugins/imhex/local/file-provider.js';
import { StockImHex } from '../dist/plugins/imhex/mcp/stock-client.js';
import { StockProvider } from '../dist/plugins/imhex/mcp/stock-provider.js';
import { startImHexReplica } from '../test/fixtures/imhex/imhex-replica.js';

const MIB = 1024 * 1024;
const SIZE = Number(process.env.IMHEX_STOCK_MIB ?? 64) * MIB;
const ROUNDS = Number(process.env.IMHEX_STOCK_ROUNDS ?? 3);
const BRIDGE = fileURLToPath(new URL('../test/fixtures/imhex/imhex-mcp-bridge.js', import.meta.url));
const log = (line = '') => process.stdout.write(`${line}\n`);
const silent = { debug() {}, info() {}, warn() {}, error() {} };

const dir = mkdtempSync(path.join(tmpdir(), 'imhex-stock-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const file = path.join(dir, 'firmware.bin');
const data = Buffer.alloc(SIZE);
// Quarters: zeros, 0xFF, text, random; the needle planted 100 times in the random part.
data.fill(0xff, SIZE / 4, SIZE / 2);
const text = Buffer.from('The quick brown fox jumps over the lazy dog. 0123456789\n');
for (let i = SIZE / 2; i < (3 * SIZE) / 4; i += text.length) text.copy(data, i, 0, Math.min(text.length, (3 * SIZE) / 4 - i));
randomFillSync(data, (3 * SIZE) / 4);
const NEEDLE = Buffer.from('deadbeef13', 'hex');
for (let k = 0; k < 100; k++) NEEDLE.copy(data, (3 * SIZE) / 4 + Math.floor((k * SIZE) / 4 / 100));
writeFileSync(file, data);
const pattern = parsePattern('pattern', 'de ad be ef 13');

const call = () => ({ signal: new AbortController().signal });
async function timed(fn) {
  let best = Infinity;
  let out;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    out = await fn();
    best = Math.min(best, performance.now() - t0);
  }
  return { ms: best, out };
}
const mapOf = (p) => p.fileMap({ start_offset: 0, blocks: 256 }, call());
const searchOf = (p) => p.search({ pattern, start_offset: 0, maxResults: 1000 }, call());

const local = new FileProvider({ file, writable: false, allowGrow: false, chunkBytes: MIB, searchThreads: 4, logger: silent });
await local.open();
const localMap = await timed(() => mapOf(local));
const localSearch = await timed(() => searchOf(local));
await local.close();

async function stock(quietMs, paceMs, pieceBytes) {
  const imhex = await startImHexReplica({ files: [file], quietMs });
  const client = new StockImHex({
    command: process.execPath,
    args: [BRIDGE],
    env: { ...process.env, IMHEX_REPLICA_PORT: String(imhex.port), IMHEX_REPLICA_PACE_MS: String(paceMs) },
    logger: silent,
    connectTimeoutMs: 15_000,
    requestTimeoutMs: 60_000,
  });
  const provider = new StockProvider(client, { pieceBytes });
  try {
    // The floor: the same pieces read and decoded, nothing computed.
    const bare = await timed(() =>
      provider.readBytes(0, 0, call()).then(async () => {
        for (let at = 0; at < SIZE; at += pieceBytes) await provider.readBytes(at, Math.min(pieceBytes, SIZE - at), call());
      }),
    );
    const map = await timed(() => mapOf(provider));
    const search = await timed(() => searchOf(provider));
    if (JSON.stringify(map.out.blocks) !== JSON.stringify(localMap.out.blocks)) throw new Error('the maps differ');
    if (JSON.stringify(search.out.offsets) !== JSON.stringify(localSearch.out.offsets)) throw new Error('the searches differ');
    return { bare: bare.ms, map: map.ms, search: search.ms, requests: imhex.state.requests.length };
  } finally {
    await provider.close();
    await imhex.close();
  }
}

log(
  `imhex-mcp against local-file mode, ${SIZE / MIB} MiB file, best of ${ROUNDS}; ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}`,
);
log(
  `local file:                               file_map ${localMap.ms.toFixed(0)} ms, search ${localSearch.ms.toFixed(0)} ms (${localSearch.out.offsets.length} hits)`,
);
const rows = [];
for (const [label, quiet, pace, piece] of [
  ['stock, fixed costs out, 1 MiB pieces', 1, 0, MIB],
  ['stock, fixed costs out, 3 MiB pieces', 1, 0, 3 * MIB],
  ["stock at ImHex's pace, 3 MiB pieces", 100, 100, 3 * MIB],
]) {
  const r = await stock(quiet, pace, piece);
  rows.push({ label, ...r });
  log(
    `${label.padEnd(41)} file_map ${r.map.toFixed(0)} ms (${(r.map / localMap.ms).toFixed(1)}×), search ${r.search.toFixed(0)} ms (${(r.search / localSearch.ms).toFixed(1)}×); bare reads of the file ${r.bare.toFixed(0)} ms (map ${(r.map / r.bare).toFixed(2)}×, search ${(r.search / r.bare).toFixed(2)}× of them)`,
  );
}
log(JSON.stringify({ bench: 'imhex-stock', mib: SIZE / MIB, local: { map: localMap.ms, search: localSearch.ms }, stock: rows }));
