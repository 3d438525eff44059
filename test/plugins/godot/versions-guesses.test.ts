// Version-correct answers and the caller's guesses, on the real 3.2 and 4.5 references of ../shared:
// the Godot 3 → 4 table (data/godot3.tsv) agrees with both references row by row; deprecated and
// experimental symbols say so in search results and on their pages, with what replaces them; a
// Godot 3 name asked for is answered by its successor; and godot_search with the questions of
// test/fixtures/godot/guesses.json puts the right symbol first for at least 90 % of the informative
// guesses, while a wrong guess never costs a question more than one place (timing is in bench/).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { discover } from '../../../plugins/godot/corpus/discover.ts';
import type { DocIndex } from '../../../plugins/godot/search-index/doc-index.ts';
import { parseClassXml } from '../../../plugins/godot/parse/xml.ts';
import { search } from '../../../plugins/godot/lookup/search.ts';
import { classOrSuccessor, symbolOrSuccessor } from '../../../plugins/godot/lookup/successor.ts';
import { symbolDoc } from '../../../plugins/godot/view/symbol-doc.ts';
import { classDoc } from '../../../plugins/godot/view/class-doc.ts';
import type { RawClass } from '../../../plugins/godot/model.ts';
import { FIXTURES, SHARED_DATA } from '../../helpers/paths.js';
import { fixtureIndex, HAVE_SHARED, SHARED3, SHARED4 } from './helpers.ts';

function reference(dir: string): Map<string, RawClass> {
  const corpus = discover(dir);
  return new Map(
    corpus.files.map((f) => {
      const raw = parseClassXml(readFileSync(path.join(corpus.root, f.rel), 'utf8'), f.rel);
      return [raw.name, raw];
    }),
  );
}
const KINDS = { method: 'methods', property: 'properties', signal: 'signals', constant: 'constants' } as const;
type Kind = keyof typeof KINDS;
const declares = (raw: RawClass | undefined, name: string, kinds: ReadonlyArray<(typeof KINDS)[Kind]> = Object.values(KINDS)) =>
  !!raw && kinds.some((k) => raw[k].some((m) => m.name === name && !('overrides' in m && m.overrides)));

