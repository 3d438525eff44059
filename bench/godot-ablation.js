#!/usr/bin/env node
// The ablation table of the godot search (plugins/godot/README.md, "How it ranks"): each method alone
// on top of the ranking before it (BM25F with hand weights, flat terms, no expansion), all of them as
// shipped, and the shipped ranking without each (with each, for those that ship off). Columns:
// hit@3 / MRR on the whole dev set, its odd half (the shipped numbers were fitted on it), its even
// half (held out), and the plugin's own 51 questions. Methods that ship off are tried at a trial
// weight (methods() below).
//   npm run build && node bench/godot-ablation.js
import { evaluate, fmt, loadPlugin, questionSets, sharedIndex } from './godot-eval.js';
import { clone } from './godot-fit.js';

/** The ranking before round one: name 5, owner 2.5, brief 2, body 1, no code or anchor field, flat terms, no added signals. */
export function baseline(shipped) {
  return {
    ...clone(shipped),
    bm25f: { weights: [5, 2.5, 2, 1, 0, 0], b: [0.75, 0.75, 0.75, 0.75, 0.75, 0.75], k1: 1.2 },
    grouped: false,
    vocabulary: [],
    popularity: 0.12,
    virtual: 1,
    mention: 1.5,
    kindHint: 1.5,
    kindWord: 1,
    event: 1,
    synonym: 0,
    spelling: 0,
    bridge: 0,
    feedback: 0,
    proximity: 0,
    identifier: 0,
    identifierFuzzy: 0,
    identifierPrefix: 0,
    coverage: 0,
    wholeName: 0,
    classContext: 0,
  };
}

const set = (p, values) => Object.assign(p, values);
const pick = (from, keys) => Object.fromEntries(keys.map((k) => [k, from[k]]));

/** Each method: how to switch it on (taking the shipped value, or a trial value when it ships off) and off. */
export function methods(shipped) {
  const or = (value, trial) => (value > 0 && value !== 1 ? value : trial);
  const nameKeys = ['identifier', 'identifierFuzzy', 'identifierPrefix', 'wholeName', 'spelling'];
  return [
    {
      name: 'anchor text + code samples (document expansion)',
      on: (p) => ((p.bm25f.weights[4] = shipped.bm25f.weights[4]), (p.bm25f.weights[5] = shipped.bm25f.weights[5])),
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
        p.bm25f.b = [0.75, 0.75, 0.75, 0.75, 0.75, 0.75];
        p.bm25f.k1 = 1.2;
      },
    },
    {
      name: 'concepts (a word and its added words as one term)',
      on: (p) => set(p, { grouped: true }),
      off: (p) => set(p, { grouped: false }),
    },
    {
      name: 'pseudo-relevance feedback (RM3)',
      on: (p) => set(p, { feedback: or(shipped.feedback, 0.2) }),
      off: (p) => set(p, { feedback: 0 }),
    },
    { name: 'proximity', on: (p) => set(p, { proximity: or(shipped.proximity, 0.5) }), off: (p) => set(p, { proximity: 0 }) },
    {
      name: 'corpus-learned bridge (co-occurrence)',
      on: (p) => set(p, { bridge: or(shipped.bridge, 0.2) }),
      off: (p) => set(p, { bridge: 0 }),
    },
    // One switch per round of vocabulary tables (vocabulary/index.ts says how each was written).
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
    {
      name: 'virtual methods lowered',
      on: (p) => set(p, { virtual: shipped.virtual !== 1 ? shipped.virtual : 0.6 }),
      off: (p) => set(p, { virtual: 1 }),
    },
    { name: 'kind words as hints only', on: (p) => set(p, { kindWord: shipped.kindWord }), off: (p) => set(p, { kindWord: 1 }) },
    { name: 'event questions → signals', on: (p) => set(p, { event: or(shipped.event, 1.5) }), off: (p) => set(p, { event: 1 }) },
    {
      name: "class context (a member gets a share of its class's score)",
      on: (p) => set(p, { classContext: or(shipped.classContext, 0.2) }),
      off: (p) => set(p, { classContext: 0 }),
    },
    { name: 'coverage (coordination)', on: (p) => set(p, { coverage: or(shipped.coverage, 0.5) }), off: (p) => set(p, { coverage: 0 }) },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const plugin = await loadPlugin();
  const index = await sharedIndex(plugin);
  const sets = questionSets();
  const shipped = plugin.RANKING;
  const row = (label, params) => {
    const cells = ['dev', 'odd', 'even', 'own'].map((s) => fmt(evaluate(plugin, index, sets[s], params)));
    console.log(`| ${label} | ${cells.join(' | ')} |`);
  };
  console.log('| ranking | dev (120) | odd half (tuning) | even half (held out) | own 51 |');
  console.log('|---|---|---|---|---|');
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
    if (JSON.stringify(p) !== JSON.stringify(shipped)) row(`shipped − ${m.name}`, p);
    else {
      m.on(p);
      row(`shipped + ${m.name} (ships off)`, p);
    }
  }
}
