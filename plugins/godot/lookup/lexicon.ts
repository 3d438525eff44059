// The words of the reference's names, derived from a loaded index on first use and kept beside it,
// for fixing a query's misspelled words.
import type { DocIndex } from '../search-index/doc-index.js';
import { distance } from '../../../src/kit/index.js';

/** At most this many names and misspelled words are looked up by edit distance (the query's and the identifiers'). */
export const MAX_FUZZY_WORDS = 4;

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
    const d = distance(word, candidate);
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate.length > best.length)) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

/** Builds the spelling lexicon, so the first question that needs it does not pay for it. Called once an index is loaded. */
export function prepareLexicon(index: DocIndex): void {
  lexicon(index);
}

/** Index terms of a text (re-exported for the modules that analyse queries). */
