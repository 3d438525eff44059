// `mcphost serve --plugins godot` over stdio, measured from an SDK client (for godot.bench.js):
// spawn → first answer, per-call latency of the dev questions, and the server's peak RSS (VmHWM from
// /proc, so no sampling is missed) after a cold build or a warm start. And the reference tool in
// the same run: grep over the same XML, writing to a pipe.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { repo } from './godot-eval.js';

const mb = (kb) => Math.round(kb / 1024);

/** Peak and current resident memory of a process, in MB (Linux). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { peakMB: mb(Number(/VmHWM:\s+(\d+)/.exec(status)[1])), nowMB: mb(Number(/VmRSS:\s+(\d+)/.exec(status)[1])) };
}

export function percentiles(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p) => +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2);
  return { p50: at(50), p95: at(95), max: +sorted[sorted.length - 1].toFixed(2), n: sorted.length };
}

/** Spawns the server, calls godot_search once; returns the times, the client and the pid. */
async function start(env, cwd, query, nodeDefaults) {
  const t0 = performance.now();
  // bin/run.js itself, as a client spawns it, so the node flags of its shebang apply; `node bin/run.js`
  // (nodeDefaults) runs the same host with Node's own defaults, for comparison.
  const bin = path.join(repo, 'bin/run.js');
  const serve = ['serve', '--plugins', 'godot'];
  const transport = new StdioClientTransport({
    command: nodeDefaults ? process.execPath : bin,
    args: nodeDefaults ? [bin, ...serve] : serve,
    cwd,
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'godot-bench', version: '1.0.0' });
  await client.connect(transport);
  const connectedMs = performance.now() - t0;
  // A cold build on a busy shared machine can take more than the SDK's 60 s default (the figure is the time, not a failure).
  const first = await client.callTool({ name: 'godot_search', arguments: { query, limit: 10 } }, { timeout: 600_000 });
  if (first.isError) throw new Error(`godot_search failed: ${JSON.stringify(first.content)}`);
  return { client, pid: transport.pid, connectedMs: Math.round(connectedMs), firstAnswerMs: Math.round(performance.now() - t0) };
}

/** A server whose cache is empty: the first call parses and indexes the reference. */
export async function coldServe(env, cwd, nodeDefaults = false) {
  const s = await start(env, cwd, 'move a character with collisions', nodeDefaults);
  const memory = memoryOf(s.pid);
  await s.client.close();
  return { firstAnswerMs: s.firstAnswerMs, connectedMs: s.connectedMs, peakRssMB: memory.peakMB };
}

/** A server that loads the saved index; then every question, `rounds` times, timed at the client. */
export async function warmServe(env, cwd, questions, rounds, nodeDefaults = false) {
  const s = await start(env, cwd, 'timer', nodeDefaults);
  const afterFirst = memoryOf(s.pid);
  const times = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of questions) {
      const t = performance.now();
      await s.client.callTool({ name: 'godot_search', arguments: { query: q, limit: 10 } });
      times.push(performance.now() - t);
    }
  }
  const memory = memoryOf(s.pid);
  await s.client.close();
  return {
    firstAnswerMs: s.firstAnswerMs,
    connectedMs: s.connectedMs,
    rssAfterFirstMB: afterFirst.nowMB,
    peakRssMB: memory.peakMB,
    rssMB: memory.nowMB,
    search: percentiles(times),
  };
}

/** `grep -rliF <the query's longest word> <docDir>`, its output read through a pipe, once per question. */
export async function grepReference(docDir, questions) {
  const times = [];
  for (const q of questions) {
    const word = q.split(/[^A-Za-z0-9_]+/).sort((a, b) => b.length - a.length)[0] || q;
    const t = performance.now();
    await new Promise((resolve, reject) => {
      const child = spawn('grep', ['-rliF', '--', word, docDir], { stdio: ['ignore', 'pipe', 'ignore'] });
      child.stdout.on('data', () => undefined);
      child.on('error', reject);
      child.on('close', resolve);
    });
    times.push(performance.now() - t);
  }
  return percentiles(times);
}
