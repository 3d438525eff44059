#!/usr/bin/env node
// Fits the godot search's ranking numbers (BM25F field weights, b, k1, and the weights of the
// signals on top) by coordinate ascent on one half of ../shared/data/godot-queries-dev.jsonl and
// reports them on the other half, both ways (tune odd → report even, tune even → report odd).
// Objective: hit@3 + MRR on the tuning half, plus a quarter of it on the plugin's own 51 questions
// (the regression set), with the seed's checks as constraints (`signal pressed` → BaseButton.pressed
// in the top 3; `_ready` and `Vector2.x` first). A change must gain more than one question's hit@3
// (1/60 of a half) to be kept, so the fit does not chase single questions. The ascent runs from two
// starts that owe nothing to the questions (the hand weights, and every knob at the middle of its
// values); the better on the tuning half wins.
//   npm run build && node bench/godot-fit.js              # fit both ways, print
//   node bench/godot-fit.js --variants                    # …the methods that ship off (godot-variants.js) as options too
//   node bench/godot-fit.js --try-third-round             # …with the third vocabulary round as an option
//   node bench/godot-fit.js --write odd                   # …and write the odd-half fit to plugins/godot/data/ranking.json
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { evaluate, evaluateWith, fmt, godot4, loadPlugin, questionSets, repo, sharedIndex } from './godot-eval.js';
import { plainBM25 } from './godot-plain-bm25.js';
import { VARIANTS, variantOf } from './godot-variants.js';

const MIN_GAIN = 0.02;
/**
 * Where every fit starts: the ranking before any fit (BM25F weights name 5, owner 2.5, brief 2,
 * body 1, the code, anchor and manual fields 1, b 0.75, k1 1.2), each added signal at a middling weight.
 */
export const START = {
  bm25f: { weights: [5, 2.5, 2, 1, 1, 1, 1], b: [0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75], k1: 1.2 },
  grouped: true,
  vocabulary: ['first', 'second'],
  popularity: 0.12,
  mention: 1.5,
  kindHint: 1.5,
  kindWord: 1,
  synonym: 0.5,
  spelling: 0.5,
  identifier: 0.5,
  identifierFuzzy: 0.5,
  identifierPrefix: 0.3,
  wholeName: 0.5,
};
const ROUNDS = 3;

/** Each knob: where it lives in RankingParams (or `variants.<key>` for a method that ships off), and the values tried. */
export const KNOBS = [
  ['bm25f.weights.0', [1, 2, 3, 5, 8]],
  ['bm25f.weights.1', [0, 0.5, 1, 2.5]],
  ['bm25f.weights.2', [0, 0.5, 1, 2, 4]],
  ['bm25f.weights.3', [0.5, 1, 2]],
  ['bm25f.weights.4', [0, 0.3, 1]],
  ['bm25f.weights.5', [0, 0.5, 1, 2]],
  ['bm25f.weights.6', [0, 0.25, 0.5, 1, 2, 4]],
  ['bm25f.b.0', [0.3, 0.75, 1]],
  ['bm25f.b.3', [0.3, 0.5, 0.75, 1]],
  ['bm25f.b.5', [0.3, 0.75, 1]],
  ['bm25f.b.6', [0, 0.3, 0.5, 0.75, 1]],
  ['bm25f.k1', [0.6, 0.9, 1.2, 1.6, 2.2]],
  ['popularity', [0, 0.06, 0.12, 0.25]],
  ['mention', [1, 1.25, 1.5, 2]],
  ['kindHint', [1, 1.5, 2]],
  ['kindWord', [0, 0.25, 0.5, 1]],
  ['synonym', [0, 0.3, 0.5, 0.7, 1, 1.5]],
  ['spelling', [0, 0.5, 1]],
  ['identifier', [0, 0.25, 0.5, 1]],
  ['identifierFuzzy', [0, 0.25, 0.5, 1]],
  ['identifierPrefix', [0, 0.15, 0.3, 0.6]],
  ['wholeName', [0, 0.25, 0.5, 1, 2]],
];

if (process.argv.includes('--variants')) for (const v of VARIANTS) KNOBS.push([`variants.${v.key}`, v.values]);
// With --try-third-round the fit may also add the third round of vocabulary tables (written blind to
// every question set; it ships off, plugins/godot/README.md says why).
if (process.argv.includes('--try-third-round')) {
  KNOBS.push([
    'vocabulary',
    [
      ['first', 'second'],
      ['first', 'second', 'third'],
    ],
  ]);
}

function setPath(obj, key, value) {
  const keys = key.split('.');
  if (keys[0] === 'variants') obj.variants ??= {};
  let at = obj;
  for (const k of keys.slice(0, -1)) at = at[k];
  at[keys.at(-1)] = value;
}

export function clone(params) {
  const out = { ...params, bm25f: { ...params.bm25f, weights: [...params.bm25f.weights], b: [...params.bm25f.b] } };
  if (params.variants) out.variants = { ...params.variants };
  return out;
}

