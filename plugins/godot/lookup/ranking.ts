// The ranking signals added on top of BM25F. Each is general (no query is special-cased) and was
// checked against the relevance set in test/fixtures/godot/relevance-queries.json.
import type { DocKind } from '../model.js';
import type { DocIndex } from '../index/doc-index.js';

/** Constants and theme items are many and rarely what a question is about. */
const KIND_PRIOR: Record<DocKind, number> = {
  class: 1,
  method: 1,
  property: 0.9,
  signal: 1,
  constant: 0.75,
  theme_item: 0.6,
  annotation: 1,
};
/** Words that say which kind of symbol the question is about ("timer timeout signal"). */
const KIND_WORDS: Record<string, DocKind> = {
  signal: 'signal',
  signals: 'signal',
  method: 'method',
  function: 'method',
  property: 'property',
  constant: 'constant',
  enum: 'constant',
  annotation: 'annotation',
};
const KIND_HINT = 1.5;
/** Weight of popularity: how often the rest of the reference links to a symbol (log scale). */
const POPULARITY = 0.12;
/** Editor-only API (Editor* classes, project settings) is for plugin authors, not game code. */
const EDITOR = 0.6;
/** A class named in the question (`label`, `tilemap`): its members rank higher, its ancestors' a little. */
const MENTION = 1.5;
const ANCESTOR = 1.25;
/**
 * Words people use where Godot's reference says something else (or said it before 4.0). Each adds
 * the reference's word to the query; the user's word still counts.
 */
const SYNONYMS: Record<string, string> = {
  click: 'pressed',
  clicked: 'pressed',
  instance: 'instantiate',
  sound: 'audio',
  music: 'audio',
  kinematic: 'character',
  spatial: 'node3d',
};

function words(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^a-z0-9_@]+/)
    .filter(Boolean);
}

/** The query with the reference's words for the user's appended. */
export function expand(query: string): string {
  const extra = words(query)
    .map((w) => SYNONYMS[w])
    .filter(Boolean);
  return extra.length ? `${query} ${extra.join(' ')}` : query;
}

export type Prior = (id: number) => number;

/** The multiplier each matched document's BM25F score gets for this query. */
export function priorFor(index: DocIndex, query: string): Prior {
  const hinted = new Set(
    words(query)
      .map((w) => KIND_WORDS[w])
      .filter(Boolean),
  );
  const mentioned = new Map<number, number>();
  for (const word of words(query)) {
    const id = word.length >= 3 ? index.classId(word) : undefined;
    if (id === undefined) continue;
    index.chain(id).forEach((cid, depth) => mentioned.set(cid, Math.max(mentioned.get(cid) ?? 1, depth === 0 ? MENTION : ANCESTOR)));
  }
  return (id) => {
    const d = index.docs[id];
    let m = KIND_PRIOR[d.kind] * (1 + POPULARITY * Math.log1p(d.refs ?? 0));
    if (hinted.has(d.kind)) m *= KIND_HINT;
    const owner = index.classes[d.cls].name;
    if (owner.startsWith('Editor') || (owner === 'ProjectSettings' && d.kind === 'property')) m *= EDITOR;
    if (d.kind !== 'class') m *= mentioned.get(d.cls) ?? 1;
    return m;
  };
}
