// Two re-rankings over the best candidates' names and summaries:
// - pseudo-relevance feedback (RM3-like): the terms that weigh most in the top few results, weighted
//   by those results' scores and the terms' idf, are added to the query for a second pass;
// - proximity: query terms that stand next to each other (within one word) in a name or summary
//   count as a phrase and raise that result.
import type { DocIndex } from '../index/doc-index.js';
import { terms } from '../index/tokenize.js';
import type { RankingParams } from '../ranking-params.js';

/** How many of the best candidates the proximity pass looks at. */
export const PROXIMITY_DEPTH = 30;
const WINDOW = 2;

function docTerms(index: DocIndex, id: number): string[] {
  const d = index.docs[id];
  return [...terms(d.name), ...terms(index.summary(id))];
}

/** Expansion terms (id → weight) from the top documents of a first pass. */
export function feedbackTerms(
  index: DocIndex,
  top: Array<[number, number]>,
  known: ReadonlyMap<number, number>,
  params: RankingParams,
): Map<number, number> {
  const out = new Map<number, number>();
  if (params.feedback <= 0 || top.length === 0) return out;
  const best = top[0][1] || 1;
  const weights = new Map<number, number>();
  for (const [id, score] of top.slice(0, params.feedbackDocs)) {
    const words = docTerms(index, id);
    const counts = new Map<number, number>();
    for (const t of words) {
      const tid = index.engine.termId(t);
      if (tid !== undefined && !known.has(tid)) counts.set(tid, (counts.get(tid) ?? 0) + 1);
    }
    for (const [tid, n] of counts)
      weights.set(tid, (weights.get(tid) ?? 0) + (n / words.length) * (score / best) * index.engine.idfOf(tid));
  }
  const ranked = [...weights].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, params.feedbackTerms);
  const max = ranked[0]?.[1] ?? 1;
  for (const [tid, w] of ranked) out.set(tid, (params.feedback * w) / max);
  return out;
}

/** Pairs of distinct query terms within WINDOW words of each other in the document's name or summary. */
export function phrasePairs(index: DocIndex, id: number, own: readonly string[]): number {
  if (own.length < 2) return 0;
  const positions = new Map<string, number[]>();
  docTerms(index, id).forEach((t, i) => {
    if (!own.includes(t)) return;
    const list = positions.get(t);
    if (list) list.push(i);
    else positions.set(t, [i]);
  });
  const present = [...positions.keys()];
  let pairs = 0;
  for (let a = 0; a < present.length; a++) {
    for (let b = a + 1; b < present.length; b++) {
      const pa = positions.get(present[a])!;
      const pb = positions.get(present[b])!;
      if (pa.some((x) => pb.some((y) => Math.abs(x - y) <= WINDOW))) pairs++;
    }
  }
  return pairs;
}
