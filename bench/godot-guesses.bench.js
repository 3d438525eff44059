#!/usr/bin/env node
// godot_search with the caller's `guesses` (run `npm run build` first): the questions of
// test/fixtures/godot/guesses.json, each with model-style guesses (Godot 3 names, near misses, the
// right class with a wrong member, the right member on another class, plainly wrong names), ranked
// with and without their guesses. Reported on the held-out half: hit@1/3/5 and MRR with 95 %
// intervals, per kind of guess, and how many questions a wrong guess cost rank. Then the dev set's
// held-out half (../shared/data/godot-queries-dev.jsonl, even lines: the ranking's numbers were
// fitted on the odd ones) without guesses, against the same questions ranked by a baseline build
// (BASELINE_DIST=<another clone's dist/plugins/godot>, e.g. main's) — no question may lose rank.
//   node bench/godot-guesses.bench.js           the figures for the shipped fusion numbers
//   node bench/godot-guesses.bench.js --fit     choose the numbers on the tuning half (a grid), report the other
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadPlugin, questionSets, repo, sharedIndex } from './godot-eval.js';
import { rankOf, relevance, relevanceLine } from './relevance-stats.js';

const plugin = await loadPlugin();
const { GUESS_FUSION } = await import(path.join(repo, 'dist/plugins/godot/lookup/search.js'));
const index = await sharedIndex(plugin);
const { items, sources } = JSON.parse(readFileSync(path.join(repo, 'test/fixtures/godot/guesses.json'), 'utf8'));
const INFORMATIVE = new Set(['godot3', 'near-miss', 'wrong-member', 'other-class']);

const names = (query, options) => plugin.search(index, query, { limit: 10, ...options }).map((h) => h.name);
const plain = new Map(items.map((it) => [it.q, rankOf(names(it.q, {}), it.expect)]));

function evaluate(fusion, subset) {
  return subset.map((it) => ({
    ...it,
    before: plain.get(it.q),
    rank: rankOf(names(it.q, { guesses: it.guesses, guessFusion: fusion }), it.expect),
  }));
}
/** A wrong guess "costs" a question when its answer ranks lower than without guesses. */
const worse = (rows) => rows.filter((r) => r.type === 'wrong' && (r.rank === 0 ? 11 : r.rank) > (r.before === 0 ? 11 : r.before));
/** A wrong guess "pushes out" a lexical match when the answer ranked first without guesses leaves the top 3 (what a client reads). */
const pushedOut = (rows) => rows.filter((r) => r.type === 'wrong' && r.before === 1 && !(r.rank >= 1 && r.rank <= 3));
/** …and displaces it when it is no longer first. */
const displaced = (rows) => rows.filter((r) => r.type === 'wrong' && r.before === 1 && r.rank !== 1);
function objective(rows) {
  const informative = rows.filter((r) => INFORMATIVE.has(r.type));
  return informative.filter((r) => r.rank === 1).length - 5 * pushedOut(rows).length - 0.5 * worse(rows).length;
}

let fusion = GUESS_FUSION;
const tune = items.filter((it) => it.half === 'tune');
const holdout = items.filter((it) => it.half === 'holdout');
if (process.argv.includes('--fit')) {
  let best = { score: -Infinity };
  // base stays under 1: a guess the question's words do not support at all never outscores the best lexical match.
  for (const base of [0.3, 0.5, 0.7, 0.9])
    for (const agree of [0.3, 0.6, 0.9, 1.2])
      for (const classMention of [1, 1.25, 1.5, 2])
        for (const words of [0, 0.25, 0.5, 1]) {
          const f = { base, agree, classMention, words };
          const score = objective(evaluate(f, tune));
          // Ties go to the smaller numbers: a guess should move the ranking as little as it can.
          if (score > best.score) best = { score, fusion: f };
        }
  fusion = best.fusion;
  console.log(
    `fitted on the tuning half (${tune.length} questions): ${JSON.stringify(fusion)} (objective ${best.score}; shipped: ${JSON.stringify(GUESS_FUSION)})`,
  );
}

for (const [label, subset] of [
  ['tuning half', tune],
  ['held-out half', holdout],
]) {
  const rows = evaluate(fusion, subset);
  const informative = rows.filter((r) => INFORMATIVE.has(r.type));
  console.log(`\n${label}, ${rows.length} questions (${JSON.stringify(fusion)}):`);
  console.log(
    `  with guesses (informative: godot3, near-miss, wrong-member, other-class): ${relevanceLine(relevance(informative.map((r) => r.rank)))}`,
  );
  console.log(
    `  the same questions without guesses:                                    ${relevanceLine(relevance(informative.map((r) => r.before)))}`,
  );
  for (const type of ['godot3', 'near-miss', 'wrong-member', 'other-class', 'wrong']) {
    const of = rows.filter((r) => r.type === type);
    console.log(
      `    ${type.padEnd(12)} first ${of.filter((r) => r.rank === 1).length}/${of.length} (without guesses ${of.filter((r) => r.before === 1).length}/${of.length})`,
    );
  }
  const lost = worse(rows);
  console.log(
    `  wrong guesses that cost rank: ${lost.length} of ${rows.filter((r) => r.type === 'wrong').length}${lost.map((r) => `\n    ${r.q} ${JSON.stringify(r.guesses)}: ${r.before} → ${r.rank}`).join('')}`,
  );
  const firsts = rows.filter((r) => r.type === 'wrong' && r.before === 1).length;
  console.log(
    `  lexical first answers (${firsts}) a wrong guess moved off first place: ${displaced(rows).length}; out of the top 3: ${pushedOut(rows).length}`,
  );
  if (process.argv.includes('--misses'))
    for (const r of rows.filter((x) => x.rank !== 1)) console.log(`    [${r.rank || '-'}] ${r.type} ${r.q} ${JSON.stringify(r.guesses)}`);
}

// The dev set's held-out half without guesses: this build against a baseline build.
const { even } = questionSets();
const ranks = even.map((q) => rankOf(names(q.query, {}), q.expected));
const empty = even.map((q) => rankOf(names(q.query, { guesses: [] }), q.expected));
console.log(`\ndev set, held-out half (even lines, ${even.length} questions), no guesses: ${relevanceLine(relevance(ranks))}`);
console.log(`  guesses: [] ranks every question as no guesses does: ${empty.every((r, i) => r === ranks[i])}`);
if (process.env.BASELINE_DIST) {
  const { search } = await import(path.join(path.resolve(process.env.BASELINE_DIST), 'lookup/search.js'));
  const base = even.map((q) =>
    rankOf(
      search(index, q.query, { limit: 10 }).map((h) => h.name),
      q.expected,
    ),
  );
  const lose = even.filter((q, i) => (ranks[i] || 11) > (base[i] || 11));
  console.log(`  baseline ${process.env.BASELINE_DIST}: ${relevanceLine(relevance(base))}`);
  console.log(`  questions that lost rank against the baseline: ${lose.length}${lose.map((q) => `\n    ${q.query}`).join('')}`);
}
console.log(
  `\nsources of the guess set:\n${Object.entries(sources)
    .map(([k, v]) => `  ${k}: ${v}`)
    .join('\n')}`,
);
