// Public names on the wire: a tool keeps its name when it already carries the plugin
// (`godot_search`), otherwise it becomes `<plugin>_<tool>` (`imhex_read_bytes`).
import { TOOL_NAME } from '../backend/names.js';
import { RegistryError } from './errors.js';

/** `prefixed: false` (the section's `prefix: false`) publishes the name as the backend gives it. */
export function publicName(plugin: string, local: string, prefixed = true): string {
  const name = !prefixed || local.startsWith(`${plugin}_`) ? local : `${plugin}_${local}`;
  if (!TOOL_NAME.test(name)) {
    throw new RegistryError(`plugin ${plugin}: public name ${JSON.stringify(name)} is not a valid MCP name (1–128 of A-Z a-z 0-9 _ . -)`);
  }
  return name;
}

/** Up to `max` known names closest to `wanted`, for "did you mean" hints. */
export function closest(wanted: string, known: Iterable<string>, max = 3): string[] {
  // The distance costs length × length: a name longer than any valid one gets no hint.
  if (wanted.length > 128) return [];
  const w = wanted.toLowerCase();
  return [...known]
    .map((k) => ({ k, d: distance(w, k.toLowerCase()) - (k.toLowerCase().includes(w) ? 2 : 0) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(w.length / 2)))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k))
    .slice(0, max)
    .map((x) => x.k);
}

/** Levenshtein distance; the names compared are short. */
export function distance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
