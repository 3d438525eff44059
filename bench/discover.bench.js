#!/usr/bin/env node
// mcphost_find_tools through `mcphost serve --tool-mode discover` (the real binary, stdio, SDK
// client): godot on the shared docs, pob with its Lua tools, imhex on a small file, exile on a
// generated snapshot and server-everything mounted (unreal is left out: its editors are test
// replicas written in TypeScript, and 3 of the 55 tasks are its own). For every task description of
// test/fixtures/discover/tasks.json whose tools are served, the round trip of a find (limit 3) is
// timed beside that of mcphost_describe_tool (same path, no ranking) in the same round, and the
// top-3 rate is counted per half (tune: what the weights were set on; holdout: never tuned on).
// Run after `npm run build`: node bench/discover.bench.js   (BENCH_ROUNDS=N, default 20)
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { generateSnapshot } from '../test/fixtures/exile/generate.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(repo, 'bin/run.js');
const everything = path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const pct = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const ms = (n) => Math.round(n * 100) / 100;

const dir = mkdtempSync(path.join(tmpdir(), 'mcphost-discover-'));
const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: path.join(dir, '.config') };
writeFileSync(path.join(dir, 'state.json'), JSON.stringify(generateSnapshot()));
writeFileSync(path.join(dir, 'fw.bin'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) & 0xff)));
writeFileSync(
  path.join(dir, '.mcprc.yaml'),
  `plugins:
  godot: { docDir: ${JSON.stringify(path.join(repo, '../shared/data/godot-docs/doc'))} }
  pob: { lua: { enabled: true } }
  imhex: { file: fw.bin }
  exile: { snapshot: state.json }
servers:
  everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(everything)}, stdio] }
tools: { mode: discover }
log: { level: error }
`,
);
execFileSync(process.execPath, [bin, 'trust'], { cwd: dir, env, stdio: 'ignore' });
const client = new Client({ name: 'bench', version: '1' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'serve'], cwd: dir, env, stderr: 'ignore' }));
const listed = JSON.stringify((await client.listTools()).tools);

const call = async (name, args) => {
  const started = performance.now();
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return { ms: performance.now() - started, value: result.structuredContent };
};
// The mounted server's tools join the index once it answers.
while (!(await call('mcphost_find_tools', { query: 'echo a message', limit: 3 })).value.tools.some((t) => t.name === 'everything_echo'))
  await new Promise((resolve) => setTimeout(resolve, 200));

const { tasks } = JSON.parse(readFileSync(path.join(repo, 'test/fixtures/discover/tasks.json'), 'utf8'));
const served = new Set();
for (const name of new Set(tasks.flatMap((t) => t.expect))) {
  const described = await client.callTool({ name: 'mcphost_describe_tool', arguments: { name } });
  if (!described.isError) served.add(name);
}
const scored = tasks.filter((t) => t.expect.length > 0 && t.expect.some((name) => served.has(name)));
const tally = { tune: [0, 0], holdout: [0, 0] };
const find = [];
const describe = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const t of scored) {
    const found = await call('mcphost_find_tools', { query: t.task, limit: 3 });
    describe.push((await call('mcphost_describe_tool', { name: t.expect.find((n) => served.has(n)) })).ms);
    find.push(found.ms);
    if (round > 0) continue;
    tally[t.half][1]++;
    if (found.value.tools.some((hit) => t.expect.includes(hit.name))) tally[t.half][0]++;
  }
}
await client.close();
rmSync(dir, { recursive: true, force: true });

const rate = ([hit, of]) => `${hit}/${of} (${Math.round((hit / of) * 1000) / 10} %)`;
console.log(`tools/list in discover mode: ${listed.length} bytes of JSON`);
console.log(`top-3 over ${scored.length} tasks whose tools are served: tune ${rate(tally.tune)}, holdout ${rate(tally.holdout)}`);
console.log(
  `find round trip (${find.length} calls): p50 ${ms(pct(find, 50))} ms, p95 ${ms(pct(find, 95))} ms, max ${ms(Math.max(...find))} ms; ` +
    `describe (no ranking) p50 ${ms(pct(describe, 50))} ms, p95 ${ms(pct(describe, 95))} ms: ranking adds ${ms(pct(find, 95) - pct(describe, 95))} ms at p95`,
);
console.log(
  JSON.stringify({
    bench: 'discover',
    listBytes: listed.length,
    tasks: scored.length,
    tuneTop3: tally.tune,
    holdoutTop3: tally.holdout,
    findP50Ms: ms(pct(find, 50)),
    findP95Ms: ms(pct(find, 95)),
    findMaxMs: ms(Math.max(...find)),
    describeP50Ms: ms(pct(describe, 50)),
    describeP95Ms: ms(pct(describe, 95)),
  }),
);
