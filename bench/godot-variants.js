// Ranking methods of the godot search that were measured and do not ship, as variants the bench
// passes to search() (`options.variant`, which production never sets). Each takes a weight; the
// ablation (godot-ablation.js) tries them at a trial weight and the fit (godot-fit.js --variants)
// may take them. They work on what search() hands a variant: the planned query before scoring
// (expansion) and the ranked candidates with a way to score other concepts (re-ranking).
//   - third vocabulary round: bench/data/godot-vocabulary-third.tsv, after the shipped rounds;
//   - pseudo-relevance feedback (RM3-like): terms that weigh most in the top results, second pass;
//   - proximity: query terms next to each other in a name or summary raise the result;
//   - corpus bridge: the terms sharing the most documents with a rare query term join its concept;
//   - coverage: × (share of the query's concepts the document matches) ^ weight;
//   - class context: a member gets a share of its class's BM25F score;
//   - event: signals × weight when the question is about an event ("when", "once", "after");
//   - virtual: virtual methods (hooks to implement) × weight.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '../dist/plugins/godot');
const { terms } = await import(`${dist}/search-index/tokenize.js`);
const { kindsNamed } = await import(`${dist}/lookup/ranking.js`);
const { Vocabulary, parseVocabulary, shippedVocabulary } = await import(`${dist}/lookup/vocabulary.js`);

const byScore = (a, b) => b[1] - a[1] || a[0] - b[0];
const RERANK_DEPTH = 100;

/** The third round of vocabulary tables (ships off) after the shipped ones. */
export function thirdRoundVocabulary() {
  const file = path.join(here, 'data/godot-vocabulary-third.tsv');
  return new Vocabulary(shippedVocabulary().all()).add(parseVocabulary(readFileSync(file, 'utf8'), file));
}

function docTerms(index, id) {
  return [...terms(index.docs[id].name), ...terms(index.summary(id))];
}

/** RM3-like feedback: expansion terms from the top `docs` results, each its own concept, weighted `weight` at most. */
export function feedback(weight, docs = 3, count = 10) {
  return {
    depth: 10,
    rerank(ctx) {
      const { index, plan, ranked } = ctx;
      if (ranked.length === 0) return ranked;
      const best = ranked[0][1] || 1;
      const weights = new Map();
      for (const [id, score] of ranked.slice(0, docs)) {
        const words = docTerms(index, id);
        const counts = new Map();
        for (const t of words) {
          const tid = index.engine.termId(t);
          if (tid !== undefined && !plan.terms.has(tid)) counts.set(tid, (counts.get(tid) ?? 0) + 1);
        }
        for (const [tid, n] of counts)
          weights.set(tid, (weights.get(tid) ?? 0) + (n / words.length) * (score / best) * index.engine.idfOf(tid));
      }
      const top = [...weights].sort(byScore).slice(0, count);
      if (top.length === 0) return ranked;
      const max = top[0][1];
      const more = top.map(([tid, w]) => ({ terms: new Map([[tid, 1]]), idf: index.engine.idfOf(tid), weight: (weight * w) / max }));
      return ctx.score([...plan.concepts, ...more]);
    },
  };
}

/** Pairs of distinct query terms within two words of each other in the name or summary. */
function phrasePairs(index, id, own) {
  const positions = new Map();
  docTerms(index, id).forEach((t, i) => {
    if (own.includes(t)) (positions.get(t) ?? positions.set(t, []).get(t)).push(i);
  });
  const present = [...positions.values()];
  let pairs = 0;
  for (let a = 0; a < present.length; a++)
    for (let b = a + 1; b < present.length; b++) if (present[a].some((x) => present[b].some((y) => Math.abs(x - y) <= 2))) pairs++;
  return pairs;
}

export function proximity(weight) {
  return {
    depth: 30,
    rerank({ index, plan, ranked }) {
      if (plan.own.length < 2) return ranked;
      const pairs = plan.own.length - 1;
      return ranked.map(([id, s]) => [id, s * (1 + (weight * phrasePairs(index, id, plan.own)) / pairs)]).sort(byScore);
    },
  };
}

const forwards = new WeakMap();
/** Document → its term ids, from the engine's postings. */
function forward(index) {
  let f = forwards.get(index);
  if (f) return f;
  const { offsets, docs } = index.engine.arrays();
  const n = index.engine.docCount;
  const starts = new Uint32Array(n + 1);
  for (let p = 0; p < docs.length; p++) starts[docs[p] + 1]++;
  for (let d = 0; d < n; d++) starts[d + 1] += starts[d];
  const fill = starts.slice(0, n);
  const out = new Uint32Array(docs.length);
  for (let t = 0; t + 1 < offsets.length; t++) for (let p = offsets[t]; p < offsets[t + 1]; p++) out[fill[docs[p]]++] = t;
  forwards.set(index, (f = { offsets: starts, terms: out }));
  return f;
}

/** Terms sharing the most documents with `term` (Dice coefficient), for terms in 2–400 documents. */
function cooccurring(index, term, k) {
  const engine = index.engine;
  const df = engine.df(term);
  if (df < 2 || df > 400) return [];
  const { offsets, terms: docTermIds } = forward(index);
  const postings = engine.arrays();
  const shared = new Map();
  for (let q = postings.offsets[term]; q < postings.offsets[term + 1]; q++) {
    const d = postings.docs[q];
    for (let p = offsets[d]; p < offsets[d + 1]; p++)
      if (docTermIds[p] !== term) shared.set(docTermIds[p], (shared.get(docTermIds[p]) ?? 0) + 1);
  }
  return [...shared]
    .filter(([, n]) => n >= 2)
    .map(([u, n]) => [u, (2 * n) / (df + engine.df(u))])
    .sort(byScore)
    .slice(0, k);
}

