#!/usr/bin/env node
// The ablation table of the godot search (plugins/godot/README.md, "How it ranks"): each method alone
// on top of the ranking before it (BM25F with hand weights, flat terms, no expansion), all of them as
// shipped, and the shipped ranking without each (with each, for those that ship off: the variants of
// godot-variants.js, at a trial weight). Columns: hit@3 / MRR on the whole dev set, its odd half (the
// shipped numbers were fitted on it), its even half (held out), and the plugin's own 51 questions.
// Last, the ceiling of the manual field: how many dev questions have an accepted answer the manual
// says anything about.
// With --held-out it prints instead the held-out table: the manual field and the vocabulary each held
// off, and the whole ranking refitted without it (godot-fit.js, its knobs left out) on one half and
// reported on the other, both ways, beside plain BM25 in the same run.
//   npm run build && node bench/godot-ablation.js [--held-out [plain,fitted,manual,vocabulary,both]]
import { evaluate, evaluateWith, fmt, godot4, loadPlugin, questionSets, sharedIndex } from './godot-eval.js';
import { plainBM25 } from './godot-plain-bm25.js';
import { clone, fitMultiStart, KNOBS, START, variantFor } from './godot-fit.js';
import { VARIANTS } from './godot-variants.js';

const FIELDS = 7;
const MANUAL = 6;

/** The ranking before round one: name 5, owner 2.5, brief 2, body 1, no code, anchor or manual field, flat terms, no added signals. */
export function baseline(shipped) {
  return {
    ...clone(shipped),
    bm25f: { weights: [5, 2.5, 2, 1, 0, 0, 0], b: new Array(FIELDS).fill(0.75), k1: 1.2 },
    grouped: false,
    vocabulary: [],
    popularity: 0.12,
    mention: 1.5,
    kindHint: 1.5,
    kindWord: 1,
    synonym: 0,
    spelling: 0,
    identifier: 0,
    identifierFuzzy: 0,
    identifierPrefix: 0,
    wholeName: 0,
    variants: {},
  };
}

const set = (p, values) => Object.assign(p, values);
const pick = (from, keys) => Object.fromEntries(keys.map((k) => [k, from[k]]));

/** Each method: how to switch it on (taking the shipped value, or a trial value when it ships off) and off. */
export function methods(shipped) {
  const nameKeys = ['identifier', 'identifierFuzzy', 'identifierPrefix', 'wholeName', 'spelling'];
  const weight = (field, trial) => (p) => (p.bm25f.weights[field] = shipped.bm25f.weights[field] || trial);
  return [
    {
      name: 'manual anchors (the Godot manual, its own field)',
      on: weight(MANUAL, 1),
      off: (p) => (p.bm25f.weights[MANUAL] = 0),
    },
    {
      name: 'anchor text + code samples (document expansion from the reference)',
      on: (p) => (weight(4, 1)(p), weight(5, 1)(p)),
      off: (p) => ((p.bm25f.weights[4] = 0), (p.bm25f.weights[5] = 0)),
    },
    {
      name: 'BM25F weights, b, k1 fitted',
      on: (p) => {
        for (const f of [0, 1, 2, 3]) p.bm25f.weights[f] = shipped.bm25f.weights[f];
        p.bm25f.b = [...shipped.bm25f.b];
        p.bm25f.k1 = shipped.bm25f.k1;
      },
      off: (p) => {
        for (const [f, w] of [5, 2.5, 2, 1].entries()) p.bm25f.weights[f] = w;
        p.bm25f.b = new Array(FIELDS).fill(0.75);
        p.bm25f.k1 = 1.2;
      },
    },
    {
      name: 'concepts (a word and its added words as one term)',
      on: (p) => set(p, { grouped: true }),
      off: (p) => set(p, { grouped: false }),
    },
    // One switch per round of vocabulary (data/vocabulary.tsv; the third is a bench variant).
    ...[
      ['first', 'first vocabulary round (written after reading dev misses)'],
      ['second', 'second vocabulary round (by subject)'],
      ['third', 'third vocabulary round (by subject, blind to every question set)'],
    ].map(([round, name]) => ({
      name,
      on: (p) => set(p, { synonym: shipped.synonym, vocabulary: p.synonym > 0 ? [...p.vocabulary, round] : [round] }),
      off: (p) => set(p, { vocabulary: p.vocabulary.filter((r) => r !== round) }),
    })),
    {
      name: 'names in the question (exact, typo, prefix, whole name) + spelling',
      on: (p) => set(p, pick(shipped, nameKeys)),
      off: (p) => set(p, Object.fromEntries(nameKeys.map((k) => [k, 0]))),
    },
    { name: 'kind words as hints only', on: (p) => set(p, { kindWord: shipped.kindWord }), off: (p) => set(p, { kindWord: 1 }) },
    ...VARIANTS.map((v) => ({
      name: v.name,
      on: (p) => (p.variants = { ...p.variants, [v.key]: v.trial }),
      off: (p) => {
        p.variants = { ...p.variants };
        delete p.variants[v.key];
      },
    })),
  ];
}

const isOff = (p) => JSON.stringify(p);

