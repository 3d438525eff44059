// BM25F ranking over typed arrays. It computes what wink-bm25-text-search computes (field-weighted
// term frequency, idf = ln((N − n + ½)/(n + ½) + 1), k1 = 1.2, b = 0.75), but keeps postings in
// flat arrays instead of one object per document: on Godot's ~24k symbols wink needed ~0.4 s and
// ~100 MB of heap to build (README, "Why not wink-bm25-text-search"); this merges the parse
// workers' partial statistics in tens of milliseconds and loads from disk as-is.
import type { PartialData } from './partial.js';
import { terms } from './tokenize.js';

export { FIELD_WEIGHTS } from './partial.js';

const K1 = 1.2;
const B = 0.75;

/** The persisted form of an engine: the vocabulary (JSON) beside one binary buffer. */
export interface EngineMeta {
  vocab: string[];
  postings: number;
  docCount: number;
}

const HEADER = 32;
const MAGIC = 'GDIDX001';

/** A partial index and where its local documents went: global id, or -1 when dropped. */
export interface MergePart {
  data: PartialData;
  docMap: Int32Array;
}

/** Merges partial statistics into one engine over `docCount` documents. */
export function mergePartials(parts: MergePart[], docCount: number): Engine {
  const vocab = new Map<string, number>();
  const remaps = parts.map(({ data }) =>
    Uint32Array.from(data.vocab, (term) => {
      let id = vocab.get(term);
      if (id === undefined) {
        id = vocab.size;
        vocab.set(term, id);
      }
      return id;
    }),
  );
  const lengths = new Float64Array(docCount);
  let total = 0;
  for (const { data, docMap } of parts) {
    for (let l = 0; l < docMap.length; l++) if (docMap[l] >= 0) lengths[docMap[l]] = data.lengths[l];
  }
  const avg = docCount ? lengths.reduce((a, b) => a + b, 0) / docCount || 1 : 1;
  const termCount = vocab.size;
  const offsets = new Uint32Array(termCount + 1);
  parts.forEach(({ data, docMap }, k) => {
    for (let p = 0; p < data.terms.length; p++) {
      if (docMap[data.docs[p]] < 0) continue;
      offsets[remaps[k][data.terms[p]] + 1]++;
      total++;
    }
  });
  for (let t = 0; t < termCount; t++) offsets[t + 1] += offsets[t];
  const docs = new Uint32Array(total);
  const weights = new Float32Array(total);
  const fill = offsets.slice(0, termCount);
  parts.forEach(({ data, docMap }, k) => {
    const remap = remaps[k];
    for (let p = 0; p < data.terms.length; p++) {
      const d = docMap[data.docs[p]];
      if (d < 0) continue;
      const t = remap[data.terms[p]];
      const df = offsets[t + 1] - offsets[t];
      const idf = Math.log((docCount - df + 0.5) / (df + 0.5) + 1);
      const norm = 1 - B + B * (lengths[d] / avg);
      const freq = data.tfs[p];
      const at = fill[t]++;
      docs[at] = d;
      weights[at] = ((freq * (K1 + 1)) / (K1 * norm + freq)) * idf;
    }
  });
  return new Engine([...vocab.keys()], offsets, docs, weights, docCount);
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

  /** Calls `visit` once for every document matching a query term, with its BM25F score. */
  match(query: string, visit: (doc: number, score: number) => void): void {
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
    for (const id of ids) {
      visit(id, scores[id]);
      scores[id] = 0;
    }
  }

  meta(): EngineMeta {
    return { vocab: this.vocab, postings: this.postingDocs.length, docCount: this.docCount };
  }

  /** Offsets, posting documents and weights in one buffer, after a header naming the build. */
  toBinary(buildId: string): Buffer {
    const parts = [this.offsets, this.postingDocs, this.weights];
    const out = Buffer.alloc(HEADER + parts.reduce((n, a) => n + a.byteLength, 0));
    out.write(`${MAGIC}${buildId}`.padEnd(HEADER).slice(0, HEADER), 0, 'latin1');
    let at = HEADER;
    for (const a of parts) {
      out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
      at += a.byteLength;
    }
    return out;
  }

  /** The inverse of toBinary; undefined when the buffer is not the one this metadata describes. */
  static fromBinary(meta: EngineMeta, buildId: string, buf: Buffer): Engine | undefined {
    const terms = meta.vocab.length;
    const expected = HEADER + 4 * (terms + 1) + 8 * meta.postings;
    if (buf.length !== expected || buf.toString('latin1', 0, HEADER) !== `${MAGIC}${buildId}`.padEnd(HEADER).slice(0, HEADER))
      return undefined;
    // Typed arrays need 4-byte alignment: copy when the buffer does not start on one.
    const bytes = buf.byteOffset % 4 === 0 ? buf : Buffer.from(buf);
    const view = <T>(Type: new (b: ArrayBufferLike, o: number, n: number) => T, offset: number, n: number) =>
      new Type(bytes.buffer, bytes.byteOffset + offset, n);
    const offsets = view(Uint32Array, HEADER, terms + 1);
    const docs = view(Uint32Array, HEADER + 4 * (terms + 1), meta.postings);
    const weights = view(Float32Array, HEADER + 4 * (terms + 1) + 4 * meta.postings, meta.postings);
    return new Engine(meta.vocab, offsets, docs, weights, meta.docCount);
  }
}
