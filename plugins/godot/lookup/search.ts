// godot_search: BM25F scores of the planned query (query.ts) times the ranking priors, names the
// query spells added on top; an exact class or symbol name (`Node2D`, `_ready`, `Node2D.look_at`)
// comes first. Snippets show the query's terms as **term**. Methods measured and not shipped live
// in bench/ as variants (bench/godot-variants.js), through the `variant` option production never sets.
import type { DocKind } from '../model.js';
import type { DocIndex } from '../search-index/doc-index.js';
import type { Concept } from '../search-index/engine.js';
import { wordTerms } from '../search-index/tokenize.js';
import type { RankingParams } from '../ranking-params.js';
import { classUri, symbolUri } from '../uri.js';
import { resolveGuesses, type GuessMatch, type ResolvedGuesses } from './guesses.js';
import { namedSymbols, type NamedSymbols } from './identifiers.js';
import { RANKING } from './params.js';
import { planQuery, type QueryPlan } from './query.js';
import { priorFor, priorOf } from './ranking.js';
import type { Vocabulary } from './vocabulary.js';

export const SEARCH_KINDS = ['class', 'method', 'property', 'signal', 'constant'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export interface SearchHit {
  uri: string;
  /** Class name, or `Class.member` for members. */
  name: string;
  kind: DocKind;
  score: number;
  snippet?: string;
  /** The reference marks the symbol deprecated: its note as plain text, and what it names as the replacement. */
  deprecated?: string;
  replacedBy?: string[];
  /** The reference marks the symbol experimental: its note (may be empty). */
  experimental?: string;
  /** The caller's guess this result comes from, and how it was resolved (exact, accessor, godot3, near-miss, other-class). */
  guess?: { guess: string; match: GuessMatch };
}

/**
 * How a guess's candidates join the ranking: a candidate gets `top × confidence × (base + agree × r)`
 * added, where top is the best lexical score and r its own lexical score over top (at most 1). A
 * guess the question's words also support rises to the top; one they do not support at all gets at
 * most `base` of the top score, so a wrong guess alone cannot push out a strong lexical match.
 * Chosen on the tuning half of test/fixtures/godot/guesses.json (bench/godot-guesses.js).
 * @public the type of GUESS_FUSION, read by the bench
 */
export interface GuessFusion {
  base: number;
  agree: number;
  /** Multiplier of the members of a class a guess names (its member not found): mention ** confidence. */
  classMention: number;
  /** Weight of the words of a guessed member no symbol has, searched beside the question's (1: like the question's). */
  words: number;
}
/** @public read by bench/godot-guesses.bench.js */
export const GUESS_FUSION: GuessFusion = { base: 0.7, agree: 1.2, classMention: 1.5, words: 0.25 };

/**
 * The words of guessed members no symbol has (`Timer.single_shot`: single, shot) as concepts, and the
 * classes whose members they may find: the guessed classes and their ancestors below the general
 * bases (Object, Node, RefCounted, Resource), so a wrong guess's words stay inside its class.
 */
function guessWords(index: DocIndex, guessed: ResolvedGuesses, weight: number): { concepts: Concept[]; classes: Set<number> } | undefined {
  if (weight <= 0 || !guessed.words.length || !guessed.classes.size) return undefined;
  const concepts: Concept[] = [];
  for (const term of new Set(guessed.words.flatMap((w) => wordTerms(w)))) {
    const id = index.engine.termId(term);
    if (id !== undefined) concepts.push({ terms: new Map([[id, 1]]), idf: index.engine.idfOf(id), weight });
  }
  const classes = new Set<number>();
  for (const cid of guessed.classes.keys()) for (const c of index.chain(cid)) if (!GENERIC_BASES.has(index.classes[c].name)) classes.add(c);
  return concepts.length ? { concepts, classes } : undefined;
}
const GENERIC_BASES = new Set(['Object', 'RefCounted', 'Node', 'Resource']);

function normalise(query: string): string {
  return query
    .trim()
    .replace(/^`|`$/g, '')
    .replace(/\(.*\)$/, '')
    .trim()
    .toLowerCase();
}

/** Docs whose name (or `Class.member`, inherited members included) is exactly the query. */
function exactMatches(index: DocIndex, query: string): number[] {
  const key = normalise(query);
  if (!key || /\s/.test(key)) return [];
  const out = [...(index.byName.get(key) ?? [])];
  const dot = key.indexOf('.');
  const clsId = dot > 0 ? index.classId(key.slice(0, dot)) : undefined;
  if (clsId !== undefined) {
    const named = index.byName.get(key.slice(dot + 1)) ?? [];
    for (const cid of index.chain(clsId)) {
      const hit = named.filter((id) => index.docs[id].cls === cid && index.docs[id].kind !== 'class');
      if (hit.length) {
        out.push(...hit);
        break;
      }
    }
  }
  return out;
}

function uriOf(index: DocIndex, id: number): string {
  const d = index.docs[id];
  return d.kind === 'class' ? classUri(d.name) : symbolUri(index.classes[d.cls].name, d.kind, d.name);
}

/** The summary with every word that shares a term with the query in **bold**, cut before the first one. */
export function snippet(text: string, queryTerms: ReadonlySet<string>): string | undefined {
  if (!text) return undefined;
  let first = -1;
  const marked = text.replace(/[A-Za-z0-9_]+/g, (word, at: number) => {
    if (!wordTerms(word).some((t) => queryTerms.has(t))) return word;
    if (first < 0) first = at;
    return `**${word}**`;
  });
  if (first <= 100) return marked;
  const start = marked.lastIndexOf(' ', first - 40);
  return `…${marked.slice(start + 1)}`;
}

/** The best `limit` of the scored documents, without sorting them all (common terms match thousands). */
class TopK {
  readonly items: Array<[number, number]> = [];
  constructor(
    private readonly limit: number,
    private readonly before: (a: [number, number], b: [number, number]) => boolean,
  ) {}
  offer(id: number, score: number): void {
    const items = this.items;
    // Most candidates lose to the last kept one on the score alone: no allocation for them.
    if (items.length === this.limit && score < items[items.length - 1][1]) return;
    const item: [number, number] = [id, score];
    if (items.length === this.limit && !this.before(item, items[items.length - 1])) return;
    let at = items.length;
    while (at > 0 && this.before(item, items[at - 1])) at--;
    items.splice(at, 0, item);
    if (items.length > this.limit) items.pop();
  }
}

/** What a variant's re-ranking gets: the plan, the ranked candidates, and a way to score other concepts the same way. */
interface VariantContext {
  index: DocIndex;
  query: string;
  plan: QueryPlan;
  params: RankingParams;
  ranked: Array<[number, number]>;
  /** The candidates for other concepts (priors and named symbols applied as for the plan's own). */
  score(concepts: readonly Concept[]): Array<[number, number]>;
}

/** A ranking method under test (bench/godot-variants.js); production never passes one. */
interface SearchVariant {
  /** Used instead of the shipped vocabulary (to try a round that does not ship). */
  vocabulary?: Vocabulary;
  /** Changes the planned query before it is scored (query expansion). */
  expand?(index: DocIndex, plan: QueryPlan, params: RankingParams): void;
  /** How many candidates `rerank` sees (default: the limit). */
  depth?: number;
  rerank?(context: VariantContext): Array<[number, number]>;
}

export interface SearchOptions {
  kind?: SearchKind;
  limit: number;
  /** Ranking numbers (the fit script and the ablation try others); default: data/ranking.json. */
  params?: RankingParams;
  variant?: SearchVariant;
  /** API names the caller believes are involved (resolved by lookup/guesses.ts). */
  guesses?: readonly string[];
  /** Fusion numbers (the guesses bench tries others); default GUESS_FUSION. */
  guessFusion?: GuessFusion;
}

/** Per index: a score slot per document and the list of documents scored, reused by every search (they run one at a time). */
const scratches = new WeakMap<DocIndex, { slots: Float64Array; ids: Uint32Array }>();

function scratchFor(index: DocIndex): { slots: Float64Array; ids: Uint32Array } {
  let scratch = scratches.get(index);
  if (!scratch) scratches.set(index, (scratch = { slots: new Float64Array(index.docs.length), ids: new Uint32Array(index.docs.length) }));
  return scratch;
}

/** Ranks every matching document; returns the best `depth` as [id, score]. */
/** The query's named classes with the classes the guesses name added (their members rank higher too). */
function withGuessedClasses(named: NamedSymbols, guessed: ResolvedGuesses | undefined, fusion: GuessFusion, mention: number): NamedSymbols {
  if (!guessed?.classes.size) return named;
  const classes = new Map(named.classes);
  // classes holds exponents of params.mention: a guess's class gets fusion.classMention ** confidence.
  const exponent = Math.log(fusion.classMention) / Math.log(mention);
  for (const [cid, conf] of guessed.classes) classes.set(cid, Math.max(classes.get(cid) ?? 0, conf * exponent));
  return { ...named, classes };
}

function rank(
  index: DocIndex,
  query: string,
  plan: QueryPlan,
  options: SearchOptions,
  depth: number,
  guessed?: ResolvedGuesses,
): Array<[number, number]> {
  const params = options.params ?? RANKING;
  const fusion = options.guessFusion ?? GUESS_FUSION;
  const named = withGuessedClasses(
    namedSymbols(index, query, plan.words, plan.identifiers, {
      exact: params.identifier,
      fuzzy: params.identifierFuzzy,
      prefix: params.identifierPrefix,
    }),
    guessed,
    fusion,
    params.mention,
  );
  const prior = priorFor(index, plan.words, named, params);
  const words = guessed && guessWords(index, guessed, fusion.words);
  const kind = options.kind;
  const { slots, ids } = scratchFor(index);
  const engine = index.engine;
  const score = (concepts: readonly Concept[], limit: number): Array<[number, number]> => {
    let count = 0;
    let top = 0;
    const m = engine.match(concepts);
    for (let k = 0; k < m.count; k++) {
      const id = m.docs[k];
      if (kind !== undefined && index.docs[id].kind !== kind) continue;
      let v = m.scores[id] * (prior.plain ? prior.base[id] : priorOf(index, prior, params, id));
      if (params.wholeName > 0) v *= 1 + params.wholeName * engine.nameShare(m, id) ** 2;
      if (v <= 0) continue;
      slots[id] = v;
      ids[count++] = id;
      if (v > top) top = v;
    }
    engine.clear(m);
    // The words of a guessed member no symbol has, among the members of the guessed class only.
    if (words) {
      const w = engine.match(words.concepts);
      for (let k = 0; k < w.count; k++) {
        const id = w.docs[k];
        if (!words.classes.has(index.docs[id].cls) || (kind !== undefined && index.docs[id].kind !== kind)) continue;
        const v = w.scores[id] * (prior.plain ? prior.base[id] : priorOf(index, prior, params, id));
        if (v <= 0) continue;
        if (slots[id] === 0) ids[count++] = id;
        slots[id] += v;
      }
      engine.clear(w);
    }
    // Names the query spells: a share of the top score, so they rise without drowning the rest.
    for (const [id, share] of named.boosts) {
      if (kind !== undefined && index.docs[id].kind !== kind) continue;
      if (slots[id] === 0) ids[count++] = id;
      slots[id] += share * (top || 1);
    }
    // The caller's guesses: as much more as the question's own words support them (GuessFusion).
    if (guessed) {
      const scale = top || 1;
      for (const [id, cand] of guessed.symbols) {
        if (kind !== undefined && index.docs[id].kind !== kind) continue;
        const own = slots[id];
        if (own === 0) ids[count++] = id;
        slots[id] += scale * cand.confidence * (fusion.base + fusion.agree * Math.min(1, own / scale));
      }
    }
    const ranked = best(index, ids.subarray(0, count), (id) => slots[id], limit);
    for (let k = 0; k < count; k++) slots[ids[k]] = 0;
    return ranked;
  };
  const variant = options.variant;
  if (!variant?.rerank) return score(plan.concepts, depth);
  const ranked = score(plan.concepts, Math.max(depth, variant.depth ?? 0));
  const context = { index, query, plan, params, ranked, score: (concepts: readonly Concept[]) => score(concepts, ranked.length) };
  return variant.rerank(context).slice(0, depth);
}

/** Higher score first; then the shorter name, then the earlier document (stable across runs). */
function before(index: DocIndex, a: [number, number], b: [number, number]): boolean {
  if (a[1] !== b[1]) return a[1] > b[1];
  const la = index.docs[a[0]].name.length;
  const lb = index.docs[b[0]].name.length;
  return la !== lb ? la < lb : a[0] < b[0];
}

function best(index: DocIndex, ids: Iterable<number>, scoreOf: (id: number) => number, limit: number): Array<[number, number]> {
  const top = new TopK(limit, (a, b) => before(index, a, b));
  for (const id of ids) {
    const score = scoreOf(id);
    if (score > 0) top.offer(id, score);
  }
  return top.items;
}

export function search(index: DocIndex, query: string, options: SearchOptions): SearchHit[] {
  const params = options.params ?? RANKING;
  index.engine.tune(params.bm25f);
  const plan = planQuery(index, query, params, options.variant?.vocabulary);
  options.variant?.expand?.(index, plan, params);
  const guessed = options.guesses?.length ? resolveGuesses(index, options.guesses) : undefined;
  const ranked = rank(index, query, plan, options, options.limit, guessed);
  const wanted = (id: number) => options.kind === undefined || index.docs[id].kind === options.kind;
  const exact = exactMatches(index, query).filter(wanted);
  let results = ranked;
  if (exact.length) {
    // Exact name matches go above every ranked hit: classes first, then by their own score.
    const top = ranked[0]?.[1] ?? 0;
    const own = new Map(ranked);
    const lifted: Array<[number, number]> = [...new Set(exact)].map((id) => [
      id,
      top + 10 + (index.docs[id].kind === 'class' ? 5 : 0) + (own.get(id) ?? 0) / (top || 1),
    ]);
    const merged = new Map([...ranked, ...lifted]);
    results = best(index, merged.keys(), (id) => merged.get(id)!, options.limit);
  }
  const queryTerms = new Set([...plan.own, ...[...plan.terms.keys()].map((id) => index.engine.term(id))]);
  return results.map(([id, score]) => {
    const d = index.docs[id];
    const hit: SearchHit = { uri: uriOf(index, id), name: index.qualifiedName(id), kind: d.kind, score: Math.round(score * 1000) / 1000 };
    const text = snippet(index.summary(id), queryTerms);
    if (text) hit.snippet = text;
    const status = d.status;
    if (status?.deprecated !== undefined) hit.deprecated = status.deprecated || 'deprecated';
    if (status?.deprecated !== undefined && status.replacedBy) hit.replacedBy = status.replacedBy;
    if (status?.experimental !== undefined) hit.experimental = status.experimental;
    const cand = guessed?.symbols.get(id);
    if (cand) hit.guess = { guess: cand.guess, match: cand.match };
    return hit;
  });
}
