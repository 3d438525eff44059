// Names written inside a question: `set_process(false) stop update`, `has_metod on an object`,
// `what is a CanvasLayer used for`. A symbol the query names (exactly, within a typo or two, or as
// the start of a longer name: get_node → get_node_or_null) gets a share of the top score added; a
// class the query names raises its members (and itself, when written the way Godot writes it).
import type { DocIndex } from '../search-index/doc-index.js';
import { MAX_FUZZY_WORDS } from './lexicon.js';
import { distance } from '../../../src/kit/index.js';

export interface NamedSymbols {
  /** Doc id → share of the top score to add. */
  boosts: Map<number, number>;
  /** Class id → how strongly the query names it (1: itself, less for its ancestors). */
  classes: Map<number, number>;
  /** Classes written exactly as Godot spells them (`CanvasLayer`, `Resource`): the class itself is meant. */
  spelled: Set<number>;
}

/** Names within `limit` edits of `name` (same length ± limit), closest first. */
function nearNames(index: DocIndex, name: string, limit: number): string[] {
  let best = limit + 1;
  let out: string[] = [];
  for (const candidate of index.byName.keys()) {
    if (Math.abs(candidate.length - name.length) > limit || candidate[0] !== name[0]) continue;
    const d = distance(name, candidate);
    if (d < best) {
      best = d;
      out = [candidate];
    } else if (d === best) out.push(candidate);
  }
  return best <= limit ? out : [];
}

export function namedSymbols(
  index: DocIndex,
  query: string,
  words: string[],
  identifiers: string[],
  weights: { exact: number; fuzzy: number; prefix: number },
): NamedSymbols {
  const boosts = new Map<number, number>();
  const raise = (id: number, by: number) => boosts.set(id, Math.max(boosts.get(id) ?? 0, by));
  let fuzzy = 0;
  for (const ident of identifiers) {
    const key = ident.toLowerCase();
    const member = key.slice(key.indexOf('.') + 1);
    const exact = index.byName.get(member);
    if (exact) {
      for (const id of exact) raise(id, weights.exact);
    } else if (member.length >= 5 && fuzzy < MAX_FUZZY_WORDS) {
      fuzzy++;
      for (const name of nearNames(index, member, member.length >= 8 ? 2 : 1))
        for (const id of index.byName.get(name)!) raise(id, weights.fuzzy);
    }
    if (weights.prefix > 0 && member.includes('_')) {
      for (const id of index.namesStartingWith(`${member}_`)) raise(id, weights.prefix);
    }
  }
  const classes = new Map<number, number>();
  const spelled = new Set<number>();
  const mention = (id: number) =>
    index.chain(id).forEach((cid, depth) => classes.set(cid, Math.max(classes.get(cid) ?? 0, depth === 0 ? 1 : 0.5)));
  // A class named by a word (`label`) or two (`canvas layer`, `animation player`).
  for (let i = 0; i < words.length; i++) {
    for (const candidate of [words[i], i + 1 < words.length ? words[i] + words[i + 1] : '']) {
      const id = candidate.length >= 3 ? index.classId(candidate) : undefined;
      if (id !== undefined) mention(id);
    }
  }
  // A capitalised first word may only start the sentence; elsewhere, or with an inner capital, it is the name.
  for (const m of query.matchAll(/@?[A-Z][A-Za-z0-9_]*/g)) {
    if (m.index === query.search(/\S/) && !/[a-z0-9][A-Z]/.test(m[0])) continue;
    const id = index.classId(m[0]);
    if (id !== undefined && index.classes[id].name === m[0]) spelled.add(id);
  }
  return { boosts, classes, spelled };
}
