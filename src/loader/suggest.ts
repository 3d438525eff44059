// "Did you mean …?" for a backend name: the closest known name by edit distance, counting a swap of
// two neighbouring letters as one edit (godto → godot), within a distance that grows with the
// length of the name, so a short unrelated name (foo) suggests nothing.

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[rows - 1][cols - 1];
}

/** The closest of `known` to `name`, or undefined when none is close enough to be a typo of it. */
export function closest(name: string, known: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  const allowed = wanted.length <= 4 ? 1 : wanted.length <= 8 ? 2 : 3;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of new Set(known)) {
    if (candidate === name || Math.abs(candidate.length - name.length) > allowed) continue;
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance <= allowed && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}
