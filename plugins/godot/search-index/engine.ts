// BM25F over typed arrays (Robertson & Zaragoza's "simple BM25F"): per term and document, the
// field frequencies are length-normalised per field, weighted and summed into one pseudo-frequency,
// which is then saturated once: w = idf · tf~ / (k1 + tf~), with
// tf~ = Σ_f weight_f · tf_f / (1 − b_f + b_f · len_f / avglen_f) and idf = ln((N − n + ½)/(n + ½) + 1).
// A query is a list of concepts (synonym groups, query.ts): the pseudo-frequencies of a concept's
// terms are summed, each times its weight in the concept, and saturated once, times the concept's
// idf — so a word and the words added for it count as one term.
// The index keeps raw field frequencies, so the weights, b and k1 (fitted by bench/godot-fit.js)
// are applied when the engine is tuned, not baked into the saved index: an engine scores nothing
// until `tune` gives it its numbers.
import type { Bm25fParams } from '../ranking-params.js';
import { FIELD_COUNT, type PartialData } from './partial.js';

export type { Bm25fParams };

/** One word of a query with the words added for it, matched as one term. */
export interface Concept {
  /** Term id → weight (1: the user's own term; less for added words). */
  terms: Map<number, number>;
  /** The idf the concept is scored with (its own term's, else its most specific term's). */
  idf: number;
  /** Weight of the concept in the query. */
  weight: number;
}

/** What a match filled in (views of the engine's scratch arrays, valid until `clear`). */
export interface MatchResult {
  docs: Uint32Array;
  count: number;
  scores: Float64Array;
  cover: Float64Array;
  names: Float64Array;
}

/** The persisted form of an engine: the vocabulary (JSON) beside one binary buffer. */
export interface EngineMeta {
  vocab: string[];
  postings: number;
  docCount: number;
  fields: number;
}

export class Engine {
  private readonly termIds: Map<string, number>;
  private readonly idf: Float32Array;
  private readonly avg = new Float64Array(FIELD_COUNT);
  /** Posting → tf~ under the current parameters. */
  private pseudo: Float32Array;
  private k1 = 1.2;
  private readonly scores: Float64Array;
  /** Per document: summed weight of the query terms it matched (scratch, zero between calls). */
  private readonly cover: Float64Array;
  /** Per document: weighted count of name terms the query matched (scratch). */
  private readonly names: Float64Array;
  /** The documents the current query touched (scratch). */
  private readonly touched: Uint32Array;
  /** Per document: the summed pseudo-frequency of the concept being matched, and the documents it touched (scratch). */
  private readonly conceptTf: Float64Array;
  private readonly conceptDocs: Uint32Array;

  constructor(private readonly data: PartialData) {
    const { vocab, offsets, lengths } = data;
    this.termIds = new Map(vocab.map((t, i) => [t, i]));
    const docCount = this.docCount;
    this.idf = new Float32Array(vocab.length);
    for (let t = 0; t < vocab.length; t++) {
      const df = offsets[t + 1] - offsets[t];
      this.idf[t] = Math.log((docCount - df + 0.5) / (df + 0.5) + 1);
    }
    // A field's average length over the documents that have it: the anchor and manual fields are
    // empty for most symbols, and an average over all of them would make every text they hold look long.
    const have = new Float64Array(FIELD_COUNT);
    for (let d = 0; d < docCount; d++) {
      for (let f = 0; f < FIELD_COUNT; f++) {
        const length = lengths[d * FIELD_COUNT + f];
        this.avg[f] += length;
        if (length > 0) have[f]++;
      }
    }
    for (let f = 0; f < FIELD_COUNT; f++) this.avg[f] = this.avg[f] / (have[f] || 1) || 1;
    this.pseudo = new Float32Array(data.docs.length);
    this.scores = new Float64Array(docCount);
    this.cover = new Float64Array(docCount);
    this.names = new Float64Array(docCount);
    this.touched = new Uint32Array(docCount);
    this.conceptTf = new Float64Array(docCount);
    this.conceptDocs = new Uint32Array(docCount);
  }

  get docCount(): number {
    return this.data.lengths.length / FIELD_COUNT;
  }

  get termCount(): number {
    return this.data.vocab.length;
  }

  /** The parameters applied now (none until the first `tune`). */
  params?: Bm25fParams;