/** The variant a candidate's `variants` weights and vocabulary rounds ask for (the production params never hold either). */
export function variantFor(params) {
  return variantOf(params.variants, { third: params.vocabulary.includes('third') });
}

/** The seed's own test queries: the expected name within the first `within` results. */
export const SEED_CHECKS = [
  ['signal pressed', 'BaseButton.pressed', 3],
  ['_ready', 'Node._ready', 1],
  ['Vector2.x', 'Vector2.x', 1],
];

export function seedChecksHold(plugin, index, params, variant) {
  return SEED_CHECKS.every(([query, name, within]) =>
    plugin
      .search(index, query, { limit: within, params, variant })
      .map((r) => r.name)
      .includes(name),
  );
}

/** A second start that owes nothing to any question: every knob at the middle of the values it may take. */
export function centre(start, knobs = KNOBS) {
  const out = clone(start);
  for (const [key, values] of knobs)
    if (!key.startsWith('variants.') && key !== 'vocabulary') setPath(out, key, values[Math.floor(values.length / 2)]);
  return out;
}

/**
 * Coordinate ascent from `start` (START) and from the centre of the grid; the better on the tuning
 * objective wins. `knobs`: the knobs it may turn (the ablation holds a method off by leaving its knobs out).
 */
export function fitMultiStart(plugin, index, questions, regression = [], start = START, knobs = KNOBS) {
  const runs = [start, centre(start, knobs)].map((from) => fit(plugin, index, questions, from, regression, knobs));
  return runs.reduce((a, b) => (b.score > a.score ? b : a)).params;
}

export function fit(plugin, index, questions, start, regression = [], knobs = KNOBS) {
  const objective = (p) => {
    const variant = variantFor(p);
    if (!seedChecksHold(plugin, index, p, variant)) return -Infinity;
    const r = evaluate(plugin, index, questions, p, variant);
    const own = regression.length ? evaluate(plugin, index, regression, p, variant) : { hit3: 0, mrr: 0 };
    return r.hit3 + r.mrr + 0.25 * (own.hit3 + own.mrr);
  };
  let best = clone(start);
  let bestScore = objective(best);
  for (let round = 0; round < ROUNDS; round++) {
    let changed = false;
    for (const [key, values] of knobs) {
      for (const value of values) {
        const candidate = clone(best);
        setPath(candidate, key, value);
        const score = objective(candidate);
        if (score > bestScore + MIN_GAIN) {
          best = candidate;
          bestScore = score;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return { params: best, score: bestScore };
}

function writeParams(params, half) {
  if (params.variants && Object.keys(params.variants).some((k) => params.variants[k] !== (VARIANTS.find((v) => v.key === k).off ?? 0)))
    throw new Error(
      `the ${half}-half fit takes methods that do not ship (${JSON.stringify(params.variants)}): move them into the plugin first`,
    );
  if (params.vocabulary.includes('third'))
    throw new Error('the third vocabulary round does not ship: move it into plugins/godot/data/vocabulary.tsv first');
  const { variants, ...shipped } = params;
  const file = path.join(repo, 'plugins/godot/data/ranking.json');
  const about =
    `The godot search's ranking numbers (types: ranking-params.ts). Written by node bench/godot-fit.js --write ${half}: ` +
    `tuned on the ${half} lines of ../shared/data/godot-queries-dev.jsonl, the ${half === 'odd' ? 'even' : 'odd'} lines held out.`;
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ about, tunedOn: half, params: shipped }, null, 2)}\n`);
  renameSync(temp, file);
  console.log(`wrote the ${half}-half fit to ${path.relative(process.cwd(), file)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const plugin = await loadPlugin();
  const index = await sharedIndex(plugin);
  const sets = questionSets();
  // The baseline in the same run: plain BM25 over the same reference (nothing to fit).
  const plain = await plainBM25(godot4);
  const onPlain = (set) => fmt(evaluateWith(plain, sets[set]));
  console.log(
    `plain BM25: odd ${onPlain('odd')} | even ${onPlain('even')} | whole dev ${onPlain('dev')} | own 51 ${onPlain('own')}  (hit@3 / MRR)`,
  );
  const fits = {};
  for (const [tune, held] of [
    ['odd', 'even'],
    ['even', 'odd'],
  ]) {
    const params = fitMultiStart(plugin, index, sets[tune], sets.own);
    fits[tune] = params;
    const on = (set) => fmt(evaluate(plugin, index, sets[set], params, variantFor(params)));
    console.log(
      `tuned on ${tune}: ${tune} ${on(tune)} | held-out ${held} ${on(held)} | whole dev ${on('dev')} | own 51 ${on('own')}  (hit@3 / MRR)`,
    );
    console.log(`  ${JSON.stringify(params)}`);
  }
  const write = process.argv.indexOf('--write');
  if (write > 0) writeParams(fits[process.argv[write + 1]] ?? fits.odd, process.argv[write + 1] in fits ? process.argv[write + 1] : 'odd');
}
