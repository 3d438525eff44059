// Relevance figures as retrieval benchmarks report them: hit@1, hit@3, hit@5 and MRR (first relevant
// result within the first 10), each with a 95 % interval — a percentile bootstrap over the
// questions (2,000 resamples, a fixed seed, so a run is repeatable). Used by the discover and godot
// benches; ranks are 1-based, 0 for "not in the first 10".

/** A small seeded PRNG (mulberry32): the same resamples in every run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const METRICS = {
  hit1: (r) => (r === 1 ? 1 : 0),
  hit3: (r) => (r >= 1 && r <= 3 ? 1 : 0),
  hit5: (r) => (r >= 1 && r <= 5 ? 1 : 0),
  mrr: (r) => (r >= 1 && r <= 10 ? 1 / r : 0),
};

/** { n, hit1: { value, low, high }, hit3, hit5, mrr } for a list of ranks. */
export function relevance(ranks, { resamples = 2000, seed = 38 } = {}) {
  const n = ranks.length;
  const out = { n };
  const random = rng(seed);
  const samples = Array.from({ length: resamples }, () => Array.from({ length: n }, () => ranks[Math.floor(random() * n)]));
  for (const [name, f] of Object.entries(METRICS)) {
    const mean = (list) => (list.length ? list.reduce((s, r) => s + f(r), 0) / list.length : 0);
    const boot = samples.map(mean).sort((a, b) => a - b);
    out[name] = { value: mean(ranks), low: boot[Math.floor(0.025 * resamples)], high: boot[Math.ceil(0.975 * resamples) - 1] };
  }
  return out;
}

const pct = (x) => `${(x * 100).toFixed(1)}`;
const f3 = (x) => x.toFixed(3);

/** `n=40  hit@1 72.5 % [57.5–85.0]  hit@3 …  MRR 0.812 [0.71–0.90]` */
export function relevanceLine(r) {
  const p = (m) => `${pct(m.value)} % [${pct(m.low)}–${pct(m.high)}]`;
  return `n=${r.n}  hit@1 ${p(r.hit1)}  hit@3 ${p(r.hit3)}  hit@5 ${p(r.hit5)}  MRR ${f3(r.mrr.value)} [${f3(r.mrr.low)}–${f3(r.mrr.high)}]`;
}

/** The rank (1-based, 0 when absent) of the first result that is one of `expected`, within the first 10. */
export function rankOf(names, expected) {
  const want = new Set(expected.map((e) => e.toLowerCase()));
  const at = names.slice(0, 10).findIndex((n) => want.has(n.toLowerCase()));
  return at + 1;
}
