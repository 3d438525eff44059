// "Did you mean": names that start with what was asked (or that it starts with), then names within
// a small edit distance, closest first.

/** Two rows of the distance table, reused by every call (names are short; longer ones grow them). */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/** Levenshtein distance, giving up (returning `limit + 1`) once it cannot be within `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (b.length + 1 > rowA.length) {
    rowA = new Int32Array(b.length + 1);
    rowB = new Int32Array(b.length + 1);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      cur[j] = v;
      if (v < best) best = v;
    }
    if (best > limit) return limit + 1;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[b.length];
}

export function didYouMean(wanted: string, candidates: Iterable<string>, max = 5): string[] {
  const w = wanted.toLowerCase();
  const limit = Math.max(2, Math.floor(w.length / 3));
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of new Set(candidates)) {
    const c = name.toLowerCase();
    let score: number;
    if (c === w) score = 0;
    else if (w.length >= 2 && (c.startsWith(w) || w.startsWith(c))) score = 1 + Math.abs(c.length - w.length) / 100;
    else {
      const d = editDistance(w, c, limit);
      if (d > limit) continue;
      score = 1 + d;
    }
    scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((s) => s.name);
}