describe.skipIf(!HAVE_SHARED)('Godot 3 → 4 and deprecations on the real references', () => {
  let g3: Map<string, RawClass>;
  let g4: Map<string, RawClass>;
  let index: DocIndex;
  const onChain = (cls: string, name: string, refs: Map<string, RawClass>, kind?: Kind) => {
    for (let c = refs.get(cls); c; c = c.inherits ? refs.get(c.inherits) : undefined)
      if (declares(c, name, kind ? [KINDS[kind]] : undefined)) return true;
    return false;
  };
  beforeAll(async () => {
    g3 = reference(SHARED3);
    g4 = reference(SHARED4);
    index = await fixtureIndex(SHARED4);
  }, 180_000);

  it('ships a table whose every row both references confirm', () => {
    const rows = readFileSync(path.join(FIXTURES, '../../plugins/godot/data/godot3.tsv'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split('\t'));
    const classes = rows.filter((r) => r[0] === 'class');
    expect(classes.length).toBe(g3.size);
    for (const [, old, successor, how, parent] of classes) {
      expect(g3.get(old)?.inherits ?? '').toBe(parent);
      if (how === 'removed') expect(g4.has(old)).toBe(false);
      else expect(g4.has(successor), `${old} → ${successor}`).toBe(true);
    }
    const members = rows.filter((r) => r[0] !== 'class');
    expect(members.length).toBeGreaterThan(2000);
    for (const [kind, old, target, how] of members) {
      const [cls, name] = [old.slice(0, old.indexOf('.')), old.slice(old.indexOf('.') + 1)];
      expect(
        g3.get(cls)?.[KINDS[kind as Kind]].some((m) => m.name === name),
        `${old} is Godot 3 API`,
      ).toBe(true);
      if (how === 'removed') continue;
      const dot = target.indexOf('.');
      if (dot < 0) expect(g4.has(target)).toBe(true);
      else expect(onChain(target.slice(0, dot), target.slice(dot + 1), g4), `${old} → ${target}`).toBe(true);
    }
    // What the table says was removed is really gone from the successor's chain (as that kind of member).
    for (const [kind, old, , how] of members.filter((r) => r[3] === 'removed')) {
      const cls = old.slice(0, old.indexOf('.'));
      const successor = classes.find((c) => c[1] === cls)![2];
      if (cls.startsWith('@')) continue;
      expect(onChain(successor, old.slice(old.indexOf('.') + 1), g4, kind as Kind), `${old} (${how})`).toBe(false);
    }
  });

  it('answers Godot 3 names with their Godot 4 successors and what changed', () => {
    const cases: Array<[string, string, string]> = [
      ['KinematicBody2D.move_and_slide', 'CharacterBody2D.move_and_slide', 'changed'],
      ['PackedScene.instance', 'PackedScene.instantiate', 'renamed'],
      ['OS.get_ticks_msec', 'Time.get_ticks_msec', 'moved'],
      ['rand_range', '@GlobalScope.randf_range', 'renamed'],
      ['Spatial.translation', 'Node3D.position', 'renamed'],
      ['KinematicBody2D.is_on_floor', 'CharacterBody2D.is_on_floor', 'class renamed'],
      ['Color.aliceblue', 'Color.ALICE_BLUE', 'renamed'],
    ];
    for (const [asked, qname, change] of cases) {
      const { symbol, godot3 } = symbolOrSuccessor(index, asked);
      const doc = symbolDoc(index, symbol, godot3);
      expect(doc.qname, asked).toBe(qname);
      expect(doc.godot3, asked).toMatchObject({ name: asked, change });
      expect(doc.note, asked).toContain(asked);
    }
    expect(classDoc(index, classOrSuccessor(index, 'Spatial').clsId).name).toBe('Node3D');
    // Removed in Godot 4: NOT_FOUND that says so.
    expect(() => symbolOrSuccessor(index, 'Node.remove_and_skip')).toThrow(/Godot 3 API that Godot 4 removed/);
    // A name Godot 4 has is its own, without a Godot 3 note (unless its arguments changed since).
    expect(symbolDoc(index, symbolOrSuccessor(index, 'Node.add_child').symbol).godot3).toBeUndefined();
    expect(symbolDoc(index, symbolOrSuccessor(index, 'TileMap.set_cell').symbol).godot3).toMatchObject({ change: 'changed' });
  });

  it('says when a symbol is deprecated or experimental, and what replaces it', () => {
    const hit = search(index, 'AnimationPlayer get_root', { limit: 5 }).find((h) => h.name === 'AnimationPlayer.get_root');
    expect(hit).toMatchObject({ deprecated: 'Use AnimationMixer.root_node instead.', replacedBy: ['AnimationMixer.root_node'] });
    const page = symbolDoc(index, symbolOrSuccessor(index, 'AnimationPlayer.get_root').symbol);
    expect(page).toMatchObject({ deprecated: expect.stringContaining('root_node'), replacedBy: ['AnimationMixer.root_node'] });
    const cls = classDoc(index, classOrSuccessor(index, 'AnimationPlayer').clsId);
    expect(cls.methods.find((m) => m.name === 'get_root')?.replacedBy).toEqual(['AnimationMixer.root_node']);
    // Every symbol the reference marks shows it; the others show nothing.
    const marked = index.docs.filter((d) => d.status).length;
    expect(marked).toBeGreaterThan(250);
    const experimental = index.docs.findIndex((d) => d.status?.experimental !== undefined && d.kind !== 'class');
    const name = index.qualifiedName(experimental);
    expect(search(index, name, { limit: 3 }).find((h) => h.name === name)).toHaveProperty('experimental');
    expect(search(index, 'Node.add_child', { limit: 1 })[0]).not.toHaveProperty('deprecated');
  });

  it('puts the right symbol first for the guesses, and a wrong guess costs at most one place', () => {
    const { items } = JSON.parse(readFileSync(path.join(FIXTURES, 'godot/guesses.json'), 'utf8')) as {
      items: Array<{ q: string; guesses: string[]; expect: string[]; type: string }>;
    };
    const rank = (q: string, expected: string[], guesses?: string[]) => {
      const want = new Set(expected.map((e) => e.toLowerCase()));
      return search(index, q, { limit: 10, guesses }).findIndex((h) => want.has(h.name.toLowerCase())) + 1 || 11;
    };
    for (const it of items)
      for (const e of it.expect) expect(index.byName.has(e.slice(e.lastIndexOf('.') + 1).toLowerCase()), `${e} is 4.5 API`).toBe(true);
    const informative = items.filter((it) => it.type !== 'wrong');
    const first = informative.filter((it) => rank(it.q, it.expect, it.guesses) === 1);
    expect(first.length / informative.length).toBeGreaterThanOrEqual(0.9);
    for (const it of items.filter((x) => x.type === 'wrong')) {
      const before = rank(it.q, it.expect);
      const after = rank(it.q, it.expect, it.guesses);
      expect(after, `${it.q} ${JSON.stringify(it.guesses)}`).toBeLessThanOrEqual(before + 1);
      if (before === 1) expect(after).toBeLessThanOrEqual(3);
    }
  });

  it('ranks every dev question without guesses exactly as before (the feature is off without them)', () => {
    const dev = readFileSync(path.join(SHARED_DATA, 'godot-queries-dev.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { q: string }).q);
    for (const q of dev) {
      const plain = search(index, q, { limit: 10 }).map((h) => `${h.name}:${h.score}`);
      expect(search(index, q, { limit: 10, guesses: [] }).map((h) => `${h.name}:${h.score}`)).toEqual(plain);
    }
  });
});
