#!/usr/bin/env node
// godot_search's latency through `mcphost serve --plugins godot` (bin/run.js as a client spawns it,
// stdio, the SDK's client, a warm index), run `npm run build` first: the 120 dev questions
// (../shared/data/godot-queries-dev.jsonl) without guesses, and the questions of
// test/fixtures/godot/guesses.json with their guesses, each `GODOT_SERVE_ROUNDS` times (default 5);
// p50 / p95 / max per set, the target being p95 ≤ 5 ms. The first round of each set warms V8 up
// and is left out.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { godot4, questionSets, repo } from './godot-eval.js';
import { percentiles } from './godot-serve.js';

const ROUNDS = Number(process.env.GODOT_SERVE_ROUNDS ?? 5);
const dir = mkdtempSync(path.join(tmpdir(), 'mcphost-godot-serve-'));
const env = { ...process.env, HOME: dir, XDG_CACHE_HOME: path.join(dir, '.cache'), GODOT_DOC_DIR: godot4 };
delete env.MCPHOST_TOOL_MODE;
const transport = new StdioClientTransport({
  command: path.join(repo, 'bin/run.js'),
  args: ['serve', '--plugins', 'godot'],
  cwd: dir,
  env,
  stderr: 'ignore',
});
const client = new Client({ name: 'godot-search-bench', version: '1' });
await client.connect(transport);
// The first call builds the index (cold, this run's own cache folder); the timed ones load nothing.
await client.callTool({ name: 'godot_search', arguments: { query: 'timer', limit: 10 } }, { timeout: 600_000 });

async function timed(calls) {
  const times = [];
  for (let round = 0; round <= ROUNDS; round++) {
    for (const args of calls) {
      const t = performance.now();
      const r = await client.callTool({ name: 'godot_search', arguments: args });
      if (r.isError) throw new Error(JSON.stringify(r.content));
      if (round > 0) times.push(performance.now() - t);
    }
  }
  return percentiles(times);
}

const { dev } = questionSets();
const { items } = JSON.parse(readFileSync(path.join(repo, 'test/fixtures/godot/guesses.json'), 'utf8'));
const plain = await timed(dev.map((q) => ({ query: q.query, limit: 10 })));
const guessed = await timed(items.map((it) => ({ query: it.q, limit: 10, guesses: it.guesses })));
const unguessed = await timed(items.map((it) => ({ query: it.q, limit: 10 })));
await client.close();
rmSync(dir, { recursive: true, force: true });

const line = (label, p) => `${label}: p50 ${p.p50} ms, p95 ${p.p95} ms, max ${p.max} ms (${p.n} calls)`;
console.log(line(`dev questions, no guesses (${dev.length} × ${ROUNDS})`, plain));
console.log(line(`guess-set questions with their guesses (${items.length} × ${ROUNDS})`, guessed));
console.log(line(`the same questions without guesses`, unguessed));
console.log(`target: p95 ≤ 5 ms on the dev set — ${plain.p95 <= 5 ? 'met' : 'NOT met'}`);
console.log(JSON.stringify({ bench: 'godot-search-serve', dev: plain, guesses: guessed, guessQuestionsPlain: unguessed }));
