// Term statistics for a run of documents, built where the documents are parsed (in a worker or
// in the main thread) and handed over as flat typed arrays, which move between threads for free.
import type { DocFields } from './entries.js';
import { terms } from './tokenize.js';

/** Field weights: a hit in a symbol's name counts far more than one in its brief or description. */
export const FIELD_WEIGHTS: Readonly<Record<keyof DocFields, number>> = { name: 5, owner: 2.5, brief: 2, body: 1 };

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

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** Growable typed array: postings are appended one by one without boxing numbers. */
class Column<T extends Uint32Array | Float32Array> {
  data: T;
  length = 0;
  constructor(private readonly make: (n: number) => T) {
    this.data = make(1 << 14);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}

export class PartialIndex {
  private readonly vocab = new Map<string, number>();
  /** Word as written → its term ids (tokenizing and stemming each distinct word once). */
  private readonly wordIds = new Map<string, number[]>();
  private readonly postTerm = new Column((n) => new Uint32Array(n));
  private readonly postDoc = new Column((n) => new Uint32Array(n));
  private readonly postTf = new Column((n) => new Float32Array(n));
  private readonly lengths = new Column((n) => new Float32Array(n));
  /** Per-term frequency of the document being added, and the terms it touched. */
  private tf = new Float32Array(1 << 12);
  private readonly touched: number[] = [];

  get size(): number {
    return this.lengths.length;
  }

  private idsOf(word: string): number[] {
    let ids = this.wordIds.get(word);
    if (ids === undefined) {
      ids = terms(word).map((term) => {
        let id = this.vocab.get(term);
        if (id === undefined) {
          id = this.vocab.size;
          this.vocab.set(term, id);
          if (id >= this.tf.length) {
            const bigger = new Float32Array(this.tf.length * 2);
            bigger.set(this.tf);
            this.tf = bigger;
          }
        }
        return id;
      });
      this.wordIds.set(word, ids);
    }
    return ids;
  }

  /** Counts the words of text[from, to) with `weight`; returns their weighted length. */
  private scan(text: string, weight: number, from = 0, to = text.length): number {
    let length = 0;
    // Words are runs of [A-Za-z0-9_]; scanned by hand, as split() costs a regex and an array per text.
    for (let i = from; i < to;) {
      while (i < to && !isWordChar(text.charCodeAt(i))) i++;
      const start = i;
      while (i < to && isWordChar(text.charCodeAt(i))) i++;
      if (i === start) break;
      const ids = this.idsOf(text.slice(start, i));
      length += ids.length * weight;
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k];
        if (this.tf[id] === 0) this.touched.push(id);
        this.tf[id] += weight;
      }
    }
    return length;
  }

  /** Adds the next document; its local id is the number added before it. */
  add(fields: DocFields): void {
    const doc = this.lengths.length;
    const w = FIELD_WEIGHTS;
    let length = this.scan(fields.name, w.name) + this.scan(fields.owner, w.owner);
    if (fields.brief && fields.body.startsWith(fields.brief)) {
      // A member's brief is the first sentence of its body: one pass, with both weights there.
      length += this.scan(fields.body, w.brief + w.body, 0, fields.brief.length) + this.scan(fields.body, w.body, fields.brief.length);
    } else {
      length += this.scan(fields.brief, w.brief) + this.scan(fields.body, w.body);
    }
    this.lengths.push(length);
    for (const id of this.touched) {
      this.postTerm.push(id);
      this.postDoc.push(doc);
      this.postTf.push(this.tf[id]);
      this.tf[id] = 0;
    }
    this.touched.length = 0;
  }

  finish(): PartialData {
    return {
      vocab: [...this.vocab.keys()],
      terms: this.postTerm.done(),
      docs: this.postDoc.done(),
      tfs: this.postTf.done(),
      lengths: this.lengths.done(),
    };
  }
}

/** The buffers to transfer (not copy) when posting a PartialData to another thread. */
export function transferList(data: PartialData): ArrayBuffer[] {
  return [data.terms.buffer, data.docs.buffer, data.tfs.buffer, data.lengths.buffer] as ArrayBuffer[];
}
