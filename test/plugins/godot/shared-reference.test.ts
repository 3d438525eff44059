// The real Godot references in ../shared/data (4.5 and 3.2), each indexed once for this file: every
// class and a spread of symbols against the seed's shapes, and the search's relevance floors (the
// full figures, with held-out halves and timings, are in `npm run bench`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, SHARED_DATA } from '../../helpers/paths.ts';
import type { DocIndex } from '../../../plugins/godot/search-index/doc-index.ts';
import { resolveSymbol } from '../../../plugins/godot/lookup/resolve.ts';
import { search } from '../../../plugins/godot/lookup/search.ts';
import { parseVocabulary, shippedVocabulary } from '../../../plugins/godot/lookup/vocabulary.ts';
import { terms } from '../../../plugins/godot/search-index/tokenize.ts';
import { classDoc } from '../../../plugins/godot/view/class-doc.ts';
import { symbolDoc } from '../../../plugins/godot/view/symbol-doc.ts';
import { fixtureIndex, HAVE_SHARED, SHARED3, SHARED4 } from './helpers.ts';
import { GodotClassDoc, GodotSymbolDoc } from './seed-shapes.ts';

if (!HAVE_SHARED) console.log(`skipping the shared Godot references: none at ${SHARED4} (set MCPHOST_SHARED_DATA)`);

function shapeErrors(index: DocIndex, sampleEvery: number): string[] {
  const errors: string[] = [];
  index.classes.forEach((cls, id) => {
    const doc = classDoc(index, id);
    const checked = GodotClassDoc.safeParse(doc);
    if (!checked.success) errors.push(`${cls.name}: ${checked.error.issues[0].path.join('.')} ${checked.error.issues[0].message}`);
    if (id % sampleEvery !== 0) return;
    for (const member of [...doc.methods, ...doc.properties.filter((p) => !p.overrides), ...doc.signals, ...doc.constants]) {
      const sym = symbolDoc(index, resolveSymbol(index, `${cls.name}.${member.name}`));
      if (!['method', 'property', 'signal', 'constant'].includes(sym.kind)) continue;
      const ok = GodotSymbolDoc.safeParse(sym);
      if (!ok.success) errors.push(`${sym.qname}: ${ok.error.issues[0].message}`);
    }
  });
  return errors;
}

