#!/usr/bin/env node
// mcphost_find_tools through `mcphost serve --tool-mode discover` (the real binary, stdio, the SDK's
// client) with all five plugins and server-everything mounted, as bench/discover-host.js sets them
// up (imhex in stock-ImHex mode on the replicas of ImHex and its bridge, pob with its Lua tools,
// unreal on its two replicas). Both task sets — test/fixtures/discover/tasks.json (written before
// the tool list was read) and tasks-sourced.json (the second set: requests from public issue
// threads of the programs behind the backends and the tools' own documentation, each with its
// source) — reported per half: the ranking was judged on the `tune` halves only, `holdout` is
// held out. hit@1, hit@3, hit@5 and MRR with 95 % bootstrap intervals. Then the round trip of a
// find (limit 5) beside that of mcphost_describe_tool (same path, no ranking), BENCH_ROUNDS times
// (default 10).
// Run after `npm run build`: node bench/discover.bench.js
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDiscoverHost } from './discover-host.js';
import { rankOf, relevance, relevanceLine } from './relevance-stats.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const pct = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const ms = (n) => Math.round(n * 100) / 100;

const host = await startDiscoverHost();
const listed = JSON.stringify((await host.client.listTools()).tools);
const timed = async (name, args) => {
  const started = performance.now();
  const value = await host.call(name, args);
  return { ms: performance.now() - started, value };
};

const sets = ['tasks.json', 'tasks-sourced.json'].map((file) => ({
  file,
  tasks: JSON.parse(readFileSync(path.join(repo, 'test/fixtures/discover', file), 'utf8')).tasks,
}));
const served = new Set();
for (const name of new Set(sets.flatMap((s) => s.tasks.flatMap((t) => t.expect)))) {
  const described = await host.client.callTool({ name: 'mcphost_describe_tool', arguments: { name } });
  if (!described.isError) served.add(name);
}

const find = [];
const describe = [];
const figures = {};
for (const set of sets) {
  const scored = set.tasks.filter((t) => t.expect.some((n) => served.has(n)));
  const ranks = { tune: [], holdout: [] };
  const misses = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of scored) {
      const found = await timed('mcphost_find_tools', { query: t.task, limit: 10 });
      describe.push((await timed('mcphost_describe_tool', { name: t.expect.find((n) => served.has(n)) })).ms);
      find.push(found.ms);
      if (round > 0) continue;
      const rank = rankOf(
        found.value.tools.map((h) => h.name),
        t.expect,
      );
      ranks[t.half].push(rank);
      if (t.half === 'holdout' && !(rank >= 1 && rank <= 3)) misses.push(`  [${rank || '-'}] ${t.task}`);
    }
  }
  figures[set.file] = {};
  for (const half of ['tune', 'holdout']) {
    const r = relevance(ranks[half]);
    figures[set.file][half] = r;
    console.log(`${set.file.padEnd(19)} ${half.padEnd(8)} ${relevanceLine(r)}`);
  }
  if (misses.length) console.log(`  held out, not in the top 3:\n${misses.join('\n')}`);
}
await host.close();

console.log(`tools/list in discover mode: ${listed.length} bytes of JSON; ${served.size} expected tools served`);
console.log(
  `find round trip (${find.length} calls): p50 ${ms(pct(find, 50))} ms, p95 ${ms(pct(find, 95))} ms, max ${ms(Math.max(...find))} ms; ` +
    `describe (no ranking) p50 ${ms(pct(describe, 50))} ms, p95 ${ms(pct(describe, 95))} ms: ranking adds ${ms(pct(find, 95) - pct(describe, 95))} ms at p95`,
);
const flat = (r) => ({ n: r.n, hit1: r.hit1, hit3: r.hit3, hit5: r.hit5, mrr: r.mrr });
console.log(
  JSON.stringify({
    bench: 'discover',
    listBytes: listed.length,
    sets: Object.fromEntries(Object.entries(figures).map(([f, h]) => [f, { tune: flat(h.tune), holdout: flat(h.holdout) }])),
    findP50Ms: ms(pct(find, 50)),
    findP95Ms: ms(pct(find, 95)),
    describeP95Ms: ms(pct(describe, 95)),
  }),
);
