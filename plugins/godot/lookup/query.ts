// A search query taken apart: its words, the names it spells (`set_process`, `Node2D.look_at`), and
// its concepts. A concept is one word of the question together with the words added for it — the
// reference's words for it (the vocabulary, data/vocabulary.tsv), a spelling fix when the reference
// never uses it — scored as one term (a "synonym group"): however many words a
// question word brings along, it counts once, so an added word can stand in for the user's word but
// cannot outweigh the rest of the question. Every list is capped, so a hostile query (hundreds of
// words, all distinct) costs a bounded amount of work.
import type { DocIndex } from '../search-index/doc-index.js';
import type { Concept } from '../search-index/engine.js';
import { STOPWORDS, terms } from '../search-index/tokenize.js';
import type { RankingParams } from '../ranking-params.js';
import { correctSpelling, MAX_FUZZY_WORDS } from './lexicon.js';
import { KIND_WORDS } from './ranking.js';
import { shippedVocabulary, type Vocabulary } from './vocabulary.js';

/** At most this many distinct terms of the query are looked at, each a concept (a 500-character query has ~80 words). */
export const MAX_QUERY_TERMS = 32;
export const MAX_IDENTIFIERS = 8;

export interface QueryPlan {
  /** Lowercase words, in order. */
  words: string[];
  /** Words that look like API names (`set_process`, `Node2D.look_at`, `CanvasLayer`). */
  identifiers: string[];
  /** What is matched: one concept per distinct term of the question. */
  concepts: Concept[];
  /** Every index term of the concepts → its highest weight (snippets). */
  terms: Map<number, number>;
  /** The query's own terms (stems), in order (snippets). */
  own: string[];
  /** Number of concepts. */
  ownWeight: number;
}

function queryWords(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^a-z0-9_@]+/)
    .filter(Boolean);
}

/** snake_case, CamelCase with an inner capital, Class.member, @annotation. */
export function identifiersOf(query: string): string[] {
  const out: string[] = [];
  for (const m of query.matchAll(/@?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?/g)) {
    const w = m[0];
    if (w.includes('_') || w.includes('.') || w.startsWith('@') || /[a-z0-9][A-Z]/.test(w)) out.push(w);
    if (out.length >= MAX_IDENTIFIERS) break;
  }
  return out;
}

/** Adds the index terms of `text` to a concept at `weight` (keeping a higher weight already there). */
function addTerms(index: DocIndex, concept: Concept, text: string, weight: number): void {
  for (const term of terms(text)) {
    const id = index.engine.termId(term);
    if (id === undefined || (concept.terms.get(id) ?? 0) >= weight) continue;
    concept.terms.set(id, weight);
  }
}

/** A word worth a spelling fix: long enough, not a number, and unknown to the reference. */
function misspelled(index: DocIndex, part: string): boolean {
  if (part.length < 4 || STOPWORDS.has(part) || /\d/.test(part)) return false;
  return terms(part).every((t) => index.engine.termId(t) === undefined);
}

export function planQuery(index: DocIndex, query: string, params: RankingParams, vocabulary: Vocabulary = shippedVocabulary()): QueryPlan {
  const engine = index.engine;
  const words = queryWords(query);
  const plan: QueryPlan = { words, identifiers: identifiersOf(query), concepts: [], terms: new Map(), own: [], ownWeight: 0 };
  const seen = new Set<string>();
  let fixes = 0;
  const spellingFix = (concept: Concept, part: string) => {
    if (params.spelling <= 0 || fixes >= MAX_FUZZY_WORDS || !misspelled(index, part)) return;
    fixes++;
    const fix = correctSpelling(index, part);
    if (fix) addTerms(index, concept, fix, params.spelling);
  };
  const push = (concept: Concept, ownTerm: number | undefined) => {
    if (concept.terms.size === 0) return;
    let idf = ownTerm === undefined ? 0 : engine.idfOf(ownTerm);
    // A word the reference never uses weighs what its most specific stand-in weighs.
    if (ownTerm === undefined) for (const id of concept.terms.keys()) idf = Math.max(idf, engine.idfOf(id));
    concept.idf = idf;
    plan.concepts.push(concept);
  };
  // Case matters for splitting names (CharacterBody2D → character, body, 2d), so words are cut from the query as written.
  for (const written of query.split(/[^A-Za-z0-9_@]+/)) {
    if (plan.own.length >= MAX_QUERY_TERMS) break;
    const word = written.toLowerCase().replace(/^@/, '');
    const own = terms(written);
    if (own.length === 0) continue;
    if (own.length > 1) {
      // A name (`get_node_or_null`, `CharacterBody2D`): each of its terms is a concept; misspelled parts get fixed.
      for (const term of own) {
        if (seen.has(term) || plan.own.length >= MAX_QUERY_TERMS) continue;
        seen.add(term);
        plan.own.push(term);
        const id = engine.termId(term);
        const concept: Concept = { terms: new Map(), idf: 0, weight: 1 };
        if (id !== undefined) concept.terms.set(id, 1);
        else spellingFix(concept, term);
        push(concept, id);
      }
      continue;
    }
    const term = own[0];
    if (seen.has(term)) continue;
    seen.add(term);
    plan.own.push(term);
    const id = engine.termId(term);
    // A word naming the kind of symbol wanted ("signal", "method") says what to look for more than what it is about.
    const concept: Concept = { terms: new Map(), idf: 0, weight: Object.hasOwn(KIND_WORDS, word) ? params.kindWord : 1 };
    if (id !== undefined) concept.terms.set(id, 1);
    const added = params.synonym > 0 ? vocabulary.lookup(word, params.vocabulary) : undefined;
    if (added) addTerms(index, concept, added, params.synonym);
    if (id === undefined) for (const part of word.split('_')) spellingFix(concept, part);
    push(concept, id);
  }
  for (const concept of plan.concepts) {
    for (const [id, w] of concept.terms) if ((plan.terms.get(id) ?? 0) < w) plan.terms.set(id, w);
  }
  plan.concepts = plan.concepts.filter((c) => c.weight > 0);
  // Without grouping (the ablation), every term is a concept of its own, as in a flat BM25F query.
  if (!params.grouped) {
    plan.concepts = plan.concepts.flatMap((c) =>
      [...c.terms].map(([id, w]): Concept => ({ terms: new Map([[id, 1]]), idf: engine.idfOf(id), weight: c.weight * w })),
    );
  }
  plan.ownWeight = plan.concepts.length;
  return plan;
}
