#!/usr/bin/env node
// What relaying costs: @modelcontextprotocol/server-everything's `echo` called straight over stdio
// and as `everything_echo` through `mcphost serve` (stdio, started with the V8 flags of bin/run.js's
// shebang) mounting the same server. The calls are paired: each round calls both, in alternating
// order, one request in flight at a time, so load on the machine hits both alike; the ratio that
// counts is the median over rounds of relayed/direct (the target: at most 2.0). The
// reference tool for the same figure is ../shared/tools/mcp-rtt.
// The machine's load average is printed with the figures: on a shared machine each pipe hop waits
// for a CPU, and the relayed call makes four where the direct one makes two.
// Run after `npm run build`: node bench/relay.bench.js   (BENCH_CALLS=N, default 500; BENCH_WARMUP=N, default 200)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { NODE_FLAGS } from '../dist/src/app/node-flags.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const everything = path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const bin = path.join(repo, 'bin/run.js');
const CALLS = Number(process.env.BENCH_CALLS ?? 500);
// Rounds before the timed ones: mcphost has more code for V8 to optimise than the server alone.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);

const pct = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const ms = (n) => Math.round(n * 1000) / 1000;

const dir = mkdtempSync(path.join(tmpdir(), 'mcphost-relay-'));
const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: path.join(dir, '.config') };
writeFileSync(
  path.join(dir, '.mcprc.json'),
  JSON.stringify({ servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } }, log: { level: 'error' } }),
);
execFileSync(process.execPath, [bin, 'trust'], { cwd: dir, env, stdio: 'ignore' });

const direct = new Client({ name: 'bench', version: '1' });
await direct.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));
const relayed = new Client({ name: 'bench', version: '1' });
await relayed.connect(
  new StdioClientTransport({ command: process.execPath, args: [...NODE_FLAGS, bin, 'serve'], cwd: dir, env, stderr: 'ignore' }),
);
// The mounted server connects in the background: its tools are listed once it answers.
while (!(await relayed.listTools()).tools.some((t) => t.name === 'everything_echo'))
  await new Promise((resolve) => relayed.setNotificationHandler('notifications/tools/list_changed', resolve));

const targets = [
  { client: direct, name: 'echo', times: [] },
  { client: relayed, name: 'everything_echo', times: [] },
];
async function call(target, i) {
  const started = performance.now();
  const result = await target.client.callTool({ name: target.name, arguments: { message: `m${i}` } });
  if (result.isError || result.content?.[0]?.text !== `Echo: m${i}`) throw new Error(`${target.name} answered ${JSON.stringify(result)}`);
  return performance.now() - started;
}
const loadBefore = loadavg()[0];
const ratios = [];
for (let i = 0; i < WARMUP + CALLS; i++) {
  const order = i % 2 === 0 ? targets : [...targets].reverse();
  const round = [];
  for (const target of order) round.push([target, await call(target, i)]);
  if (i < WARMUP) continue;
  for (const [target, t] of round) target.times.push(t);
  ratios.push(round.find(([t]) => t === targets[1])[1] / round.find(([t]) => t === targets[0])[1]);
}
const loadAfter = loadavg()[0];
await direct.close();
await relayed.close();
rmSync(dir, { recursive: true, force: true });

const [d, r] = targets.map((t) => ({ p50: ms(pct(t.times, 50)), p95: ms(pct(t.times, 95)) }));
const paired = Math.round(pct(ratios, 50) * 100) / 100;
const load = `${loadBefore.toFixed(1)} -> ${loadAfter.toFixed(1)}`;
console.log(`echo straight to server-everything: p50 ${d.p50} ms, p95 ${d.p95} ms (${CALLS} calls; 1-min load average ${load})`);
console.log(`everything_echo via mcphost serve:   p50 ${r.p50} ms, p95 ${r.p95} ms`);
console.log(
  `relayed/direct: p50 ${Math.round((r.p50 / d.p50) * 100) / 100}x, p95 ${Math.round((r.p95 / d.p95) * 100) / 100}x, paired per round (median) ${paired}x (target <= 2.0); adds ${ms(r.p50 - d.p50)} ms at p50`,
);
console.log(
  JSON.stringify({
    bench: 'relay',
    calls: CALLS,
    directP50Ms: d.p50,
    directP95Ms: d.p95,
    relayedP50Ms: r.p50,
    relayedP95Ms: r.p95,
    ratioP50: Math.round((r.p50 / d.p50) * 100) / 100,
    ratioP95: Math.round((r.p95 / d.p95) * 100) / 100,
    pairedRatio: paired,
    loadAverage: [Math.round(loadBefore * 10) / 10, Math.round(loadAfter * 10) / 10],
  }),
);
