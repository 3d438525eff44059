#!/usr/bin/env node
// pob-stop (issue 36, item 9): one client's pob_lua_get_stats latency (median, p95) on
// `mcphost serve --transport http` with the fake PoB, alone and while another client calls
// pob_lua_stop every second. The fake PoB stands for PoB with a 2 s start-up (FAKE_POB_START_MS).
// `MCPHOST_BIN=/path/to/other/bin/run.js` measures another build (the figures before a change);
// BENCH_SECONDS (10) sets how long each part runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.MCPHOST_BIN ?? path.resolve(here, '../bin/run.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const work = mkdtempSync(path.join(tmpdir(), 'mcphost-pob-stop-'));
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('POB_'))),
  HOME: work,
  XDG_CACHE_HOME: path.join(work, 'cache'),
  POB_LUA_ENABLED: '1',
  POB_PATH: path.resolve(here, '../test/fixtures/pob/fake-pob'),
  POB_WORKERS: '2',
  // The real PoB spends 1.9-2.7 s on tree and item data at start-up: what a stop costs the others.
  FAKE_POB_START_MS: process.env.FAKE_POB_START_MS ?? '2000',
};
const BUILD = `<?xml version="1.0" encoding="UTF-8"?>
<PathOfBuilding><Build level="90" className="Witch" ascendClassName="Occultist" mainSocketGroup="1" targetVersion="3_0"></Build>
<Tree activeSpec="1"><Spec treeVersion="3_26" classId="3" ascendClassId="1" nodes="1,2,3" masteryEffects=""/></Tree></PathOfBuilding>`;

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const r1 = (x) => Math.round(x * 10) / 10;

function start() {
  const child = spawn(process.execPath, [BIN, 'serve', '--plugins', 'pob', '--transport', 'http', '--port', '0'], {
    cwd: work,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /serving .* on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

async function client(url) {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

async function statsFor(c, ms) {
  const times = [];
  let errors = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t = performance.now();
    const r = await c.callTool({ name: 'pob_lua_get_stats', arguments: { fields: ['Life'] } });
    if (r.isError) errors++;
    times.push(performance.now() - t);
  }
  return { calls: times.length, errors, p50: r1(pct(times, 50)), p95: r1(pct(times, 95)) };
}

const server = await start();
try {
  const [victim, stopper] = [await client(server.url), await client(server.url)];
  await victim.callTool({ name: 'pob_lua_load_build', arguments: { build_xml: BUILD } });
  await statsFor(victim, 1000);
  const alone = await statsFor(victim, SECONDS * 1000);
  let stopping = true;
  let stops = 0;
  const loop = (async () => {
    while (stopping) {
      await stopper.callTool({ name: 'pob_lua_stop', arguments: {} });
      stops++;
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  const during = await statsFor(victim, SECONDS * 1000);
  stopping = false;
  await loop;
  console.log(`another client's pob_lua_get_stats alone: ${alone.calls} calls, median ${alone.p50} ms, p95 ${alone.p95} ms`);
  console.log(
    `while one client calls pob_lua_stop every second (${stops} stops): ${during.calls} calls, median ${during.p50} ms, p95 ${during.p95} ms, ${during.errors} errors`,
  );
  await Promise.allSettled([victim.close(), stopper.close()]);
} finally {
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  rmSync(work, { recursive: true, force: true });
}