  /** Applies field weights, b and k1 unless they are already the ones in use (the fit script tries many). */
  tune(params: Bm25fParams): void {
    if (params === this.params) return;
    this.params = params;
    const { docs, tfs, lengths } = this.data;
    const norm = new Float64Array(this.docCount * FIELD_COUNT);
    for (let d = 0; d < this.docCount; d++) {
      for (let f = 0; f < FIELD_COUNT; f++) {
        const b = params.b[f];
        norm[d * FIELD_COUNT + f] = params.weights[f] / (1 - b + (b * lengths[d * FIELD_COUNT + f]) / this.avg[f]);
      }
    }
    for (let p = 0; p < docs.length; p++) {
      const base = docs[p] * FIELD_COUNT;
      let sum = 0;
      for (let f = 0; f < FIELD_COUNT; f++) {
        const tf = tfs[p * FIELD_COUNT + f];
        if (tf) sum += tf * norm[base + f];
      }
      this.pseudo[p] = sum;
    }
    this.k1 = params.k1;
  }

  termId(term: string): number | undefined {
    return this.termIds.get(term);
  }

  term(id: number): string {
    return this.data.vocab[id];
  }

  /** How many terms field `field` of a document holds. */
  fieldLength(doc: number, field: number): number {
    return this.data.lengths[doc * FIELD_COUNT + field];
  }

  /** In how many documents the term occurs. */
  df(termId: number): number {
    return this.data.offsets[termId + 1] - this.data.offsets[termId];
  }

  idfOf(termId: number): number {
    return this.idf[termId];
  }

  /** Field frequencies of a term in one document (zeros when it does not occur there). */
  fieldTfs(termId: number, doc: number): number[] {
    const { offsets, docs, tfs } = this.data;
    let lo = offsets[termId];
    let hi = offsets[termId + 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid] < doc) lo = mid + 1;
      else hi = mid;
    }
    if (lo === offsets[termId + 1] || docs[lo] !== doc) return new Array<number>(FIELD_COUNT).fill(0);
    return Array.from(tfs.subarray(lo * FIELD_COUNT, (lo + 1) * FIELD_COUNT));
  }

  /**
   * Scores a query (its concepts) into the engine's scratch arrays and returns them: `docs[0 … count)`
   * are the matching documents; for each, `scores[d]` is its BM25F score, `cover[d]` the summed weight
   * of the concepts it matched, `names[d]` the weighted count of its name's terms the query holds (see
   * nameShare). Typed arrays, not a callback per document: a score passed to a function is boxed, and
   * a query touches thousands of documents. Call `clear(result)` when done.
   */
  match(concepts: readonly Concept[]): MatchResult {
    const { offsets, docs, tfs } = this.data;
    const { scores, cover, names, touched, conceptTf, conceptDocs, pseudo } = this;
    let count = 0;
    for (const concept of concepts) {
      let n = 0;
      for (const [t, weight] of concept.terms) {
        for (let p = offsets[t], end = offsets[t + 1]; p < end; p++) {
          const tf = pseudo[p];
          if (tf === 0) continue;
          const d = docs[p];
          if (conceptTf[d] === 0) conceptDocs[n++] = d;
          conceptTf[d] += weight * tf;
          // Field 0 is the name.
          const inName = tfs[p * FIELD_COUNT];
          if (inName) names[d] += weight * inName;
        }
      }
      const w = concept.weight * concept.idf;
      for (let k = 0; k < n; k++) {
        const d = conceptDocs[k];
        const tf = conceptTf[d];
        conceptTf[d] = 0;
        if (cover[d] === 0) touched[count++] = d;
        cover[d] += concept.weight;
        scores[d] += (w * tf) / (this.k1 + tf);
      }
    }
    return { docs: touched, count, scores, cover, names };
  }

  /**
   * Share of a document's name terms that the query holds (1: the query spells the whole name, as
   * `signal pressed` does BaseButton.pressed).
   */
  nameShare(result: MatchResult, doc: number): number {
    const length = this.data.lengths[doc * FIELD_COUNT];
    return length ? Math.min(1, result.names[doc] / length) : 0;
  }

  /** Zeroes the scratch arrays a match filled. */
  clear(result: MatchResult): void {
    for (let k = 0; k < result.count; k++) {
      const d = result.docs[k];
      result.scores[d] = 0;
      result.cover[d] = 0;
      result.names[d] = 0;
    }
  }

  meta(): EngineMeta {
    return { vocab: this.data.vocab, postings: this.data.docs.length, docCount: this.docCount, fields: FIELD_COUNT };
  }

  /** The arrays the index file stores (persist.ts lays them out). */
  arrays(): PartialData {
    return this.data;
  }
}
