// BM25F over a few hundred short documents (the published tools, their backends), with weighted
// query concepts: a concept is a word of the query together with words added for it (a verb's
// usual synonyms, what a hex literal stands for), scored as one term — its per-field frequencies
// are summed, each times its weight, and saturated once — so however many words a concept brings
// along it counts once (the godot plugin's query planner does the same). wink-bm25-text-search,
// which ranked the tools before, scores each query token on its own with no weight, so neither
// synonyms at a lower weight nor a concept counted once can be expressed with it.

export interface FieldSpec {
  /** How much a match in this field counts. */
  weight: number;
  /** Length normalisation (0: none, 1: full). */
  b: number;
}

/** A query concept: term → weight (1 for the user's own word), and the weight of the concept in the query. */
export interface Concept {
  terms: ReadonlyMap<string, number>;
  weight: number;
}

export class Bm25f<F extends string> {
  private readonly fields: F[];
  /** Per document, per field: term → frequency. */
  private readonly tf: Array<Record<F, Map<string, number>>>;
  private readonly length: Array<Record<F, number>>;
  private readonly average = {} as Record<F, number>;
  /** Term → number of documents holding it in any field. */
  private readonly df = new Map<string, number>();

  constructor(
    private readonly spec: Record<F, FieldSpec>,
    docs: ReadonlyArray<Record<F, readonly string[]>>,
    private readonly k1 = 1.2,
  ) {
    this.fields = Object.keys(spec) as F[];
    this.tf = docs.map((doc) => {
      const out = {} as Record<F, Map<string, number>>;
      for (const f of this.fields) {
        const counts = new Map<string, number>();
        for (const term of doc[f] ?? []) counts.set(term, (counts.get(term) ?? 0) + 1);
        out[f] = counts;
      }
      return out;
    });
    this.length = docs.map((doc) => Object.fromEntries(this.fields.map((f) => [f, doc[f]?.length ?? 0])) as Record<F, number>);
    for (const f of this.fields) {
      // Averaged over the documents that have the field at all (an empty title is not a short one).
      const lengths = this.length.map((l) => l[f]).filter((n) => n > 0);
      this.average[f] = lengths.length ? lengths.reduce((a, b) => a + b, 0) / lengths.length : 1;
    }
    for (const doc of this.tf) {
      const seen = new Set<string>();
      for (const f of this.fields) for (const term of doc[f].keys()) seen.add(term);
      for (const term of seen) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    }
  }

  get size(): number {
    return this.tf.length;
  }

  has(term: string): boolean {
    return this.df.has(term);
  }

  /** Robertson–Sparck Jones idf, floored at a small positive value (a word in every document still counts a little). */
  idf(term: string): number {
    const n = this.df.get(term) ?? 0;
    if (n === 0) return 0;
    return Math.max(0.05, Math.log(1 + (this.tf.length - n + 0.5) / (n + 0.5)));
  }

  /** A concept's idf: its own word's (weight 1), else that of its most specific added word. */
  private conceptIdf(c: Concept): number {
    let own = 0;
    let best = 0;
    for (const [term, w] of c.terms) {
      const idf = this.idf(term);
      if (w >= 1) own = Math.max(own, idf);
      best = Math.max(best, idf);
    }
    return own || best;
  }

  /** Per document, how many of the concepts it matches (any term, any field). */
  coverage(concepts: readonly Concept[]): Float64Array {
    const out = new Float64Array(this.tf.length);
    for (const c of concepts)
      for (let d = 0; d < this.tf.length; d++)
        if (this.fields.some((f) => [...c.terms.keys()].some((t) => this.tf[d][f].has(t)))) out[d] += 1;
    return out;
  }

  /** Every document's score for the concepts (0 for documents that match none). */
  scores(concepts: readonly Concept[]): Float64Array {
    const out = new Float64Array(this.tf.length);
    for (const c of concepts) {
      const idf = this.conceptIdf(c) * c.weight;
      if (idf <= 0) continue;
      for (let d = 0; d < this.tf.length; d++) {
        let tf = 0;
        for (const f of this.fields) {
          const counts = this.tf[d][f];
          let raw = 0;
          for (const [term, w] of c.terms) raw += w * (counts.get(term) ?? 0);
          if (raw === 0) continue;
          const { weight, b } = this.spec[f];
          tf += (weight * raw) / (1 - b + (b * this.length[d][f]) / this.average[f]);
        }
        if (tf > 0) out[d] += (idf * tf) / (this.k1 + tf);
      }
    }
    return out;
  }
}
