// Word lists derived from a loaded index on first use and kept beside it: the words the reference
// spells (for fixing a query's misspelled words), and each document's terms (for the corpus bridge).
import type { DocIndex } from '../index/doc-index.js';
import { terms } from '../index/tokenize.js';
import { editDistance } from './suggest.js';

const lexicons = new WeakMap<DocIndex, Map<string, string[]>>();

/** Words of 3+ letters in symbol names and summaries, grouped by first letter. */
function lexicon(index: DocIndex): Map<string, string[]> {
  let byLetter = lexicons.get(index);
  if (byLetter) return byLetter;
  const words = new Set<string>();
  const add = (text: string) => {
    for (const m of text.matchAll(/[A-Za-z]+/g)) {
      // Identifier parts: `get_global_position` → get, global, position; `AnimationPlayer` → animation, player.
      for (const part of m[0].split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)) if (part.length >= 3) words.add(part.toLowerCase());
    }
  };
  for (const d of index.docs) {
    add(d.name.replace(/_/g, ' '));
    add(d.text);
  }
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
  const engine = index.engine;
  const counts = new Uint32Array(engine.docCount + 1);
  engine.forEachPosting((_t, d) => counts[d + 1]++);
  for (let d = 0; d < engine.docCount; d++) counts[d + 1] += counts[d];
  const fill = counts.slice(0, engine.docCount);
  const out = new Uint32Array(counts[engine.docCount]);
  engine.forEachPosting((t, d) => {
    out[fill[d]++] = t;
  });
  f = { offsets: counts, terms: out };
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
  const shared = new Map<number, number>();
  engine.forEachDoc(termId, (d) => {
    for (let p = offsets[d]; p < offsets[d + 1]; p++) {
      const u = docTerms[p];
      if (u !== termId) shared.set(u, (shared.get(u) ?? 0) + 1);
    }
  });
  const scored: Array<[number, number]> = [];
  for (const [u, n] of shared) if (n >= BRIDGE_MIN_SHARED) scored.push([u, (2 * n) / (df + engine.df(u))]);
  scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return scored.slice(0, k);
}

/** Index terms of a text (re-exported for the modules that analyse queries). */
export { terms };
