// Puts partial term statistics together: the runs of class files parsed in order (each a partial
// index over its own documents, some of them dropped: broken or duplicate classes), then the anchor
// and manual fields, indexed once every description was read. Runs cover contiguous, ordered ranges of
// documents, so each term's postings come out ascending by concatenation; the anchor postings are
// then merged in, adding their field to the same (term, document) posting.
import { FIELD_COUNT, type PartialData } from './partial.js';

/** A partial index and where its local documents went: global id, or -1 when dropped. */
export interface MergePart {
  data: PartialData;
  docMap: Int32Array;
}

function remap(vocab: Map<string, number>, terms: string[]): Uint32Array {
  return Uint32Array.from(terms, (term) => {
    let id = vocab.get(term);
    if (id === undefined) {
      id = vocab.size;
      vocab.set(term, id);
    }
    return id;
  });
}

/** The runs' postings grouped by global term, ascending by document, and every document's field lengths. */
function concatenate(parts: MergePart[], vocab: Map<string, number>, docCount: number): PartialData {
  const remaps = parts.map((p) => remap(vocab, p.data.vocab));
  const lengths = new Uint16Array(docCount * FIELD_COUNT);
  const counts = new Uint32Array(vocab.size + 1);
  parts.forEach(({ data, docMap }, k) => {
    for (let l = 0; l < docMap.length; l++) {
      if (docMap[l] >= 0) lengths.set(data.lengths.subarray(l * FIELD_COUNT, (l + 1) * FIELD_COUNT), docMap[l] * FIELD_COUNT);
    }
    for (let t = 0; t < data.vocab.length; t++) {
      for (let p = data.offsets[t]; p < data.offsets[t + 1]; p++) if (docMap[data.docs[p]] >= 0) counts[remaps[k][t] + 1]++;
    }
  });
  for (let t = 0; t < vocab.size; t++) counts[t + 1] += counts[t];
  const fill = counts.slice(0, vocab.size);
  const docs = new Uint32Array(counts[vocab.size]);
  const tfs = new Uint8Array(docs.length * FIELD_COUNT);
  parts.forEach(({ data, docMap }, k) => {
    for (let t = 0; t < data.vocab.length; t++) {
      const g = remaps[k][t];
      for (let p = data.offsets[t]; p < data.offsets[t + 1]; p++) {
        const d = docMap[data.docs[p]];
        if (d < 0) continue;
        const at = fill[g]++;
        docs[at] = d;
        tfs.set(data.tfs.subarray(p * FIELD_COUNT, (p + 1) * FIELD_COUNT), at * FIELD_COUNT);
      }
    }
  });
  return { vocab: [...vocab.keys()], offsets: counts, docs, tfs, lengths };
}

/** Merges the runs (in document order) and a partial over all documents that holds only their anchor and manual fields. */
export function mergePartials(parts: MergePart[], anchors: PartialData, docCount: number): PartialData {
  const vocab = new Map<string, number>();
  const main = concatenate(parts, vocab, docCount);
  // The runs' arrays are copied: let them go before the merge allocates its own.
  parts.length = 0;
  const anchorIds = remap(vocab, anchors.vocab);
  const termCount = vocab.size;
  // Per global term, the anchor term feeding it (or -1).
  const fromAnchor = new Int32Array(termCount).fill(-1);
  anchorIds.forEach((g, t) => (fromAnchor[g] = t));
  // Two passes over the same merge: count the postings (a document in both is one), then fill them.
  const offsets = new Uint32Array(termCount + 1);
  let docs = new Uint32Array(0);
  let tfs = new Uint8Array(0);
  for (const fill of [false, true]) {
    let at = 0;
    for (let g = 0; g < termCount; g++) {
      let p = g < main.offsets.length - 1 ? main.offsets[g] : 0;
      const pEnd = g < main.offsets.length - 1 ? main.offsets[g + 1] : 0;
      const t = fromAnchor[g];
      let q = t >= 0 ? anchors.offsets[t] : 0;
      const qEnd = t >= 0 ? anchors.offsets[t + 1] : 0;
      while (p < pEnd || q < qEnd) {
        const fromMain = q >= qEnd || (p < pEnd && main.docs[p] <= anchors.docs[q]);
        const fromAnchors = p >= pEnd || (q < qEnd && anchors.docs[q] <= main.docs[p]);
        if (fill) {
          docs[at] = fromMain ? main.docs[p] : anchors.docs[q];
          // A document in both: its anchor and manual fields join the posting of its other fields.
          for (let f = 0; f < FIELD_COUNT; f++) {
            tfs[at * FIELD_COUNT + f] =
              (fromMain ? main.tfs[p * FIELD_COUNT + f] : 0) + (fromAnchors ? anchors.tfs[q * FIELD_COUNT + f] : 0);
          }
        }
        if (fromMain) p++;
        if (fromAnchors) q++;
        at++;
      }
      if (fill) offsets[g + 1] = at;
    }
    if (!fill) {
      docs = new Uint32Array(at);
      tfs = new Uint8Array(at * FIELD_COUNT);
    }
  }
  for (let i = 0; i < main.lengths.length; i++) main.lengths[i] += anchors.lengths[i];
  return { vocab: [...vocab.keys()], offsets, docs, tfs, lengths: main.lengths };
}
