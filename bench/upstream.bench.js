#!/usr/bin/env node
// What mounting an MCP server costs: connecting to a stdio server (spawn + initialize), the latency
// a tool call gains by going through `mcphost serve` instead of straight to the server, and how long
// stopping a child takes (a cooperative one, and one that ignores stdin and SIGTERM).
// Run after `npm run build`: node bench/upstream.bench.js
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { UpstreamClient } from '../dist/src/kit/mcp/client.js';
import { silentLogger } from '../dist/src/lib/logger.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = path.join(repo, 'test/upstream/fixtures/server.mjs');
const bin = path.join(repo, 'bin/run.js');
const CALLS = Number(process.env.BENCH_CALLS ?? 300);

const pct = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const ms = (n) => Math.round(n * 100) / 100;
const now = () => performance.now();

async function timeCalls(client, name) {
  for (let i = 0; i < 20; i++) await client.callTool({ name, arguments: { text: 'warm' } });
  const times = [];
  const start = now();
  for (let i = 0; i < CALLS; i++) {
    const t = now();
    await client.callTool({ name, arguments: { text: `n${i}` } });
    times.push(now() - t);
  }
  const total = now() - start;
  return { p50: ms(pct(times, 50)), p95: ms(pct(times, 95)), perSecond: Math.round((CALLS / total) * 1000) };
}

async function connectTimes(runs = 5, env = {}) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const up = new UpstreamClient({
      name: 'bench',
      target: { kind: 'stdio', command: process.execPath, args: [fixture], env },
      logger: silentLogger,
    });
    const t = now();
    await up.connect();
    times.push(now() - t);
    await up.close();
  }
  return times;
}

async function stopTime(env) {
  const up = new UpstreamClient({
    name: 'bench',
    target: { kind: 'stdio', command: process.execPath, args: [fixture], env },
    logger: silentLogger,
  });
  await up.connect();
  const t = now();
  await up.close();
  return ms(now() - t);
}

const connect = await connectTimes();
console.log(`connect (spawn + initialize), ${connect.length} runs: median ${ms(pct(connect, 50))} ms, max ${ms(Math.max(...connect))} ms`);

const direct = new Client({ name: 'bench', version: '1' });
await direct.connect(new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: 'ignore' }));
const straight = await timeCalls(direct, 'echo');
await direct.close();
console.log(
  `echo straight to the server:   p50 ${straight.p50} ms, p95 ${straight.p95} ms, ${straight.perSecond} calls/s (${CALLS} calls)`,
);

const dir = mkdtempSync(path.join(tmpdir(), 'mcphost-bench-'));
writeFileSync(
  path.join(dir, '.mcprc.json'),
  JSON.stringify({ servers: { fx: { command: process.execPath, args: [fixture] } }, log: { level: 'error' } }),
);
// Its servers start once approved, as its user would (`mcphost trust`).
const projectEnv = { ...process.env, HOME: dir, XDG_CONFIG_HOME: path.join(dir, '.config') };
execFileSync(process.execPath, [bin, 'trust'], { cwd: dir, env: projectEnv, stdio: 'ignore' });
const proxied = new Client({ name: 'bench', version: '1' });
await proxied.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'serve'],
    cwd: dir,
    env: projectEnv,
    stderr: 'ignore',
  }),
);
// The server connects in the background: its tools are there once it answers (tools/list_changed).
while (!(await proxied.listTools()).tools.some((t) => t.name === 'fx_echo'))
  await new Promise((resolve) => proxied.setNotificationHandler('notifications/tools/list_changed', resolve));
const through = await timeCalls(proxied, 'fx_echo');
await proxied.close();
rmSync(dir, { recursive: true, force: true });
console.log(`echo through mcphost serve:     p50 ${through.p50} ms, p95 ${through.p95} ms, ${through.perSecond} calls/s (${CALLS} calls)`);

const stopCooperative = await stopTime({});
const stopStubborn = await stopTime({ FIXTURE_STUBBORN: '1' });
console.log(`stop a child: ${stopCooperative} ms (exits when its stdin closes), ${stopStubborn} ms (ignores stdin and SIGTERM: SIGKILL)`);

console.log(
  JSON.stringify({
    bench: 'upstream',
    connectMedianMs: ms(pct(connect, 50)),
    straightP50Ms: straight.p50,
    straightP95Ms: straight.p95,
    proxiedP50Ms: through.p50,
    proxiedP95Ms: through.p95,
    addedP50Ms: ms(through.p50 - straight.p50),
    proxiedCallsPerSecond: through.perSecond,
    stopMs: stopCooperative,
    stopStubbornMs: stopStubborn,
  }),
);
