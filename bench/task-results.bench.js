#!/usr/bin/env node
// task-results (issue 36, item 6): the host's memory (VmRSS) after one 2026-era client made
// BENCH_TASKS (200) tasks of BENCH_CHARS (6,000,000) characters each and never read them, on
// `mcphost serve --transport http` with default settings: finished tasks are kept an hour, bounded
// by count (1000) and, since, by bytes (tasks.resultBytes, 128 MiB). `MCPHOST_BIN=/path/to/other/bin/run.js`
// measures another build (the figures before a change).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.MCPHOST_BIN ?? path.resolve(here, '../bin/run.js');
const TASKS = Number(process.env.BENCH_TASKS ?? 200);
const CHARS = Number(process.env.BENCH_CHARS ?? 6_000_000);
const work = mkdtempSync(path.join(tmpdir(), 'mcphost-task-results-'));
const config = path.join(work, '.mcprc.yaml');
writeFileSync(config, `plugins:\n  big:\n    module: ${path.join(here, 'fixtures/big-tasks/index.js')}\nlog:\n  level: warn\n`);
const env = { ...process.env, HOME: work, XDG_CACHE_HOME: path.join(work, 'cache') };
const mb = (pid) => Math.round(Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);

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
      if (m) resolve({ url: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

const server = await start();
try {
  const client = new Client(
    { name: 'bench', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  await client.callTool({ name: 'big_text', arguments: { chars: 10, ms: 0 } });
  const before = mb(server.child.pid);
  const t0 = performance.now();
  let next = 0;
  // The SDK client does not take a CreateTaskResult (it rejects it): the task runs on regardless.
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next++ < TASKS) await client.callTool({ name: 'big_text', arguments: { chars: CHARS } }).catch(() => undefined);
    }),
  );
  await new Promise((r) => setTimeout(r, 3000));
  const after = mb(server.child.pid);
  console.log(
    `${TASKS} finished tasks of ${(CHARS / 1e6).toFixed(1)} MB each, never read: host RSS ${before} MB → ${after} MB (${Math.round((performance.now() - t0) / 1000)} s)`,
  );
  await client.close();
} finally {
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  rmSync(work, { recursive: true, force: true });
}
