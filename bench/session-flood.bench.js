#!/usr/bin/env node
// session-flood (issue 36, item 7): what one client's flood of 2025-era sessions costs another's,
// on `mcphost serve --transport http` with default settings (http.maxSessions 1000). The victim
// connects from 127.0.0.2, the flooder from 127.0.0.1 (two callers by address, no token):
//  1. the victim holds an idle session; the flooder sends BENCH_IDLE (1000) initialize calls and
//     leaves: does the victim's session still answer?
//  2. the victim holds a session with its GET stream open (busy); the flooder opens BENCH_BUSY
//     (1100) sessions, each with its GET stream open: how many it got, how many were refused (and
//     how), and does the victim's busy session survive?
// `MCPHOST_BIN=/path/to/other/bin/run.js` measures another build (the figures before a change).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.MCPHOST_BIN ?? path.resolve(here, '../bin/run.js');
const IDLE = Number(process.env.BENCH_IDLE ?? 1000);
const BUSY = Number(process.env.BENCH_BUSY ?? 1100);
const work = mkdtempSync(path.join(tmpdir(), 'mcphost-session-flood-'));
const env = { ...process.env, HOME: work, XDG_CACHE_HOME: path.join(work, 'cache') };
const VICTIM = '127.0.0.2';
const FLOODER = '127.0.0.1';

function start() {
  const child = spawn(process.execPath, [BIN, 'serve', '--plugins', 'pob', '--transport', 'http', '--port', '0', '--log-level', 'info'], {
    cwd: work,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /serving .* on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: new URL(m[1]), child });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** One HTTP request from `from`; resolves with the status and headers once the body ended (or, with `keep`, at once). */
function send(url, from, { method = 'POST', headers = {}, body, keep = false } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...base, ...headers }, localAddress: from, agent: false }, (res) => {
      if (keep) return resolve({ status: res.statusCode, headers: res.headers, res, req });
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const initialize = (url, from) =>
  send(url, from, {
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
    }),
  });
const ping = (url, from, sid) =>
  send(url, from, {
    headers: { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
/** A session whose GET stream stays open (as an SDK client keeps it). */
async function busySession(url, from) {
  const init = await initialize(url, from);
  const sid = init.headers['mcp-session-id'];
  if (init.status !== 200) return { status: init.status, retryAfter: init.headers['retry-after'] };
  const stream = await send(url, from, {
    method: 'GET',
    headers: { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
    keep: true,
  });
  return { status: stream.status, sid, stream };
}

async function pool(count, concurrency, one) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await one(next++);
    }),
  );
}

const server = await start();
const streams = [];
try {
  // 1. An idle session against a flood of initialize calls.
  const idle = (await initialize(server.url, VICTIM)).headers['mcp-session-id'];
  const t0 = performance.now();
  await pool(IDLE, 20, () => initialize(server.url, FLOODER));
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(
    `idle victim session after ${IDLE} initialize calls from another client (${seconds} s): ping answered ${(await ping(server.url, VICTIM, idle)).status}`,
  );

  // 2. A busy session against sessions that all keep their GET streams open.
  const victim = await busySession(server.url, VICTIM);
  streams.push(victim.stream);
  const outcomes = new Map();
  await pool(BUSY, 20, async () => {
    const s = await busySession(server.url, FLOODER);
    if (s.stream) streams.push(s.stream);
    const key = s.status === 200 ? '200' : `${s.status} (Retry-After ${s.retryAfter ?? 'none'})`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  });
  const victimStream = victim.stream.res.destroyed || victim.stream.res.complete ? 'closed' : 'open';
  console.log(
    `busy victim session (GET stream open) after another client opened ${BUSY} sessions with streams: ${[...outcomes].map(([k, n]) => `${n} × ${k}`).join(', ')}; victim's stream ${victimStream}, ping answered ${(await ping(server.url, VICTIM, victim.sid)).status}`,
  );
} finally {
  for (const s of streams) s.req.destroy();
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  rmSync(work, { recursive: true, force: true });
}
