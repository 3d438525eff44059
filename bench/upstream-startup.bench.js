#!/usr/bin/env node
// Hostile upstreams against start-up (issue 14, item 3): a stdio server that never answers and an
// HTTP server that accepts the connection and never answers, both mounted with the default
// connectTimeoutMs (30 s). Figures: how long the real `mcphost serve --http 0` takes to bind its port,
// answer `initialize` and answer `tools/list`; then how exactly a one-shot call honours
// connectTimeoutMs (in-process, so no CLI start-up is counted; the child's teardown is), for a few
// settings. The reference row mounts a server that answers at once: the same start-up, nothing hostile.
// Before the fix (issue 14): initialize 31 s (stdio), 121.6 s (HTTP), 17.2 s with connectTimeoutMs 4000.
// Run after `npm run build`: node bench/upstream-startup.bench.js
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { runOneShot } from '../dist/src/app/one-shot.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(repo, 'bin/run.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ms = (n) => Math.round(n);
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

const sockets = new Set();
const tarpit = createServer((s) => {
  sockets.add(s);
  s.on('data', () => undefined);
});
await new Promise((resolve) => tarpit.listen(0, '127.0.0.1', resolve));
const pitUrl = `http://127.0.0.1:${tarpit.address().port}/mcp`;
const mute = { command: process.execPath, args: ['-e', 'process.stdin.resume(); setInterval(() => {}, 1e9)'] };

const env = (dir) => ({ ...process.env, HOME: dir, XDG_CACHE_HOME: path.join(dir, '.cache'), XDG_CONFIG_HOME: path.join(dir, '.config') });
/** A project folder whose .mcprc.json starts `servers`, approved as its user would (`mcphost trust`). */
function project(servers) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcphost-bench-'));
  writeFileSync(path.join(dir, '.mcprc.json'), JSON.stringify({ servers, log: { level: 'error' } }));
  execFileSync(process.execPath, [bin, 'trust'], { cwd: dir, env: env(dir), stdio: 'ignore' });
  return dir;
}

/** `mcphost serve --http 0`: ms to the bound port, to initialize, to the first tools/list. */
async function serveTimes(servers) {
  const dir = project(servers);
  const start = performance.now();
  const child = execa(process.execPath, [bin, 'serve', '--http', '0', '--log-level', 'info'], { cwd: dir, env: env(dir), reject: false });
  let err = '';
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      const m = /serving .* on (http:\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    void child.then(() => reject(new Error(`serve exited: ${err}`)));
  });
  const bound = performance.now() - start;
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const initialized = performance.now() - start;
  await client.listTools();
  const listed = performance.now() - start;
  await client.close();
  child.kill('SIGTERM');
  await child;
  rmSync(dir, { recursive: true, force: true });
  return { bound, initialized, listed };
}

/** A one-shot call to a server that never answers: ms until it fails, and the message. */
async function oneShot(server, connectTimeoutMs) {
  const dir = project({ up: { ...server, connectTimeoutMs } });
  const start = performance.now();
  const message = await runOneShot({ cwd: dir, env: env(dir), plugin: 'up', tool: 'anything', writeLog: () => undefined }).then(
    () => 'answered?',
    (e) => e.message,
  );
  const elapsed = performance.now() - start;
  rmSync(dir, { recursive: true, force: true });
  return { elapsed, message };
}

const results = {};
const fixture = { command: process.execPath, args: [path.join(repo, 'test/upstream/fixtures/server.mjs')] };
for (const [label, servers] of [
  ['stdio that answers (reference)', { up: fixture }],
  ['stdio never answers', { up: mute }],
  ['HTTP never answers', { up: { url: pitUrl } }],
]) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await serveTimes(servers));
  const f = (k) => ms(median(runs.map((r) => r[k])));
  console.log(
    `serve with a ${label} (connectTimeoutMs 30000): bound ${f('bound')} ms, initialize ${f('initialized')} ms, tools/list ${f('listed')} ms (median of ${RUNS})`,
  );
  results[label] = { boundMs: f('bound'), initializeMs: f('initialized'), toolsListMs: f('listed') };
}

for (const [label, server] of [
  ['stdio', mute],
  ['HTTP', { url: pitUrl }],
]) {
  for (const timeout of [1000, 4000]) {
    const { elapsed, message } = await oneShot(server, timeout);
    console.log(
      `one-shot call, ${label} never answers, connectTimeoutMs ${timeout}: failed after ${ms(elapsed)} ms (+${ms(elapsed - timeout)}): ${message}`,
    );
    results[`oneShot ${label} ${timeout}`] = { elapsedMs: ms(elapsed), overMs: ms(elapsed - timeout) };
  }
}

for (const s of sockets) s.destroy();
tarpit.close();
console.log(JSON.stringify({ bench: 'upstream-startup', ...results }));
