// The general vocabulary: words people use where Godot's reference says something else, one table
// per subject. A user's word maps to the reference's words, which join the word's concept (query.ts).
// Only general words, each with its reason, never a phrase of a question set. A word is looked up as
// written, then by its stem, so one entry serves its inflections (tap, taps, tapped).
//
// The tables came in three rounds, kept apart so the ablation can weigh each: the first was written
// after reading misses of the dev set (so it flatters figures on that set), the second by subject
// without it, the third by subject by writers who never saw any evaluation question. The third ships
// off: measured, it moved neither held-out half (plugins/godot/README.md).
import { terms } from '../../index/tokenize.js';
import { DATA } from './data.js';
import { GAMEPLAY_WORLD } from './gameplay-world.js';
import { INPUT_PHYSICS } from './input-physics.js';
import { MOTION_TIMING } from './motion-timing.js';
import { ORIGINAL } from './original.js';
import { SCENES } from './scenes.js';
import { SCRIPTING_SYSTEM } from './scripting-system.js';
import { UI_DISPLAY } from './ui-display.js';
import { VISUALS } from './visuals.js';

/** user's word → [the reference's words, why]. */
export type Vocabulary = Readonly<Record<string, readonly [string, string]>>;

export const ROUNDS = {
  first: ORIGINAL,
  second: { ...SCENES, ...INPUT_PHYSICS, ...VISUALS, ...DATA },
  third: { ...UI_DISPLAY, ...MOTION_TIMING, ...GAMEPLAY_WORLD, ...SCRIPTING_SYSTEM },
} satisfies Record<string, Vocabulary>;

export type VocabularyRound = keyof typeof ROUNDS;
/** Which rounds of tables are used (the ablation compares them). */
export type VocabularyTables = readonly VocabularyRound[];
export const ALL_ROUNDS: VocabularyTables = ['first', 'second', 'third'];

/** The rounds named, in ALL_ROUNDS order whatever order they are listed in: an earlier round wins a key or a stem. */
function inOrder(rounds: VocabularyTables): VocabularyRound[] {
  return ALL_ROUNDS.filter((round) => rounds.includes(round));
}

/** The tables of `rounds` as one. */
function merged(rounds: VocabularyTables): Vocabulary {
  const out: Record<string, readonly [string, string]> = {};
  for (const round of inOrder(rounds).reverse()) Object.assign(out, ROUNDS[round]);
  return out;
}

/** Every table. */
export const VOCABULARY: Vocabulary = merged(ALL_ROUNDS);

interface Lookup {
  exact: Vocabulary;
  byStem: Map<string, string>;
}

const lookups = new Map<string, Lookup>();

function lookupOf(rounds: VocabularyTables): Lookup {
  const ordered = inOrder(rounds);
  const key = ordered.join(',');
  let lookup = lookups.get(key);
  if (!lookup) {
    const byStem = new Map<string, string>();
    for (const round of ordered) {
      for (const [word, [words]] of Object.entries(ROUNDS[round])) {
        const stem = terms(word);
        if (stem.length === 1 && !byStem.has(stem[0])) byStem.set(stem[0], words);
      }
    }
    lookups.set(key, (lookup = { exact: merged(ordered), byStem }));
  }
  return lookup;
}

/** The reference's words for a (lowercase) word of a question, if the vocabulary has it. */
export function vocabularyFor(word: string, rounds: VocabularyTables = ALL_ROUNDS): string | undefined {
  const { exact, byStem } = lookupOf(rounds);
  if (Object.hasOwn(exact, word)) return exact[word][0];
  const stem = terms(word);
  return stem.length === 1 ? byStem.get(stem[0]) : undefined;
}
