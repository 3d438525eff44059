// The general vocabulary: words people use where Godot's reference says something else, one table
// per subject. A user's word maps to the reference's words, which join the word's concept (query.ts).
// Only general words, each with its reason, never a phrase of a question set. A word is looked up as
// written, then by its stem, so one entry serves its inflections (tap, taps, tapped).
import { terms } from '../../index/tokenize.js';
import { DATA } from './data.js';
import { INPUT_PHYSICS } from './input-physics.js';
import { ORIGINAL } from './original.js';
import { SCENES } from './scenes.js';
import { VISUALS } from './visuals.js';

/** user's word → [the reference's words, why]. */
export type Vocabulary = Readonly<Record<string, readonly [string, string]>>;

/** Which tables are used: all of them, the first one alone, or the ones added after it (the ablation compares them). */
export type VocabularyTables = 'all' | 'original' | 'added';

const ADDED: Vocabulary = { ...SCENES, ...INPUT_PHYSICS, ...VISUALS, ...DATA };
const TABLES: Record<VocabularyTables, Vocabulary> = { original: ORIGINAL, added: ADDED, all: { ...ORIGINAL, ...ADDED } };

export const VOCABULARY: Vocabulary = TABLES.all;

const byStem = new Map<VocabularyTables, Map<string, string>>();

function stemTable(tables: VocabularyTables): Map<string, string> {
  let table = byStem.get(tables);
  if (!table) {
    byStem.set(tables, (table = new Map()));
    for (const [key, [words]] of Object.entries(TABLES[tables])) {
      const stem = terms(key);
      if (stem.length === 1 && !table.has(stem[0])) table.set(stem[0], words);
    }
  }
  return table;
}

/** The reference's words for a (lowercase) word of a question, if the vocabulary has it. */
export function vocabularyFor(word: string, tables: VocabularyTables = 'all'): string | undefined {
  const vocabulary = TABLES[tables];
  const exact = Object.hasOwn(vocabulary, word) ? vocabulary[word] : undefined;
  if (exact) return exact[0];
  const stem = terms(word);
  return stem.length === 1 ? stemTable(tables).get(stem[0]) : undefined;
}
