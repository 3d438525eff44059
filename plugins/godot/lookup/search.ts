// godot_search: BM25F scores of the planned query (query.ts) times the ranking priors, names the
// query spells added on top; an exact class or symbol name (`Node2D`, `_ready`, `Node2D.look_at`)
// comes first. Snippets show the query's terms as **term**. Methods measured and not shipped live
// in bench/ as variants (bench/godot-variants.js), through the `variant` option production never sets.
import type { DocKind } from '../model.js';
import type { DocIndex } from '../index/doc-index.js';
import type { Concept } from '../index/engine.js';
import { wordTerms } from '../index/tokenize.js';
import type { RankingParams } from '../ranking-params.js';
import { classUri, symbolUri } from '../uri.js';
import { namedSymbols } from './identifiers.js';
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
}

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
}

/** Per index: a score slot per document and the list of documents scored, reused by every search (they run one at a time). */
const scratches = new WeakMap<DocIndex, { slots: Float64Array; ids: Uint32Array }>();

function scratchFor(index: DocIndex): { slots: Float64Array; ids: Uint32Array } {
  let scratch = scratches.get(index);
  if (!scratch) scratches.set(index, (scratch = { slots: new Float64Array(index.docs.length), ids: new Uint32Array(index.docs.length) }));
  return scratch;
}

/** Ranks every matching document; returns the best `depth` as [id, score]. */
function rank(index: DocIndex, query: string, plan: QueryPlan, options: SearchOptions, depth: number): Array<[number, number]> {
  const params = options.params ?? RANKING;
  const named = namedSymbols(index, query, plan.words, plan.identifiers, {
    exact: params.identifier,
    fuzzy: params.identifierFuzzy,
    prefix: params.identifierPrefix,
  });
  const prior = priorFor(index, plan.words, named, params);
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
    // Names the query spells: a share of the top score, so they rise without drowning the rest.
    for (const [id, share] of named.boosts) {
      if (kind !== undefined && index.docs[id].kind !== kind) continue;
      if (slots[id] === 0) ids[count++] = id;
      slots[id] += share * (top || 1);
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
  const ranked = rank(index, query, plan, options, options.limit);
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
    return hit;
  });
}
