// Term statistics of the documents, field by field: for every (term, document) pair, how often the
// term occurs in each field; for every document, how many terms each field holds. Field weights and
// length normalisation are applied at query time (engine.ts), so the fit script can try other ones
// on the same index.
import { FIELD_NAMES, type DocFields } from './entries.js';
import { terms } from './tokenize.js';

export const FIELD_COUNT = FIELD_NAMES.length;
/** Term frequencies are stored in one byte per field. */
const MAX_TF = 255;
/** Field lengths are stored in two bytes. */
const MAX_LENGTH = 65535;

export interface PartialData {
  vocab: string[];
  /** Per term: where its postings start in `docs` (length: terms + 1). */
  offsets: Uint32Array;
  /** Posting → document, ascending within a term. */
  docs: Uint32Array;
  /** Posting → FIELD_COUNT term frequencies. */
  tfs: Uint8Array;
  /** Document → FIELD_COUNT field lengths (in terms). */
  lengths: Uint16Array;
}

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** Growable typed array: postings are appended one by one without boxing numbers. */
class Column<T extends Uint32Array | Uint8Array | Uint16Array> {
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
  private readonly postTf = new Column((n) => new Uint8Array(n));
  private readonly lengths = new Column((n) => new Uint16Array(n));
  /** Per-term, per-field frequency of the document being added, and the terms it touched. */
  private tf = new Uint16Array(FIELD_COUNT << 12);
  private mark = new Uint8Array(1 << 12);
  private readonly touched: number[] = [];
  private docCount = 0;

  get size(): number {
    return this.docCount;
  }

  private idsOf(word: string): number[] {
    let ids = this.wordIds.get(word);
    if (ids === undefined) {
      ids = terms(word).map((term) => {
        let id = this.vocab.get(term);
        if (id === undefined) {
          id = this.vocab.size;
          this.vocab.set(term, id);
          if (id >= this.mark.length) {
            const tf = new Uint16Array(this.tf.length * 2);
            tf.set(this.tf);
            this.tf = tf;
            const mark = new Uint8Array(this.mark.length * 2);
            mark.set(this.mark);
            this.mark = mark;
          }
        }
        return id;
      });
      this.wordIds.set(word, ids);
    }
    return ids;
  }

  /** Counts the words of `text` into field `field`; returns how many terms it held. */
  private scan(text: string, field: number): number {
    let length = 0;
    // Words are runs of [A-Za-z0-9_]; scanned by hand, as split() costs a regex and an array per text.
    for (let i = 0; i < text.length;) {
      while (i < text.length && !isWordChar(text.charCodeAt(i))) i++;
      const start = i;
      while (i < text.length && isWordChar(text.charCodeAt(i))) i++;
      if (i === start) break;
      const ids = this.idsOf(text.slice(start, i));
      length += ids.length;
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k];
        if (this.mark[id] === 0) {
          this.mark[id] = 1;
          this.touched.push(id);
        }
        if (this.tf[id * FIELD_COUNT + field] < MAX_TF) this.tf[id * FIELD_COUNT + field]++;
      }
    }
    return length;
  }

  /** Adds the next document; its id is the number added before it. */
  add(fields: DocFields): void {
    const doc = this.docCount++;
    FIELD_NAMES.forEach((name, f) => this.lengths.push(Math.min(MAX_LENGTH, this.scan(fields[name], f))));
    for (const id of this.touched) {
      this.postTerm.push(id);
      this.postDoc.push(doc);
      const slot = id * FIELD_COUNT;
      this.mark[id] = 0;
      for (let f = 0; f < FIELD_COUNT; f++) {
        this.postTf.push(this.tf[slot + f]);
        this.tf[slot + f] = 0;
      }
    }
    this.touched.length = 0;
  }

  /** The postings grouped by term (documents ascending within each term). */
  finish(): PartialData {
    const termCount = this.vocab.size;
    const postTerm = this.postTerm.data;
    const n = this.postTerm.length;
    const offsets = new Uint32Array(termCount + 1);
    for (let p = 0; p < n; p++) offsets[postTerm[p] + 1]++;
    for (let t = 0; t < termCount; t++) offsets[t + 1] += offsets[t];
    const fill = offsets.slice(0, termCount);
    const docs = new Uint32Array(n);
    const tfs = new Uint8Array(n * FIELD_COUNT);
    const srcDocs = this.postDoc.data;
    const srcTfs = this.postTf.data;
    // Postings were appended in document order, so a stable counting sort keeps documents ascending.
    for (let p = 0; p < n; p++) {
      const at = fill[postTerm[p]]++;
      docs[at] = srcDocs[p];
      tfs.set(srcTfs.subarray(p * FIELD_COUNT, (p + 1) * FIELD_COUNT), at * FIELD_COUNT);
    }
    return { vocab: [...this.vocab.keys()], offsets, docs, tfs, lengths: this.lengths.done() };
  }
}

/** The buffers to transfer (not copy) when posting a PartialData to another thread. */
export function transferList(data: PartialData): ArrayBuffer[] {
  return [data.offsets.buffer, data.docs.buffer, data.tfs.buffer, data.lengths.buffer] as ArrayBuffer[];
}
