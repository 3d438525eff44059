#!/usr/bin/env node
// Chooses mcphost_find_tools's ranking numbers on the tuning halves of the two task sets
// (test/fixtures/discover/tasks.json and tasks-sourced.json) by coordinate ascent from the shipped
// ones, and reports the held-out halves with the numbers it found and with the shipped ones. In
// process, on the tool list `node bench/discover-host.js --dump FILE` wrote (the surface of
// discover.bench.js: all five plugins, imhex in stock-ImHex mode, server-everything).
//   npm run build && node bench/discover-host.js --dump /tmp/tools.json && node bench/discover-fit.js /tmp/tools.json
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rankOf, relevance, relevanceLine } from './relevance-stats.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { ToolIndex, RANKING } = await import(path.join(repo, 'dist/src/discover/tool-index.js'));
const tools = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** Each backend's description, as its plugin (or, for a mounted server, the host) declares it. */
async function backends() {
  const out = {};
  for (const name of ['godot', 'pob', 'imhex', 'unreal', 'exile']) {
    const mod = (await import(path.join(repo, `dist/plugins/${name}/index.js`))).default;
    out[name] = (typeof mod === 'function' ? mod() : mod).description;
  }
  out.everything = 'MCP server `node server-everything/dist/index.js stdio`';
  return out;
}
const descriptions = await backends();
const indexed = tools.map((t) => {
  const name = t.name.slice(0, t.name.indexOf('_'));
  return { ...t, backend: { name, description: descriptions[name] ?? '' } };
});

const sets = ['tasks.json', 'tasks-sourced.json'].map((f) => ({
  file: f,
  tasks: JSON.parse(readFileSync(path.join(repo, 'test/fixtures/discover', f), 'utf8')).tasks.filter((t) =>
    t.expect.some((n) => tools.some((x) => x.name === n)),
  ),
}));

function ranks(options, half) {
  const index = ToolIndex.build(indexed, options);
  return sets.map((s) =>
    s.tasks
      .filter((t) => t.half === half)
      .map((t) =>
        rankOf(
          index.search(t.task, 10).map((h) => h.name),
          t.expect,
        ),
      ),
  );
}
/** The tuning objective: hit@3 counts most, then hit@1, then MRR (both sets' tuning halves together). */
function objective(options) {
  const all = ranks(options, 'tune').flat();
  const r = relevance(all, { resamples: 1 });
  return 3 * r.hit3.value + r.hit1.value + r.mrr.value + 0.5 * r.hit5.value;
}

const clone = (o) => JSON.parse(JSON.stringify(o));
const knobs = [
  ['fields.name.weight', [1, 1.5, 2, 2.5, 3, 4]],
  ['fields.title.weight', [0.5, 1, 1.5, 2, 3]],
  ['fields.description.weight', [0.5, 1, 1.5, 2]],
  ['fields.params.weight', [0, 0.2, 0.4, 0.7, 1]],
  ['fields.description.b', [0.3, 0.5, 0.75, 0.9]],
  ['fields.name.b', [0, 0.3, 0.6]],
  ['backendFields.identity.weight', [0.5, 1, 2, 3]],
  ['backendFields.tools.weight', [0, 0.25, 0.5, 1]],
  ['backendBoost', [0, 0.3, 0.6, 1, 1.5, 2]],
  ['coverage', [0, 0.5, 1, 1.5]],
  ['added', [0.2, 0.35, 0.5, 0.7, 1]],
  ['shape', [0.3, 0.6, 1]],
];
const get = (o, key) => key.split('.').reduce((x, k) => x[k], o);
const set = (o, key, v) => {
  const parts = key.split('.');
  parts.slice(0, -1).reduce((x, k) => x[k], o)[parts.at(-1)] = v;
};

let best = clone(RANKING);
let bestScore = objective(best);
if (process.argv.includes('--fit')) {
  for (let pass = 0; pass < 3; pass++) {
    let changed = false;
    for (const [key, values] of knobs) {
      for (const v of values) {
        if (v === get(best, key)) continue;
        const trial = clone(best);
        set(trial, key, v);
        const score = objective(trial);
        // Only a clear gain moves a knob (more than one task's worth on one metric).
        if (score > bestScore + 0.02) {
          best = trial;
          bestScore = score;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  console.log(`fitted: ${JSON.stringify(best)}`);
}
for (const [label, options] of [['shipped', RANKING], ...(process.argv.includes('--fit') ? [['fitted', best]] : [])]) {
  for (const half of ['tune', 'holdout']) {
    const r = ranks(options, half);
    sets.forEach((s, i) => console.log(`${label.padEnd(8)} ${s.file.padEnd(20)} ${half.padEnd(8)} ${relevanceLine(relevance(r[i]))}`));
  }
}
