// "Did you mean …?": the one rule every hint uses (tool, plugin, flag, command, class and member
// names). Case is ignored; a name that starts with what was asked, or is the start of it, or holds
// it, comes first; then names within a few edits (more for a longer name), closest first. A short
// unrelated name (foo) suggests nothing. The edit distance is fastest-levenshtein's.
import { createRequire } from 'node:module';

// fastest-levenshtein (CommonJS) loads when a hint is first wanted: a call that succeeds never needs
// one, and start-up skips Node's CommonJS interop for it (bench/startup.bench.js).
let loaded: typeof import('fastest-levenshtein') | undefined;
const levenshtein = (a: string, b: string): number =>
  (loaded ??= createRequire(import.meta.url)('fastest-levenshtein') as typeof import('fastest-levenshtein')).distance(a, b);

/** Levenshtein distance between two strings (case as given). */
export function distance(a: string, b: string): number {
  return levenshtein(a, b);
}

/** Edits allowed between a name of `length` characters and a suggestion for it. */
function allowedEdits(length: number): number {
  return length <= 4 ? 1 : length <= 8 ? 2 : Math.floor(length / 3);
}

/** Up to `max` of `known` closest to `wanted`, best first; none when nothing is close. */
export function closest(wanted: string, known: Iterable<string>, max = 3): string[] {
  // A name longer than any valid one gets no hint (the distance costs length × length).
  if (wanted.length > 256) return [];
  const w = wanted.toLowerCase();
  const limit = allowedEdits(w.length);
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of new Set(known)) {
    const c = name.toLowerCase();
    let score: number;
    if (c === w) score = 0;
    else if (w.length >= 2 && (c.startsWith(w) || w.startsWith(c))) score = 1 + Math.abs(c.length - w.length) / 1000;
    else if (w.length >= 4 && c.includes(w)) score = 1.5 + Math.abs(c.length - w.length) / 1000;
    else {
      if (Math.abs(c.length - w.length) > limit) continue;
      const d = levenshtein(w, c);
      if (d > limit) continue;
      score = 1 + d;
    }
    scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((s) => s.name);
}
