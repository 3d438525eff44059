// Term statistics for a run of documents, built where the documents are parsed (in a worker or
// in the main thread) and handed over as flat typed arrays, which move between threads for free.
import type { DocFields } from './entries.js';
import { terms } from './tokenize.js';

/** Field weights: a hit in a symbol's name counts far more than one in its brief or description. */
export const FIELD_WEIGHTS: Readonly<Record<keyof DocFields, number>> = { name: 5, owner: 2.5, brief: 2, body: 1 };
const FIELDS = Object.keys(FIELD_WEIGHTS) as Array<keyof DocFields>;

export interface PartialData {
  /** Local term id → term. */
  vocab: string[];
  /** One posting per (document, term): local term id, local document id, weighted frequency. */
  terms: Uint32Array;
  docs: Uint32Array;
  tfs: Float32Array;
  /** Weighted length of each local document. */
  lengths: Float32Array;
}

export class PartialIndex {
  private readonly vocab = new Map<string, number>();
  private postTerm: number[] = [];
  private postDoc: number[] = [];
  private postTf: number[] = [];
  private lengths: number[] = [];
  private readonly tf = new Map<number, number>();

  get size(): number {
    return this.lengths.length;
  }

  /** Adds the next document; its local id is the number added before it. */
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

  finish(): PartialData {
    const out: PartialData = {
      vocab: [...this.vocab.keys()],
      terms: Uint32Array.from(this.postTerm),
      docs: Uint32Array.from(this.postDoc),
      tfs: Float32Array.from(this.postTf),
      lengths: Float32Array.from(this.lengths),
    };
    this.postTerm = this.postDoc = this.postTf = this.lengths = [];
    return out;
  }
}

/** The buffers to transfer (not copy) when posting a PartialData to another thread. */
export function transferList(data: PartialData): ArrayBuffer[] {
  return [data.terms.buffer, data.docs.buffer, data.tfs.buffer, data.lengths.buffer] as ArrayBuffer[];
}
