// The ranking's numbers. BM25F (field weights in entries.ts FIELD_NAMES order: name, owner, brief,
// body, code, anchor; b per field; k1) and the weights of the signals added on top. The values
// marked "fitted" come from `node bench/godot-fit.js` (coordinate ascent on the tuning half of
// ../shared/data/godot-queries-dev.jsonl); the others are set by hand, each with its reason.
import type { Bm25fParams } from './index/engine.js';
import type { VocabularyTables } from './lookup/vocabulary/index.js';

export interface RankingParams {
  bm25f: Bm25fParams;
  /** Score a question word and the words added for it as one term (query.ts); false: each term alone (flat BM25F). */
  grouped: boolean;
  /** The rounds of vocabulary tables used (vocabulary/). */
  vocabulary: VocabularyTables;
  /** Popularity: how often the rest of the reference links to a symbol (log scale). */
  popularity: number;
  /** Multiplier of a virtual method (a hook to implement, rarely the answer to "how do I"). */
  virtual: number;
  /** Multiplier of members of a class the query names (`label`, `tilemap`); its ancestors get the square root. */
  mention: number;
  /** Multiplier of the symbols of the kind the query names ("timer timeout signal"). */
  kindHint: number;
  /** Weight of a word naming the kind of symbol wanted ("signal", "method", "property"; 1: like any word). */
  kindWord: number;
  /** Multiplier of signals when the question is about an event ("when …", "once …", "after …") and names no kind. */
  event: number;
  /** Weight of a reference word added for a user's word (vocabulary/). */
  synonym: number;
  /** Weight of a spelling fix for a word the reference does not use (`animaton` → animation). */
  spelling: number;
  /** Weight of a term learned to co-occur with a rare query term (the corpus bridge). */
  bridge: number;
  /** Pseudo-relevance feedback: weight of the expansion terms (0: off), documents and terms used. */
  feedback: number;
  feedbackDocs: number;
  feedbackTerms: number;
  /** Bonus per pair of query terms next to each other in a symbol's name or summary (0: off). */
  proximity: number;
  /** A symbol named in the query (`set_process(false) stop update`): share of the top score added; fuzzy and prefix matches get less. */
  identifier: number;
  identifierFuzzy: number;
  identifierPrefix: number;
  /** Exponent of the share of the query's terms a document matches (coordination; 0: off). */
  coverage: number;
  /** Bonus for a document whose name the query spells out (× 1 + wholeName · share²; 0: off). */
  wholeName: number;
  /** Share of its class's BM25F score a member gets added (the class description as the member's context; 0: off). */
  classContext: number;
}

// fitted:begin (node bench/godot-fit.js --write odd: tuned on the odd half)
export const BM25F: Bm25fParams = { weights: [5, 2.5, 2, 2, 1, 1], b: [0.75, 0.75, 0.75, 0.75, 0.75, 0.75], k1: 1.2 };

export const RANKING: RankingParams = {
  bm25f: BM25F,
  grouped: true,
  vocabulary: ['first', 'second'],
  popularity: 0.12,
  virtual: 1,
  mention: 1.5,
  kindHint: 1.5,
  kindWord: 0,
  event: 1,
  synonym: 1.5,
  spelling: 0.5,
  bridge: 0,
  feedback: 0,
  feedbackDocs: 3,
  feedbackTerms: 10,
  proximity: 0,
  identifier: 0.5,
  identifierFuzzy: 0.5,
  identifierPrefix: 0.3,
  coverage: 0,
  wholeName: 0.5,
  classContext: 0,
};
// fitted:end
