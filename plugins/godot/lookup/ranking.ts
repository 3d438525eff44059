// The multipliers each matched document's BM25F score gets. Each is general (no query is special-
// cased): what kind of symbol it is, how often the rest of the reference links to it, whether it is
// editor-only API, whether the query names its class or its kind.
import type { DocKind } from '../model.js';
import type { DocIndex } from '../search-index/doc-index.js';
import type { RankingParams } from '../ranking-params.js';
import type { NamedSymbols } from './identifiers.js';

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
export const KIND_WORDS: Readonly<Record<string, DocKind>> = {
  signal: 'signal',
  signals: 'signal',
  method: 'method',
  function: 'method',
  property: 'property',
  constant: 'constant',
  enum: 'constant',
  annotation: 'annotation',
};
/** Editor-only API (Editor* classes, project settings) is for plugin authors, not game code. */
const EDITOR = 0.6;
/** A class written the way Godot spells it (`CanvasLayer`) is itself what the question is about. */
const SPELLED_CLASS = 2;

/** "which node …", "what class …", "node that …": the question asks for a class. */
const CLASS_QUESTION = /^(?:(?:which|what) (?:\w+ )?(?:node|class|type|resource)s?|(?:node|class)s? (?:to|that|for|which))\b/;

function kindsNamed(words: string[]): Set<DocKind> {
  const kinds = new Set(words.map((w) => KIND_WORDS[w]).filter(Boolean));
  if (CLASS_QUESTION.test(words.join(' '))) kinds.add('class');
  return kinds;
}

const statics = new WeakMap<DocIndex, { params: RankingParams; prior: Float32Array }>();

/** The part of the prior that does not depend on the query, one value per document (cached per params). */
function staticPrior(index: DocIndex, params: RankingParams): Float32Array {
  const cached = statics.get(index);
  if (cached?.params === params) return cached.prior;
  const prior = new Float32Array(index.docs.length);
  index.docs.forEach((d, id) => {
    let m = KIND_PRIOR[d.kind] * (1 + params.popularity * Math.log1p(d.refs ?? 0));
    const owner = index.classes[d.cls].name;
    if (owner.startsWith('Editor') || (owner === 'ProjectSettings' && d.kind === 'property')) m *= EDITOR;
    prior[id] = m;
  });
  statics.set(index, { params, prior });
  return prior;
}

/**
 * The multiplier of each matched document's BM25F score for this query: the static part per
 * document, and the query's own factors (kinds it names, classes it names).
 */
export interface Prior {
  base: Float32Array;
  /** Kinds the query names (their symbols × kindHint). */
  hinted: ReadonlySet<DocKind>;
  named: NamedSymbols;
  /** True when neither kinds nor classes are named: base alone is the prior. */
  plain: boolean;
}

export function priorFor(index: DocIndex, words: string[], named: NamedSymbols, params: RankingParams): Prior {
  const hinted = kindsNamed(words);
  return {
    base: staticPrior(index, params),
    hinted,
    named,
    plain: hinted.size === 0 && named.classes.size === 0 && named.spelled.size === 0,
  };
}

/** The prior of one document (the general case; callers use `base` directly when `plain`). */
export function priorOf(index: DocIndex, prior: Prior, params: RankingParams, id: number): number {
  const d = index.docs[id];
  let m = prior.base[id];
  if (prior.hinted.has(d.kind)) m *= params.kindHint;
  const strength = prior.named.classes.get(d.cls) ?? 0;
  if (d.kind !== 'class') m *= params.mention ** strength;
  else if (prior.named.spelled.has(d.cls)) m *= SPELLED_CLASS;
  return m;
}
