// BM25F ranking over typed arrays. It computes exactly what wink-bm25-text-search computes
// (field-weighted term frequency, idf = ln((N − n + ½)/(n + ½) + 1), k1 = 1.2, b = 0.75), but keeps
// postings in flat arrays instead of one object per document: on Godot's ~24k symbols wink took
// ~450 ms and ~100 MB of heap to build, this takes a fraction of both and loads from disk as-is.
// (Measured figures: plugins/godot/README.md, "Why not wink-bm25-text-search".)
import type { DocFields } from './entries.js';
import { terms } from './tokenize.js';

/** Field weights: a hit in a symbol's name counts far more than one in its brief or description. */
export const FIELD_WEIGHTS: Readonly<Record<keyof DocFields, number>> = { name: 5, owner: 2.5, brief: 2, body: 1 };
const FIELDS = Object.keys(FIELD_WEIGHTS) as Array<keyof DocFields>;
const K1 = 1.2;
const B = 0.75;

/** The persisted form of an engine (typed arrays as base64). */
export interface EngineData {
  vocab: string[];
  offsets: string;
  docs: string;
  weights: string;
  docCount: number;
}

export class EngineBuilder {
  private readonly vocab = new Map<string, number>();
  private postTerm: number[] = [];
  private postDoc: number[] = [];
  private postTf: number[] = [];
  private readonly lengths: number[] = [];
  private readonly tf = new Map<number, number>();

  /** Adds the next document; its id is the number of documents added before it. */
  add(fields: DocFields): void {
    const doc = this.lengths.length;
    const tf = this.tf;
    tf.clear();
    let length = 0;
    for (const field of FIELDS) {
      const weight = FIELD_WEIGHTS[field];
      const tokens = terms(fields[field]);
      length += tokens.length * weight;
      for (const token of tokens) {
        let id = this.vocab.get(token);
        if (id === undefined) {
          id = this.vocab.size;
          this.vocab.set(token, id);
        }
        tf.set(id, (tf.get(id) ?? 0) + weight);
      }
    }
    this.lengths.push(length);
    for (const [term, freq] of tf) {
      this.postTerm.push(term);
      this.postDoc.push(doc);
      this.postTf.push(freq);
    }
  }

  /** Computes idf and normalised weights and lays postings out term by term. */
  finish(): Engine {
    const n = this.lengths.length;
    const termCount = this.vocab.size;
    const total = this.postTerm.length;
    const offsets = new Uint32Array(termCount + 1);
    for (let i = 0; i < total; i++) offsets[this.postTerm[i] + 1]++;
    for (let t = 0; t < termCount; t++) offsets[t + 1] += offsets[t];
    const avg = n === 0 ? 1 : this.lengths.reduce((a, b) => a + b, 0) / n || 1;
    const docs = new Uint32Array(total);
    const weights = new Float32Array(total);
    const fill = offsets.slice(0, termCount);
    for (let i = 0; i < total; i++) {
      const t = this.postTerm[i];
      const d = this.postDoc[i];
      const df = offsets[t + 1] - offsets[t];
      const idf = Math.log((n - df + 0.5) / (df + 0.5) + 1);
      const norm = 1 - B + B * (this.lengths[d] / avg);
      const freq = this.postTf[i];
      const at = fill[t]++;
      docs[at] = d;
      weights[at] = ((freq * (K1 + 1)) / (K1 * norm + freq)) * idf;
    }
    this.postTerm = this.postDoc = this.postTf = [];
    return new Engine([...this.vocab.keys()], offsets, docs, weights, n);
  }
}

export class Engine {
  private readonly termIds: Map<string, number>;
  private readonly scores: Float32Array;

  constructor(
    private readonly vocab: string[],
    private readonly offsets: Uint32Array,
    private readonly postingDocs: Uint32Array,
    private readonly weights: Float32Array,
    readonly docCount: number,
  ) {
    this.termIds = new Map(vocab.map((t, i) => [t, i]));
    this.scores = new Float32Array(docCount);
  }

  /** The query's distinct index terms that occur in the corpus. */
  queryTerms(query: string): string[] {
    return [...new Set(terms(query))].filter((t) => this.termIds.has(t));
  }

  /** Every document matching a query term, with its BM25F score (unsorted). */
  match(query: string): { ids: number[]; scores: Float32Array } {
    const scores = this.scores;
    const ids: number[] = [];
    for (const term of this.queryTerms(query)) {
      const t = this.termIds.get(term)!;
      for (let p = this.offsets[t], end = this.offsets[t + 1]; p < end; p++) {
        const d = this.postingDocs[p];
        if (scores[d] === 0) ids.push(d);
        scores[d] += this.weights[p];
      }
    }
    const out = new Float32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      out[i] = scores[ids[i]];
      scores[ids[i]] = 0;
    }
    return { ids, scores: out };
  }

  toData(): EngineData {
    const b64 = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
    return { vocab: this.vocab, offsets: b64(this.offsets), docs: b64(this.postingDocs), weights: b64(this.weights), docCount: this.docCount };
  }

  static fromData(data: EngineData): Engine {
    const bytes = (s: string) => {
      const buf = Buffer.from(s, 'base64');
      // Copy into a fresh, aligned buffer: Buffer's pool offset may not be a multiple of 4.
      return new Uint8Array(buf).buffer;
    };
    return new Engine(data.vocab, new Uint32Array(bytes(data.offsets)), new Uint32Array(bytes(data.docs)), new Float32Array(bytes(data.weights)), data.docCount);
  }
}