/** Dev questions with an accepted answer that has manual text at all (the ceiling of what the manual field can lift). */
function manualCeiling(plugin, index, questions) {
  const manualTerms = (id) => index.engine.fieldLength(id, MANUAL) > 0;
  let some = 0;
  for (const q of questions) {
    const wanted = new Set(q.expected.map((e) => e.toLowerCase()));
    const ids = [];
    index.docs.forEach((d, id) => wanted.has(index.qualifiedName(id).toLowerCase()) && ids.push(id));
    if (ids.some(manualTerms)) some++;
  }
  return some;
}

/** The held-out table's rows: the start's values and the knobs the fit may not turn (a method held off). */
const HELD_OFF = {
  fitted: ['everything as fitted (manual field and vocabulary on)', () => {}, []],
  manual: ['without the manual field', (p) => (p.bm25f.weights[MANUAL] = 0), ['bm25f.weights.6', 'bm25f.b.6']],
  vocabulary: ['without the vocabulary (rounds one and two)', (p) => (p.vocabulary = []), ['vocabulary', 'synonym']],
};
HELD_OFF.both = [
  'without the manual field and the vocabulary',
  (p) => (HELD_OFF.manual[1](p), HELD_OFF.vocabulary[1](p)),
  [...HELD_OFF.manual[2], ...HELD_OFF.vocabulary[2]],
];

/** `rows`: some of plain, fitted, manual, vocabulary, both (each refit takes minutes; rows can run in separate processes). */
async function heldOutTable(plugin, index, sets, rows) {
  console.log(
    '| ranking (refitted on the tuning half) | tuned odd → held-out even | tuned even → held-out odd | own 51 (odd fit; even fit) |',
  );
  console.log('|---|---|---|---|');
  if (rows.includes('plain')) {
    const plain = await plainBM25(godot4);
    console.log(
      `| plain BM25 (wink-bm25-text-search, one field; nothing fitted) | ${fmt(evaluateWith(plain, sets.even))} | ${fmt(evaluateWith(plain, sets.odd))} | ${fmt(evaluateWith(plain, sets.own))} |`,
    );
  }
  for (const [label, off, keys] of rows.filter((r) => r in HELD_OFF).map((r) => HELD_OFF[r])) {
    const start = clone(START);
    off(start);
    const knobs = KNOBS.filter(([key]) => !keys.includes(key));
    const held = [];
    const own = [];
    for (const [tune, other] of [
      ['odd', 'even'],
      ['even', 'odd'],
    ]) {
      const params = fitMultiStart(plugin, index, sets[tune], sets.own, start, knobs);
      held.push(fmt(evaluate(plugin, index, sets[other], params, variantFor(params))));
      own.push(fmt(evaluate(plugin, index, sets.own, params, variantFor(params))));
      console.error(`  ${label}, tuned on ${tune}: ${JSON.stringify(params)}`);
    }
    console.log(`| ${label} | ${held[0]} | ${held[1]} | ${own.join('; ')} |`);
  }
  const n = manualCeiling(plugin, index, sets.dev);
  console.log(`\nmanual ceiling: ${n} of ${sets.dev.length} dev questions have an accepted answer the manual field says anything about`);
}

const heldOut = process.argv.indexOf('--held-out');
if (import.meta.url === `file://${process.argv[1]}` && heldOut > 0) {
  const plugin = await loadPlugin();
  const asked = process.argv[heldOut + 1]?.startsWith('--') ? undefined : process.argv[heldOut + 1];
  const rows = (asked ?? 'plain,fitted,manual,vocabulary,both').split(',');
  await heldOutTable(plugin, await sharedIndex(plugin), questionSets(), rows);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const plugin = await loadPlugin();
  const index = await sharedIndex(plugin);
  const sets = questionSets();
  const shipped = { ...plugin.RANKING, variants: {} };
  const row = (label, params) => {
    const cells = ['dev', 'odd', 'even', 'own'].map((s) => fmt(evaluate(plugin, index, sets[s], params, variantFor(params))));
    console.log(`| ${label} | ${cells.join(' | ')} |`);
  };
  console.log('| ranking | dev (120) | odd half (tuning) | even half (held out) | own 51 |');
  console.log('|---|---|---|---|---|');
  const plain = await plainBM25(godot4);
  console.log(
    `| plain BM25 (wink-bm25-text-search, one field, no manual, no vocabulary) | ${['dev', 'odd', 'even', 'own'].map((s) => fmt(evaluateWith(plain, sets[s]))).join(' | ')} |`,
  );
  row('before (BM25F, hand weights)', baseline(shipped));
  for (const m of methods(shipped)) {
    const p = baseline(shipped);
    m.on(p);
    row(`before + ${m.name} alone`, p);
  }
  row('**all, as shipped**', shipped);
  const everything = clone(shipped);
  for (const m of methods(shipped)) m.on(everything);
  row('every method on (those that ship off at the trial weight)', everything);
  // A method that ships on is taken away; one that ships off is added at its trial weight.
  for (const m of methods(shipped)) {
    const p = clone(shipped);
    m.off(p);
    if (isOff(p) !== isOff(shipped)) row(`shipped − ${m.name}`, p);
    else {
      m.on(p);
      row(`shipped + ${m.name} (ships off)`, p);
    }
  }
  const n = manualCeiling(plugin, index, sets.dev);
  console.log(
    `\nmanual ceiling: ${n} of ${sets.dev.length} dev questions (${Math.round((100 * n) / sets.dev.length)}%) have an accepted answer the manual field says anything about`,
  );
}
