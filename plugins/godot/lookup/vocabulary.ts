// The general vocabulary: words people use where Godot's reference says something else (other
// engines' terms, everyday words, British spellings), each with the reference's words it adds and
// why. It is data (data/vocabulary.tsv: word, targets, round, reason), loaded into a map on first
// use; only the rounds that ship are in that file. A word is looked up as written, then by its
// stem, so one entry serves its inflections (tap, taps, tapped); an earlier round wins a word or a stem.
import { readDataFile } from '../data-files.js';
import { terms } from '../search-index/tokenize.js';
import type { VocabularyRound } from '../ranking-params.js';

export interface VocabularyEntry {
  word: string;
  /** The reference's words added for it. */
  targets: string;
  round: VocabularyRound;
  reason: string;
}

/** Parses a vocabulary file (`#` comments; word, targets, round, reason separated by tabs). */
export function parseVocabulary(text: string, file = 'vocabulary.tsv'): VocabularyEntry[] {
  const out: VocabularyEntry[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    const [word, targets, round, reason] = line.split('\t');
    if (!word || !targets || !round || !reason)
      throw new Error(`${file}:${i + 1}: expected word, targets, round and reason separated by tabs`);
    out.push({ word, targets, round, reason });
  });
  return out;
}

interface Lookup {
  exact: Map<string, string>;
  byStem: Map<string, string>;
}

export class Vocabulary {
  /** Rounds in the order they were first seen (an earlier one wins). */
  readonly rounds: VocabularyRound[] = [];
  private readonly entries: VocabularyEntry[] = [];
  private readonly lookups = new Map<string, Lookup>();

  constructor(entries: Iterable<VocabularyEntry> = []) {
    this.add(entries);
  }

  /** Adds entries (a later round, e.g. one the bench tries). */
  add(entries: Iterable<VocabularyEntry>): this {
    for (const e of entries) {
      if (!this.rounds.includes(e.round)) this.rounds.push(e.round);
      this.entries.push(e);
    }
    this.lookups.clear();
    return this;
  }

  all(): readonly VocabularyEntry[] {
    return this.entries;
  }

  private lookupOf(rounds: readonly VocabularyRound[]): Lookup {
    const ordered = this.rounds.filter((r) => rounds.includes(r));
    const key = ordered.join(',');
    let lookup = this.lookups.get(key);
    if (!lookup) {
      lookup = { exact: new Map(), byStem: new Map() };
      for (const round of ordered) {
        for (const e of this.entries) {
          if (e.round !== round) continue;
          if (!lookup.exact.has(e.word)) lookup.exact.set(e.word, e.targets);
          const stem = terms(e.word);
          if (stem.length === 1 && !lookup.byStem.has(stem[0])) lookup.byStem.set(stem[0], e.targets);
        }
      }
      this.lookups.set(key, lookup);
    }
    return lookup;
  }

  /** The reference's words for a (lowercase) word of a question, if a round in `rounds` has it. */
  lookup(word: string, rounds: readonly VocabularyRound[]): string | undefined {
    const { exact, byStem } = this.lookupOf(rounds);
    const hit = exact.get(word);
    if (hit !== undefined) return hit;
    const stem = terms(word);
    return stem.length === 1 ? byStem.get(stem[0]) : undefined;
  }
}

let shipped: Vocabulary | undefined;

/** The vocabulary that ships (data/vocabulary.tsv), read on first use. */
export function shippedVocabulary(): Vocabulary {
  return (shipped ??= new Vocabulary(parseVocabulary(readDataFile('vocabulary.tsv'))));
}
