// The general vocabulary: words people use where Godot's reference says something else, one table
// per subject. A user's word maps to the reference's words, which join the word's concept (query.ts).
// Only general words, each with its reason, never a phrase of a question set. A word is looked up as
// written, then by its stem, so one entry serves its inflections (tap, taps, tapped).
import { terms } from '../../index/tokenize.js';
import { DATA } from './data.js';
import { INPUT_PHYSICS } from './input-physics.js';
import { ROUND1 } from './round1.js';
import { SCENES } from './scenes.js';
import { VISUALS } from './visuals.js';

/** user's word → [the reference's words, why]. */
export type Vocabulary = Readonly<Record<string, readonly [string, string]>>;

export const VOCABULARY: Vocabulary = { ...ROUND1, ...SCENES, ...INPUT_PHYSICS, ...VISUALS, ...DATA };

let byStem: Map<string, string> | undefined;

/** The reference's words for a (lowercase) word of a question, if the vocabulary has it. */
export function vocabularyFor(word: string): string | undefined {
  const exact = Object.hasOwn(VOCABULARY, word) ? VOCABULARY[word] : undefined;
  if (exact) return exact[0];
  if (!byStem) {
    byStem = new Map();
    for (const [key, [words]] of Object.entries(VOCABULARY)) {
      const stem = terms(key);
      if (stem.length === 1 && !byStem.has(stem[0])) byStem.set(stem[0], words);
    }
  }
  const stem = terms(word);
  return stem.length === 1 ? byStem.get(stem[0]) : undefined;
}
