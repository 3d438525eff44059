// The types of the ranking's numbers. The numbers themselves are data: data/ranking.json, written
// by `node bench/godot-fit.js --write odd` (coordinate ascent on the tuning half of
// ../shared/data/godot-queries-dev.jsonl) and read by lookup/params.ts. This module imports
// nothing, so every layer of the plugin can name these types.

/** BM25F numbers, one per field in FIELD_NAMES order (search-index/entries.ts): name, owner, brief, body, code, anchor, manual. */
export interface Bm25fParams {
  /** Weight of each field. */
  weights: readonly number[];
  /** Length normalisation of each field (0: none, 1: full). */
  b: readonly number[];
  k1: number;
}

/** A round of the general vocabulary (data/vocabulary.tsv; README "How it ranks" says how each was written). */
export type VocabularyRound = string;

export interface RankingParams {
  bm25f: Bm25fParams;
  /** Score a question word and the words added for it as one term (query.ts); false: each term alone (flat BM25F). */
  grouped: boolean;
  /** The rounds of the vocabulary used. */
  vocabulary: readonly VocabularyRound[];
  /** Popularity: how often the rest of the reference links to a symbol (log scale). */
  popularity: number;
  /** Multiplier of members of a class the query names (`label`, `tilemap`); its ancestors get the square root. */
  mention: number;
  /** Multiplier of the symbols of the kind the query names ("timer timeout signal"). */
  kindHint: number;
  /** Weight of a word naming the kind of symbol wanted ("signal", "method", "property"; 1: like any word). */
  kindWord: number;
  /** Weight of a reference word added for a user's word (the vocabulary). */
  synonym: number;
  /** Weight of a spelling fix for a word the reference does not use (`animaton` → animation). */
  spelling: number;
  /** A symbol named in the query (`set_process(false) stop update`): share of the top score added; fuzzy and prefix matches get less. */
  identifier: number;
  identifierFuzzy: number;
  identifierPrefix: number;
  /** Bonus for a document whose name the query spells out (× 1 + wholeName · share²; 0: off). */
  wholeName: number;
}
