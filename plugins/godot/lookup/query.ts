// A search query taken apart: its words, the names it spells (`set_process`, `Node2D.look_at`), and
// the weighted index terms to match — its own terms, the reference's words for its words
// (vocabulary.ts), spelling fixes for words the reference never uses, and bridge terms learned from
// the corpus. Every list is capped, so a hostile query (hundreds of words, all distinct) costs a
// bounded amount of work.
import type { DocIndex } from '../index/doc-index.js';
import { STOPWORDS, terms } from '../index/tokenize.js';
import type { RankingParams } from '../ranking-params.js';
import { cooccurring, correctSpelling } from './lexicon.js';
import { VOCABULARY } from './vocabulary.js';

/** At most this many distinct terms of the query are matched (a 500-character query has ~80 words). */
export const MAX_QUERY_TERMS = 32;
/** At most this many names and misspelled words are looked up by edit distance. */
export const MAX_FUZZY_WORDS = 4;
export const MAX_IDENTIFIERS = 8;
const BRIDGE_TERMS = 3;
/** The bridge looks at the rarest few of the query's terms only. */
const BRIDGED_TERMS = 6;

export interface QueryPlan {
  /** Lowercase words, in order. */
  words: string[];
  /** Words that look like API names (`set_process`, `Node2D.look_at`, `CanvasLayer`). */
  identifiers: string[];
  /** Index term id → weight; the query's own terms weigh 1. */
  terms: Map<number, number>;
  /** The query's own terms (stems), in order, for proximity, snippets and feedback. */
  own: string[];
  /** Sum of the weights of the query's own terms (for coverage). */
  ownWeight: number;
}

export function queryWords(query: string): string[] {
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

function addTerms(plan: QueryPlan, index: DocIndex, text: string, weight: number): void {
  for (const term of terms(text)) {
    const id = index.engine.termId(term);
    if (id === undefined || (plan.terms.get(id) ?? 0) >= weight) continue;
    plan.terms.set(id, weight);
  }
}

export function planQuery(index: DocIndex, query: string, params: RankingParams): QueryPlan {
  const words = queryWords(query);
  const plan: QueryPlan = { words, identifiers: identifiersOf(query), terms: new Map(), own: [], ownWeight: 0 };
  for (const term of terms(query)) {
    if (plan.own.includes(term)) continue;
    if (plan.own.length >= MAX_QUERY_TERMS) break;
    plan.own.push(term);
    const id = index.engine.termId(term);
    if (id === undefined) continue;
    plan.terms.set(id, 1);
    plan.ownWeight += 1;
  }
  if (params.synonym > 0) {
    for (const word of words.slice(0, MAX_QUERY_TERMS)) {
      const entry = VOCABULARY[word];
      if (entry) addTerms(plan, index, entry[0], params.synonym);
    }
  }
  if (params.spelling > 0) {
    let fixed = 0;
    for (const word of words) {
      for (const part of word.split('_')) {
        if (fixed >= MAX_FUZZY_WORDS) break;
        if (part.length < 4 || STOPWORDS.has(part) || /\d/.test(part)) continue;
        if (terms(part).every((t) => index.engine.termId(t) !== undefined)) continue;
        fixed++;
        const fix = correctSpelling(index, part);
        if (fix) addTerms(plan, index, fix, params.spelling);
      }
    }
  }
  if (params.bridge > 0) {
    const own = [...plan.terms].filter(([, w]) => w === 1).sort((a, b) => index.engine.df(a[0]) - index.engine.df(b[0]));
    for (const [id, weight] of own.slice(0, BRIDGED_TERMS)) {
      const near = cooccurring(index, id, BRIDGE_TERMS);
      const top = near[0]?.[1] ?? 1;
      for (const [u, score] of near) if (!plan.terms.has(u)) plan.terms.set(u, (params.bridge * weight * score) / top);
    }
  }
  return plan;
}