describe.skipIf(!HAVE_SHARED)('the Godot 4.5 reference', () => {
  let index: DocIndex;
  beforeAll(async () => {
    index = await fixtureIndex(SHARED4);
  });

  it("returns the seed's shapes for every class and for the members of every 25th class", () => {
    expect(index.classes.length).toBeGreaterThan(900);
    expect(shapeErrors(index, 25)).toEqual([]);
  });

  it('carries arguments with defaults, qualifier lists, theme items by data type and annotation names', () => {
    const node = classDoc(index, index.classId('Node')!);
    const addChild = node.methods.find((m) => m.name === 'add_child')!;
    expect(addChild.arguments).toEqual([
      { name: 'node', type: 'Node' },
      { name: 'force_readable_name', type: 'bool', default: 'false' },
      { name: 'internal', type: 'int', enum: 'Node.InternalMode', default: '0' },
    ]);
    expect(addChild.params).toBe(addChild.arguments);
    expect(node.methods.find((m) => m.name === 'get_child')!.qualifiers).toEqual(['const']);
    expect(node.methods.find((m) => m.name === '_ready')!.qualifiers).toEqual(['virtual']);
    expect(node.signals.find((s) => s.name === 'child_entered_tree')!.arguments).toEqual([{ name: 'node', type: 'Node' }]);
    const button = classDoc(index, index.classId('Button')!);
    expect(Object.keys(button.themeItems!).sort()).toEqual(['color', 'constant', 'font', 'font_size', 'icon', 'style']);
    expect(button.themeItems!.color).toContain('font_color');
    expect(classDoc(index, index.classId('@GDScript')!).annotations).toEqual(expect.arrayContaining(['@export', '@onready', '@rpc']));
    // Godot 4 files carry no version and no category.
    expect(node.since).toBeUndefined();
    expect(node.category).toBeUndefined();
  });

  it('finds what the seed asks for: `signal pressed` → BaseButton.pressed in the top 3; `_ready` and `Vector2.x` first', () => {
    const names = (q: string) => search(index, q, { limit: 10 }).map((r) => r.name);
    expect(names('signal pressed').slice(0, 3)).toContain('BaseButton.pressed');
    expect(names('_ready')[0]).toBe('Node._ready');
    expect(names('Vector2.x')[0]).toBe('Vector2.x');
  });

  it('maps every vocabulary word, in every round of tables, to words the reference uses, with a reason', () => {
    const problems: string[] = [];
    const seen = new Map<string, string>();
    // The shipped rounds (data/vocabulary.tsv) and the third, which only the bench tries.
    const third = readFileSync(path.join(import.meta.dirname, '../../../bench/data/godot-vocabulary-third.tsv'), 'utf8');
    for (const { word, targets: words, round, reason } of [...shippedVocabulary().all(), ...parseVocabulary(third)]) {
      if (!/^[a-z0-9]+$/.test(word)) problems.push(`${round} ${word}: the key is not one lowercase word`);
      if (seen.has(word)) problems.push(`${round} ${word}: also a key of round ${seen.get(word)}`);
      seen.set(word, round);
      if (reason.trim().length < 5) problems.push(`${round} ${word}: no reason`);
      const targets = terms(words);
      const unknown = targets.filter((t) => index.engine.termId(t) === undefined);
      if (unknown.length || targets.length === 0)
        problems.push(`${round} ${word} → ${words}: the reference never says ${unknown.join(', ')}`);
    }
    expect(problems).toEqual([]);
    expect(seen.size).toBeGreaterThan(900);
  });

  it('answers its own 51 questions (hit@3 ≥ 0.85) and the independent dev questions (hit@3 ≥ 0.5) without regressing', () => {
    const hitAt3 = (questions: Array<{ query: string; expected: string[] }>) =>
      questions.filter((q) => {
        const wanted = new Set(q.expected.map((e) => e.toLowerCase()));
        return search(index, q.query, { limit: 3 }).some((r) => wanted.has(r.name.toLowerCase()));
      }).length / questions.length;
    const own = JSON.parse(readFileSync(path.join(FIXTURES, 'godot/relevance-queries.json'), 'utf8')).queries;
    const dev = readFileSync(path.join(SHARED_DATA, 'godot-queries-dev.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { q: string; expect: string[] })
      .map((q) => ({ query: q.q, expected: q.expect }));
    expect(hitAt3(own)).toBeGreaterThanOrEqual(0.85);
    expect(hitAt3(dev)).toBeGreaterThanOrEqual(0.5);
  });
});

describe.skipIf(!HAVE_SHARED)('the Godot 3.2 reference', () => {
  let index: DocIndex;
  beforeAll(async () => {
    index = await fixtureIndex(SHARED3);
  });

  it("returns the seed's shapes for every class and for the members of every 25th class, with since = the files' version", () => {
    expect(index.classes.length).toBeGreaterThan(600);
    expect(shapeErrors(index, 25)).toEqual([]);
    const node = classDoc(index, index.classId('Node')!);
    expect(node.since).toBe('3.2');
    expect(node.methods.find((m) => m.name === 'add_child')!.arguments.map((a) => a.name)).toEqual(['node', 'legible_unique_name']);
    // 3.x theme items have no data_type: it follows from their type, as Godot 4 groups them.
    const button = classDoc(index, index.classId('Button')!);
    expect(button.themeItems!.style).toContain('normal');
    expect(button.themeItems!.color).toContain('font_color');
  });
});
