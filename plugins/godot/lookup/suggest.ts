// "Did you mean": names that start with what was asked (or that it starts with), then names within
// a small edit distance, closest first.

/** Levenshtein distance, giving up (returning `limit + 1`) once it cannot be within `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (cur[j] < best) best = cur[j];
    }
    if (best > limit) return limit + 1;
    prev = cur;
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
