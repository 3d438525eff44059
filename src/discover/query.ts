// A find_tools query taken apart into concepts (bm25f.ts): one per word, with the words tools use
// for it added at a lower weight (task-words.ts), and one per kind of literal the query holds. A
// literal says what a task is about better than its digits do: `0x200` and `DE AD BE EF` are
// offsets and bytes in hex, `17 and 25` are numbers, `/Game/Maps/Arena` and `fw.bin` are paths and
// files, `Node2D.look_at` is a qualified name, `"PASSWORD"` is text. The literal itself is not
// matched: its digits would only meet the digits of unrelated descriptions ("at most 16 MiB").
import type { Concept } from './bm25f.js';
import { taskWords } from './task-words.js';
import { terms } from './text.js';

/** Weight of a word added for a user's word (its concept counts once whatever it holds). */
export const ADDED_WEIGHT = 0.5;
/** Weight of what a literal stands for. */
export const SHAPE_WEIGHT = 0.6;
/** At most this many concepts: a 2,000-character query costs bounded work. */
const MAX_CONCEPTS = 40;

interface Shape {
  name: string;
  pattern: RegExp;
  words: string[];
}

// Order matters: a byte run is tested before a lone hex literal, a path before a file name.
const SHAPES: Shape[] = [
  // Two or more hex byte pairs in a row (DE AD BE EF, 4A ?? 6F, 90 90): a byte pattern.
  {
    name: 'bytes',
    pattern: /(?:^|\s)(?:(?:[0-9a-f]{2}|\?\?)\s+){1,}(?:[0-9a-f]{2}|\?\?)(?=\s|[.,;:!?)]|$)/gi,
    words: ['hex', 'bytes', 'pattern', 'data'],
  },
  // 0x1F0 or 1F0h (assembler style, a digit first): an offset or a value in hex.
  { name: 'hex', pattern: /\b0x[0-9a-f]+\b|\b[0-9][0-9a-f]*h\b/gi, words: ['hex', 'offset', 'address', 'value'] },
  { name: 'path', pattern: /(?:^|\s)(?:[A-Za-z]:)?(?:[~.]?\/[\w.-]+)+\/?/g, words: ['path', 'file', 'asset'] },
  {
    name: 'file',
    pattern: /\b[\w-]+\.(?:bin|exe|dll|so|img|iso|rom|dat|hex|elf|xml|json|ya?ml|txt|png|jpe?g|pak|tscn|gd|uasset|umap)\b/gi,
    words: ['file', 'path'],
  },
  // Class.member or Class.member(…): a qualified name in code.
  {
    name: 'qualified',
    pattern: /\b[A-Za-z_@][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*(?:\(\))?/g,
    words: ['name', 'member', 'symbol', 'qualified', 'expression'],
  },
  { name: 'quoted', pattern: /"[^"]{1,200}"|'[^']{2,200}'|“[^”]{1,200}”/g, words: ['text', 'string', 'message'] },
  { name: 'number', pattern: /(?:^|[\s(,])[-+]?\d+(?:\.\d+)?(?!\w)/g, words: ['number', 'value', 'count'] },
];

export interface QueryPlan {
  concepts: Concept[];
  /** The query's own stemmed terms (for what a result shares with the query). */
  own: string[];
}

export function planQuery(
  query: string,
  known: (term: string) => boolean,
  weights: { added: number; shape: number } = { added: ADDED_WEIGHT, shape: SHAPE_WEIGHT },
): QueryPlan {
  const concepts: Concept[] = [];
  const own: string[] = [];
  const seen = new Set<string>();
  let text = query;
  for (const shape of SHAPES) {
    let found = false;
    text = text.replace(shape.pattern, (m) => {
      found = true;
      // A qualified name keeps its words (Node2D.look_at is about look_at); other literals go.
      return shape.name === 'qualified' || shape.name === 'quoted' ? ` ${m} ` : ' ';
    });
    if (found && concepts.length < MAX_CONCEPTS) {
      const added = new Map<string, number>();
      for (const w of shape.words) for (const t of terms(w)) if (known(t)) added.set(t, 1);
      if (added.size) concepts.push({ terms: added, weight: weights.shape });
    }
  }
  const vocabulary = taskWords().added;
  for (const word of text.split(/[^A-Za-z0-9_@]+/)) {
    if (!word || concepts.length >= MAX_CONCEPTS) continue;
    const parts = terms(word);
    const extra = vocabulary.get(word.toLowerCase()) ?? [];
    if (parts.length === 0 && extra.length === 0) continue;
    // A name (CaptureViewport, get_sum) gives one concept per part; a plain word one concept with its added words.
    const groups = parts.length > 1 ? parts.map((p) => [p]) : [parts];
    groups.forEach((group, i) => {
      const key = group.join(' ');
      if (seen.has(key) && group.length) return;
      seen.add(key);
      own.push(...group);
      const termWeights = new Map<string, number>();
      for (const t of group) termWeights.set(t, 1);
      if (i === 0 && parts.length <= 1)
        for (const e of extra) for (const t of terms(e)) if (!termWeights.has(t) && known(t)) termWeights.set(t, weights.added);
      if ([...termWeights.keys()].some(known)) concepts.push({ terms: termWeights, weight: 1 });
    });
  }
  return { concepts: concepts.slice(0, MAX_CONCEPTS), own };
}
