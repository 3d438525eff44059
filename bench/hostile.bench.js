#!/usr/bin/env node
// Issue 14's hostile inputs against `mcphost serve --transport http`, one fresh server each, with
// time and server memory (VmRSS now, VmHWM peak): abandoned sessions, a /health flood beside an
// authenticated client's calls, 300,000 unknown argument keys, a 100-million-character result, a
// 2^31 ms client timeout. `MCPHOST_BIN=/path/to/other/bin/run.js` measures another build (the
// figures before a change); BENCH_SESSIONS (5000) and BENCH_HEALTH (500) set the counts, BENCH_ONLY
// (keys,result,timeout,health,sessions) picks scenarios.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.MCPHOST_BIN ?? path.resolve(here, '../bin/run.js');
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 5000);
const HEALTH = Number(process.env.BENCH_HEALTH ?? 500);
const TOKEN = 'bench-token';

const work = mkdtempSync(path.join(tmpdir(), 'mcphost-hostile-'));
const config = path.join(work, '.mcprc.yaml');
writeFileSync(config, `plugins:\n  hostile:\n    module: ${path.join(here, 'fixtures/hostile/index.js')}\nlog:\n  level: warn\n`);
const env = { ...process.env, HOME: work, XDG_CACHE_HOME: path.join(work, 'cache'), MCPHOST_TOKEN: TOKEN };
const auth = { authorization: `Bearer ${TOKEN}` };

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const round = (x) => Math.round(x * 10) / 10;

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rss_mb: round(kb('VmRSS') / 1024), peak_mb: round(kb('VmHWM') / 1024) };
}

function start() {
  const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--transport', 'http', '--port', '0', '--log-level', 'info'], {
    cwd: work,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /serving .* on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: m[1], child, pid: child.pid });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

async function stop(server) {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

async function client(url) {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: auth } }));
  return c;
}

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth };
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '0' } },
});

async function pool(count, concurrency, one) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await one(next++);
    }),
  );
}

/** Clients that initialize and vanish, as in the issue (no GET stream, no DELETE). */
async function abandonedSessions() {
  const server = await start();
  const before = memory(server.pid);
  const t0 = performance.now();
  await pool(SESSIONS, 20, async () => {
    const res = await fetch(server.url, { method: 'POST', headers, body: initialize });
    await res.text();
  });
  const after = memory(server.pid);
  const row = {
    sessions: SESSIONS,
    seconds: round((performance.now() - t0) / 1000),
    rss_before_mb: before.rss_mb,
    rss_after_mb: after.rss_mb,
  };
  console.log(`${SESSIONS} abandoned sessions: RSS ${before.rss_mb} → ${after.rss_mb} MB (${row.seconds} s)`);
  await stop(server);
  return row;
}

/** An authenticated client's call latency, quiet and while others send /health requests. */
async function healthFlood() {
  const server = await start();
  const c = await client(server.url);
  const calls = async (n) => {
    const times = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await c.callTool({ name: 'hostile_echo', arguments: { message: 'hi' } });
      times.push(performance.now() - t);
    }
    return times;
  };
  await calls(50);
  const quiet = await calls(200);
  const flood = [];
  let done = false;
  const t0 = performance.now();
  const flooding = pool(HEALTH, 50, async () => {
    const res = await fetch(server.url.replace('/mcp', '/health'), { headers: auth });
    await res.text();
  }).then(() => (done = true));
  while (!done) flood.push(...(await calls(1)));
  await flooding;
  const seconds = (performance.now() - t0) / 1000;
  const row = {
    health_requests: HEALTH,
    health_seconds: round(seconds),
    call_p95_quiet_ms: round(pct(quiet, 95)),
    call_p95_during_flood_ms: round(pct(flood, 95)),
    calls_during_flood: flood.length,
  };
  console.log(
    `${HEALTH} /health requests in ${row.health_seconds} s; another client's p95: ${row.call_p95_quiet_ms} ms quiet, ${row.call_p95_during_flood_ms} ms during (${flood.length} calls)`,
  );
  await c.close();
  await stop(server);
  return row;
}

/** One hostile call on a fresh server: time to the answer, answer size, server memory. */
async function hostileCall(label, request) {
  const server = await start();
  const c = await client(server.url);
  const before = memory(server.pid);
  const t0 = performance.now();
  let answer;
  try {
    answer = await c.callTool(request, { timeout: 120_000 });
  } catch (error) {
    answer = { error: error.message };
  }
  const ms = Math.round(performance.now() - t0);
  const after = memory(server.pid);
  const text = JSON.stringify(answer);
  const row = { ms, answer_bytes: text.length, peak_mb_before: before.peak_mb, peak_mb_after: after.peak_mb, says: text.slice(0, 160) };
  console.log(`${label}: ${ms} ms, answer ${text.length} bytes, server peak ${before.peak_mb} → ${after.peak_mb} MB: ${row.says}`);
  await c.close();
  await stop(server);
  return row;
}

const ONLY = process.env.BENCH_ONLY?.split(',');
const wanted = (name) => !ONLY || ONLY.includes(name);
const summary = { bin: BIN };
try {
  if (wanted('keys')) {
    const keys = { message: 'hi' };
    for (let i = 0; i < 300_000; i++) keys[`k${i}`] = 1;
    summary.unknown_keys_300k = await hostileCall('300,000 unknown argument keys', { name: 'hostile_echo', arguments: keys });
  }
  if (wanted('result')) {
    summary.result_100m_chars = await hostileCall('100,000,000-character result', {
      name: 'hostile_text',
      arguments: { chars: 100_000_000 },
    });
  }
  if (wanted('timeout')) {
    summary.timeout_2_31 = await hostileCall('_meta mcphost/timeoutMs 2^31 on a 50 ms call', {
      name: 'hostile_wait',
      arguments: { ms: 50 },
      _meta: { 'mcphost/timeoutMs': 2 ** 31 },
    });
  }
  if (wanted('health')) summary.health = await healthFlood();
  if (wanted('sessions')) summary.sessions = await abandonedSessions();
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(JSON.stringify({ bench: 'hostile', ...summary }));
