// godot_search: BM25F scores times the ranking priors, plus exact-name matches on top so that
// `Node2D`, `_ready` or `Node2D.look_at` comes first; snippets show the query's terms as **term**.
import type { DocKind } from '../model.js';
import type { DocIndex } from '../index/doc-index.js';
import { terms } from '../index/tokenize.js';
import { classUri, symbolUri } from '../uri.js';
import { expand, priorFor } from './ranking.js';

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

export function uriOf(index: DocIndex, id: number): string {
  const d = index.docs[id];
  return d.kind === 'class' ? classUri(d.name) : symbolUri(index.classes[d.cls].name, d.kind, d.name);
}

/** The summary with every word that shares a term with the query in **bold**, cut before the first one. */
export function snippet(text: string, queryTerms: ReadonlySet<string>): string | undefined {
  if (!text) return undefined;
  let first = -1;
  const marked = text.replace(/[A-Za-z0-9_]+/g, (word, at: number) => {
    if (!terms(word).some((t) => queryTerms.has(t))) return word;
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
    const item: [number, number] = [id, score];
    const items = this.items;
    if (items.length === this.limit && !this.before(item, items[items.length - 1])) return;
    let at = items.length;
    while (at > 0 && this.before(item, items[at - 1])) at--;
    items.splice(at, 0, item);
    if (items.length > this.limit) items.pop();
  }
}

export function search(index: DocIndex, query: string, options: { kind?: SearchKind; limit: number }): SearchHit[] {
  const expanded = expand(query);
  const prior = priorFor(index, query);
  const wanted = (id: number) => options.kind === undefined || index.docs[id].kind === options.kind;
  const exact = new Map(
    exactMatches(index, query)
      .filter(wanted)
      .map((id) => [id, 0]),
  );
  const ids: number[] = [];
  const scores: number[] = [];
  let top = 0;
  index.engine.match(expanded, (id, bm25) => {
    if (!wanted(id)) return;
    const score = bm25 * prior(id);
    if (exact.has(id)) exact.set(id, score);
    else {
      ids.push(id);
      scores.push(score);
    }
    if (score > top) top = score;
  });
  // Higher score first; then the shorter name, then the earlier document (stable across runs).
  const before = (a: [number, number], b: [number, number]) =>
    a[1] !== b[1]
      ? a[1] > b[1]
      : index.docs[a[0]].name.length !== index.docs[b[0]].name.length
        ? index.docs[a[0]].name.length < index.docs[b[0]].name.length
        : a[0] < b[0];
  const best = new TopK(options.limit, before);
  // Exact name matches go above every ranked hit: classes first, then by their own score.
  for (const [id, own] of exact) best.offer(id, top + 10 + (index.docs[id].kind === 'class' ? 5 : 0) + own / (top || 1));
  for (let i = 0; i < ids.length; i++) best.offer(ids[i], scores[i]);
  const queryTerms = new Set(terms(expanded));
  return best.items.map(([id, score]) => {
    const d = index.docs[id];
    const hit: SearchHit = { uri: uriOf(index, id), name: index.qualifiedName(id), kind: d.kind, score: Math.round(score * 1000) / 1000 };
    const text = snippet(d.text, queryTerms);
    if (text) hit.snippet = text;
    return hit;
  });
}
