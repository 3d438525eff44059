#!/usr/bin/env node
// Host overhead: tools/call round trip through `mcphost serve` vs a bare SDK server exposing the
// same trivial tool, over stdio and HTTP, interleaved call by call; and the wall time of
// `mcphost --version` and of a one-shot `mcphost call`. Goals: median ratio ≤ 1.15×; ≤ 400 ms.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.resolve(here, '../bin/run.js');
const BARE = path.join(here, 'fixtures/bare-server.js');
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const WARMUP = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

const work = mkdtempSync(path.join(tmpdir(), 'mcphost-bench-'));
const config = path.join(work, '.mcprc.yaml');
writeFileSync(config, `plugins:\n  bench:\n    module: ${path.join(here, 'fixtures/trivial/index.js')}\nlog:\n  level: warn\n`);
const env = { ...process.env, HOME: work, XDG_DATA_HOME: path.join(work, 'data'), XDG_CONFIG_HOME: path.join(work, 'config') };

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => Math.round(x * 1000) / 1000;

async function stdioClient(command, args) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command, args, cwd: work, env, stderr: 'ignore' }));
  return client;
}

function startHttp(command, args, pattern) {
  const child = spawn(command, args, { cwd: work, env, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = pattern.exec(err);
      if (m) resolve({ url: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

async function httpClient(url) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Alternates one call on each client so both see the same machine conditions. */
async function interleave(label, mcphost, bare) {
  const a = [];
  const b = [];
  const one = async (client, name, into) => {
    const t0 = performance.now();
    await client.callTool({ name, arguments: { message: 'ping' } });
    into?.push(performance.now() - t0);
  };
  for (let i = 0; i < WARMUP; i++) {
    await one(mcphost, 'bench_echo');
    await one(bare, 'echo');
  }
  for (let i = 0; i < CALLS; i++) {
    if (i % 2 === 0) {
      await one(mcphost, 'bench_echo', a);
      await one(bare, 'echo', b);
    } else {
      await one(bare, 'echo', b);
      await one(mcphost, 'bench_echo', a);
    }
  }
  const sum = (xs) => xs.reduce((s, x) => s + x, 0);
  const row = {
    transport: label,
    mcphost_p50_ms: ms(pct(a, 50)),
    bare_p50_ms: ms(pct(b, 50)),
    ratio_p50: Math.round((pct(a, 50) / pct(b, 50)) * 1000) / 1000,
    mcphost_p95_ms: ms(pct(a, 95)),
    bare_p95_ms: ms(pct(b, 95)),
    mcphost_calls_per_s: Math.round((a.length / sum(a)) * 1000),
    bare_calls_per_s: Math.round((b.length / sum(b)) * 1000),
  };
  console.log(
    `${label}: mcphost p50 ${row.mcphost_p50_ms} ms (p95 ${row.mcphost_p95_ms}) vs bare p50 ${row.bare_p50_ms} ms (p95 ${row.bare_p95_ms}) → ratio ${row.ratio_p50}×; ${row.mcphost_calls_per_s} vs ${row.bare_calls_per_s} calls/s`,
  );
  return row;
}

function wall(args) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, [BIN, ...args], { cwd: work, env, stdio: 'ignore' });
    times.push(performance.now() - t0);
  }
  return { p50: Math.round(pct(times, 50)), p95: Math.round(pct(times, 95)), min: Math.round(Math.min(...times)) };
}

const summary = { calls: CALLS };
try {
  const ms1 = await stdioClient(process.execPath, [BIN, 'serve', '--config', config]);
  const bare1 = await stdioClient(process.execPath, [BARE, 'stdio']);
  summary.stdio = await interleave('stdio', ms1, bare1);
  await Promise.all([ms1.close(), bare1.close()]);

  const h1 = await startHttp(
    process.execPath,
    [BIN, 'serve', '--config', config, '--transport', 'http', '--port', '0', '--log-level', 'info'],
    /serving .* on (http:\/\/\S+)/,
  );
  const h2 = await startHttp(process.execPath, [BARE, 'http', '0'], /bare serving on (http:\/\/\S+)/);
  const ms2 = await httpClient(h1.url);
  const bare2 = await httpClient(h2.url);
  summary.http = await interleave('http', ms2, bare2);
  await Promise.all([ms2.close(), bare2.close()]);
  h1.child.kill('SIGTERM');
  h2.child.kill('SIGTERM');

  summary.version_ms = wall(['--version']);
  console.log(`mcphost --version: p50 ${summary.version_ms.p50} ms, p95 ${summary.version_ms.p95} ms (${RUNS} runs)`);
  summary.call_ms = wall(['call', 'bench', 'echo', '--message', 'hi', '--config', config]);
  console.log(`mcphost call bench echo: p50 ${summary.call_ms.p50} ms, p95 ${summary.call_ms.p95} ms (${RUNS} runs)`);
  summary.goals = {
    ratio_le_1_15: summary.stdio.ratio_p50 <= 1.15 && summary.http.ratio_p50 <= 1.15,
    one_shot_le_400ms: summary.version_ms.p50 <= 400 && summary.call_ms.p50 <= 400,
  };
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(JSON.stringify({ bench: 'host', ...summary }));
