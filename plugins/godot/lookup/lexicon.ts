// Word lists derived from a loaded index on first use and kept beside it: the words of the
// reference's names (for fixing a query's misspelled words), and each document's terms (for the
// corpus bridge).
import type { DocIndex } from '../index/doc-index.js';
import { terms } from '../index/tokenize.js';
import { editDistance } from './suggest.js';

const lexicons = new WeakMap<DocIndex, Map<string, string[]>>();

/** Lowercase parts of an identifier: `get_global_position` → get, global, position; `AnimationPlayer` → animation, player. */
function nameParts(name: string, out: Set<string>): void {
  let start = 0;
  const flush = (end: number) => {
    if (end - start >= 3) out.add(name.slice(start, end).toLowerCase());
    start = end;
  };
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    const letter = upper || (c >= 97 && c <= 122);
    if (!letter) {
      flush(i);
      start = i + 1;
    } else if (upper && i > start) {
      const prev = name.charCodeAt(i - 1);
      const next = name.charCodeAt(i + 1);
      // A capital starts a word after a lowercase letter (animationPlayer), or ends a run of capitals (HTTPRequest).
      if ((prev >= 97 && prev <= 122) || (next >= 97 && next <= 122)) flush(i);
    }
  }
  flush(name.length);
}

/** The words of the reference's symbol names, grouped by first letter (built on first use). */
function lexicon(index: DocIndex): Map<string, string[]> {
  let byLetter = lexicons.get(index);
  if (byLetter) return byLetter;
  const words = new Set<string>();
  for (const name of index.byName.keys()) nameParts(name, words);
  for (const cls of index.classes) nameParts(cls.name, words);
  byLetter = new Map();
  for (const w of words) {
    const list = byLetter.get(w[0]);
    if (list) list.push(w);
    else byLetter.set(w[0], [w]);
  }
  lexicons.set(index, byLetter);
  return byLetter;
}

/** The reference's closest spelling of a word it does not use (same first letter; 1 edit, 2 for 8+ letters). */
export function correctSpelling(index: DocIndex, word: string): string | undefined {
  const limit = word.length >= 8 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of lexicon(index).get(word[0]) ?? []) {
    if (Math.abs(candidate.length - word.length) > limit) continue;
    const d = editDistance(word, candidate, limit);
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate.length > best.length)) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

interface Forward {
  offsets: Uint32Array;
  terms: Uint32Array;
}

const forwards = new WeakMap<DocIndex, Forward>();

/** Document → its term ids, from the engine's postings (built on first use, ~4 bytes per posting). */
function forward(index: DocIndex): Forward {
  let f = forwards.get(index);
  if (f) return f;
  const { offsets, docs } = index.engine.arrays();
  const docCount = index.engine.docCount;
  const starts = new Uint32Array(docCount + 1);
  for (let p = 0; p < docs.length; p++) starts[docs[p] + 1]++;
  for (let d = 0; d < docCount; d++) starts[d + 1] += starts[d];
  const fill = starts.slice(0, docCount);
  const out = new Uint32Array(docs.length);
  for (let t = 0; t + 1 < offsets.length; t++) for (let p = offsets[t]; p < offsets[t + 1]; p++) out[fill[docs[p]]++] = t;
  f = { offsets: starts, terms: out };
  forwards.set(index, f);
  return f;
}

/** Terms that occur in at most this many documents are bridged; common ones need no help. */
export const BRIDGE_MAX_DF = 400;
const BRIDGE_MIN_SHARED = 2;

/**
 * The vocabulary bridge: terms that share the most documents with `termId`, by the Dice
 * coefficient (2·shared / (df₁ + df₂)), best first, with their coefficient.
 */
export function cooccurring(index: DocIndex, termId: number, k: number): Array<[number, number]> {
  const engine = index.engine;
  const df = engine.df(termId);
  if (df < BRIDGE_MIN_SHARED || df > BRIDGE_MAX_DF) return [];
  const { offsets, terms: docTerms } = forward(index);
  const { shared, touched } = bridgeScratch(engine.termCount);
  let count = 0;
  const postings = engine.arrays();
  for (let q = postings.offsets[termId]; q < postings.offsets[termId + 1]; q++) {
    const d = postings.docs[q];
    for (let p = offsets[d]; p < offsets[d + 1]; p++) {
      const u = docTerms[p];
      if (u === termId) continue;
      if (shared[u] === 0) touched[count++] = u;
      shared[u]++;
    }
  }
  // The k best by Dice coefficient, kept in place (a query bridges a few terms, each sharing documents with thousands).
  const best: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    const u = touched[i];
    const n = shared[u];
    shared[u] = 0;
    if (n < BRIDGE_MIN_SHARED) continue;
    const dice = (2 * n) / (df + engine.df(u));
    if (best.length === k && (dice < best[k - 1][1] || (dice === best[k - 1][1] && u > best[k - 1][0]))) continue;
    let at = best.length;
    while (at > 0 && (dice > best[at - 1][1] || (dice === best[at - 1][1] && u < best[at - 1][0]))) at--;
    best.splice(at, 0, [u, dice]);
    if (best.length > k) best.pop();
  }
  return best;
}

let bridgeScratchArrays: { shared: Uint32Array; touched: Uint32Array } | undefined;

/** Per term: how many of the bridged term's documents hold it (scratch, zero between calls). */
function bridgeScratch(terms: number): { shared: Uint32Array; touched: Uint32Array } {
  if (!bridgeScratchArrays || bridgeScratchArrays.shared.length < terms)
    bridgeScratchArrays = { shared: new Uint32Array(terms), touched: new Uint32Array(terms) };
  return bridgeScratchArrays;
}

/**
 * Builds the lists searches need later (the spelling lexicon, the bridge's document → terms table),
 * so the first questions that use them do not pay for it. Called once an index is loaded.
 */
export function prepareLexicon(index: DocIndex): void {
  lexicon(index);
  forward(index);
}

/** Index terms of a text (re-exported for the modules that analyse queries). */
export { terms };