/** The corpus bridge: the rarest six own terms bring their three best co-occurring terms into their concept. */
export function bridge(weight) {
  return {
    expand(index, plan) {
      const bridged = plan.concepts
        .map((concept) => ({ concept, own: [...concept.terms].find(([, w]) => w === 1)?.[0] }))
        .filter((c) => c.own !== undefined)
        .sort((a, b) => index.engine.df(a.own) - index.engine.df(b.own))
        .slice(0, 6);
      for (const { concept, own } of bridged) {
        const near = cooccurring(index, own, 3);
        const top = near[0]?.[1] ?? 1;
        for (const [u, score] of near) if (!concept.terms.has(u)) concept.terms.set(u, (weight * score) / top);
      }
    },
  };
}

/** Re-scores with the engine's raw match (BM25F before priors) at hand. */
function withMatch(ctx, fn) {
  const m = ctx.index.engine.match(ctx.plan.concepts);
  try {
    return fn(m);
  } finally {
    ctx.index.engine.clear(m);
  }
}

export function coverage(exponent) {
  return {
    depth: RERANK_DEPTH,
    rerank: (ctx) =>
      withMatch(ctx, (m) =>
        ctx.ranked.map(([id, s]) => [id, s * Math.min(1, m.cover[id] / (ctx.plan.ownWeight || 1)) ** exponent]).sort(byScore),
      ),
  };
}

const classDocs = new WeakMap();
function classDocOf(index) {
  let ids = classDocs.get(index);
  if (!ids) {
    ids = new Int32Array(index.classes.length).fill(-1);
    index.docs.forEach((d, id) => d.kind === 'class' && (ids[d.cls] = id));
    classDocs.set(index, ids);
  }
  return ids;
}

export function classContext(weight) {
  return {
    depth: RERANK_DEPTH,
    rerank: (ctx) =>
      withMatch(ctx, (m) => {
        const owners = classDocOf(ctx.index);
        return ctx.ranked
          .map(([id, s]) => {
            const owner = owners[ctx.index.docs[id].cls];
            const raw = m.scores[id];
            if (owner < 0 || owner === id || raw <= 0) return [id, s];
            return [id, s * (1 + (weight * m.scores[owner]) / raw)];
          })
          .sort(byScore);
      }),
  };
}

const EVENT_CLAUSE = new Set(['when', 'whenever', 'once', 'after']);
export function event(weight) {
  return {
    depth: RERANK_DEPTH,
    rerank({ index, plan, ranked }) {
      if (kindsNamed(plan.words).size > 0 || !plan.words.some((w) => EVENT_CLAUSE.has(w))) return ranked;
      return ranked.map(([id, s]) => [id, index.docs[id].kind === 'signal' ? s * weight : s]).sort(byScore);
    },
  };
}

export function virtual(weight) {
  return {
    depth: RERANK_DEPTH,
    rerank: ({ index, ranked }) => ranked.map(([id, s]) => [id, index.docs[id].virtual ? s * weight : s]).sort(byScore),
  };
}

/** Several variants as one: expansions in order, re-rankings in order, the largest depth. */
export function combine(variants) {
  const list = variants.filter(Boolean);
  if (list.length === 0) return undefined;
  const rerankers = list.filter((v) => v.rerank);
  return {
    vocabulary: list.find((v) => v.vocabulary)?.vocabulary,
    expand: (index, plan, params) => list.forEach((v) => v.expand?.(index, plan, params)),
    depth: Math.max(0, ...list.map((v) => v.depth ?? 0)),
    rerank: rerankers.length ? (ctx) => rerankers.reduce((ranked, v) => v.rerank({ ...ctx, ranked }), ctx.ranked) : undefined,
  };
}

/** Each variant: its name in the tables, the trial weight the ablation uses, and the weights the fit may try (0: off). */
export const VARIANTS = [
  { key: 'feedback', name: 'pseudo-relevance feedback (RM3)', trial: 0.2, values: [0, 0.1, 0.2, 0.4], make: feedback },
  { key: 'proximity', name: 'proximity', trial: 0.5, values: [0, 0.2, 0.5, 1], make: proximity },
  { key: 'bridge', name: 'corpus-learned bridge (co-occurrence)', trial: 0.2, values: [0, 0.1, 0.2, 0.4], make: bridge },
  { key: 'virtual', name: 'virtual methods lowered', trial: 0.6, values: [1, 0.8, 0.6, 0.4], make: virtual, off: 1 },
  { key: 'event', name: 'event questions → signals', trial: 1.5, values: [1, 1.3, 1.6, 2], make: event, off: 1 },
  {
    key: 'classContext',
    name: "class context (a member gets a share of its class's score)",
    trial: 0.2,
    values: [0, 0.1, 0.2, 0.4, 0.7],
    make: classContext,
  },
  { key: 'coverage', name: 'coverage (coordination)', trial: 0.5, values: [0, 0.5, 1], make: coverage },
];

/** The variant for a set of weights ({ feedback: 0.2, … }; a missing or off weight: that method off). */
export function variantOf(weights = {}, { third = false } = {}) {
  const parts = VARIANTS.filter((v) => weights[v.key] !== undefined && weights[v.key] !== (v.off ?? 0)).map((v) => v.make(weights[v.key]));
  if (third) parts.push({ vocabulary: thirdRoundVocabulary() });
  return combine(parts);
}
