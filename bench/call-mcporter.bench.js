#!/usr/bin/env node
// A one-shot call on a mounted stdio server from a shell, side by side: `mcphost call everything echo`
// against `mcporter call everything.echo` (npm `mcporter`, installed into .cache/bench for this run;
// it needs Node >= 24, so a Node 24 binary from the npm package node-linux-<arch> runs it). Both
// mount the same server (@modelcontextprotocol/server-everything over stdio, run by this Node) from
// their own config file. Runs alternate between the two (the load drifts on a shared machine), and
// each run records when the answer reached stdout and when the process exited; medians of N.
//   npm run build && node bench/call-mcporter.bench.js
// BENCH_RUNS=15 by default; MCPHOST_BEFORE_BIN=<another build's bin/run.js> adds it as a third client
// (the figures before a change, interleaved with those after).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MCPORTER = '0.12.3';
const NODE24 = '24.22.3';
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = path.join(repo, '.cache', 'bench');
const mcphost = path.join(repo, 'bin/run.js');
const before = process.env.MCPHOST_BEFORE_BIN;
const everything = path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

function npmInstall(dir, dependencies) {
  if (existsSync(path.join(dir, '.ok'))) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: path.basename(dir), private: true, dependencies }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  writeFileSync(path.join(dir, '.ok'), '');
}

function node24() {
  if (Number(process.versions.node.split('.')[0]) >= 24) return process.execPath;
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  if (!arch) throw new Error(`no node-linux package for ${process.arch}`);
  const dir = path.join(cache, `node-${NODE24}`);
  npmInstall(dir, { [`node-linux-${arch}`]: NODE24 });
  return path.join(dir, 'node_modules', `node-linux-${arch}`, 'bin', 'node');
}

/** One run: ms until the first byte of stdout, ms until exit, and the output. */
function timed(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let answer;
    let out = '';
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => {
      answer ??= performance.now() - start;
      out += chunk;
    });
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${err.slice(-500)}`));
      else resolve({ answer, exit: performance.now() - start, out });
    });
  });
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (n) => `${Math.round(n)} ms`;

const porterDir = path.join(cache, `mcporter-${MCPORTER}`);
npmInstall(porterDir, { mcporter: MCPORTER });
const node = node24();
const work = mkdtempSync(path.join(tmpdir(), 'mcphost-bench-call-'));
try {
  const server = { command: process.execPath, args: [everything, 'stdio'] };
  writeFileSync(path.join(work, '.mcprc.json'), JSON.stringify({ servers: { everything: server } }));
  mkdirSync(path.join(work, 'config'));
  writeFileSync(path.join(work, 'config', 'mcporter.json'), JSON.stringify({ mcpServers: { everything: server } }));
  const call = (bin) => () =>
    timed(process.execPath, [bin, 'call', '--config', '.mcprc.json', 'everything', 'echo', '--message', 'hi'], work);
  const clients = {
    'mcphost call': call(mcphost),
    ...(before && { 'mcphost before': call(before) }),
    'mcporter call': () =>
      timed(node, [path.join(porterDir, 'node_modules/mcporter/dist/cli.js'), 'call', 'everything.echo', 'message=hi'], work),
  };
  const times = Object.fromEntries(Object.keys(clients).map((name) => [name, { answer: [], exit: [] }]));
  for (const run of Object.values(clients)) {
    const warm = await run(); // caches (mcphost's tool list, the OS's file cache) as a second call finds them
    if (!warm.out.includes('hi')) throw new Error(`unexpected answer: ${warm.out}`);
  }
  for (let i = 0; i < RUNS; i++) {
    const names = Object.keys(clients);
    const order = [...names.slice(i % names.length), ...names.slice(0, i % names.length)];
    for (const name of order) {
      const r = await clients[name]();
      times[name].answer.push(r.answer);
      times[name].exit.push(r.exit);
    }
  }
  console.log(`one-shot call of everything's echo over stdio, ${RUNS} interleaved runs each (median; min-max)`);
  for (const [name, t] of Object.entries(times)) {
    const range = (v) => `${ms(Math.min(...v))}-${ms(Math.max(...v))}`;
    console.log(`  ${name.padEnd(14)} answer ${ms(median(t.answer))} (${range(t.answer)})  exit ${ms(median(t.exit))} (${range(t.exit)})`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
