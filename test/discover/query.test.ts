// The parts of find_tools's ranking, on small inputs: what a literal stands for, the words added for
// a task verb, a concept counted once however many words it brings, and the backend's own document.
import { describe, expect, it } from 'vitest';
import { Bm25f } from '../../src/discover/bm25f.js';
import { planQuery } from '../../src/discover/query.js';
import { terms } from '../../src/discover/text.js';
import { ToolIndex } from '../../src/discover/tool-index.js';

const all = () => true;
const termsOf = (query: string) => planQuery(query, all).concepts.map((c) => [...c.terms.keys()]);

describe('find_tools queries', () => {
  it('turns literals into what they stand for, and drops their digits', () => {
    const concepts = termsOf('patch the byte at offset 0x200 to 0x90');
    expect(concepts).toContainEqual(expect.arrayContaining(['hex', 'offset']));
    expect(concepts.flat()).not.toContain('0x200');
    expect(termsOf('find DE AD BE EF in the binary')).toContainEqual(expect.arrayContaining(['hex', 'byte', 'pattern']));
    expect(termsOf('add 17 and 25')).toContainEqual(expect.arrayContaining(['number']));
    expect(termsOf('add 17 and 25').flat()).not.toContain('17');
    expect(termsOf('open /Game/Maps/Arena')).toContainEqual(expect.arrayContaining(['path']));
    // A qualified name keeps its words: it is about look_at.
    expect(termsOf('docs of Node2D.look_at').flat()).toEqual(expect.arrayContaining(['look', 'name']));
    // English words that look like hex are not literals.
    expect(termsOf('each beach')).not.toContainEqual(expect.arrayContaining(['hex']));
  });

  it('adds the words tools use for a task verb to its concept, at a lower weight', () => {
    const [patch] = planQuery('patch', all).concepts;
    expect(patch.terms.get('patch')).toBe(1);
    expect(patch.terms.get('write')).toBeLessThan(1);
    expect([...planQuery('locate it', all).concepts[0].terms.keys()]).toEqual(expect.arrayContaining(['locat', 'search']));
    expect([...planQuery('diff them', all).concepts[0].terms.keys()]).toContain('compar');
    // "finds" and "find" are one term.
    expect(terms('finds')).toEqual(terms('find'));
  });

  it('counts a concept once: its words are summed and saturated together, not scored one by one', () => {
    const engine = new Bm25f({ text: { weight: 1, b: 0 } }, [
      { text: terms('write bytes overwrite edit') },
      { text: terms('patch notes') },
      { text: terms('unrelated words here') },
    ]);
    const { concepts } = planQuery('patch', (t) => engine.has(t));
    const [grouped] = engine.scores(concepts);
    const separate = [...concepts[0].terms]
      .filter(([, w]) => w < 1)
      .reduce((sum, [t, w]) => sum + engine.scores([{ terms: new Map([[t, w]]), weight: 1 }])[0], 0);
    expect(grouped).toBeGreaterThan(0);
    expect(grouped).toBeLessThan(separate);
    // The document with the user's own word matches too.
    expect(engine.scores(concepts)[1]).toBeGreaterThan(0);
  });

  it('raises every tool of the backend a query names, and answers one-line hits', () => {
    const index = ToolIndex.build([
      {
        name: 'a_get',
        title: 'Get',
        description: 'Gets a value.\nSecond line.',
        backend: { name: 'a', description: 'Godot class reference' },
      },
      { name: 'b_get', title: 'Get', description: 'Gets a value.', backend: { name: 'b', description: 'Path of Building builds' } },
      { name: 'b_set', description: 'Sets a value.', backend: { name: 'b', description: 'Path of Building builds' } },
    ]);
    expect(index.search('get a value in godot', 2).map((h) => h.name)).toEqual(['a_get', 'b_get']);
    expect(index.search('get a value of my build', 2).map((h) => h.name)).toEqual(['b_get', 'a_get']);
    const [hit] = index.search('get a value in godot', 1);
    expect(hit).toEqual({ name: 'a_get', title: 'Get', description: 'Gets a value.', score: hit.score });
    expect(index.search('sets', 1)[0]).not.toHaveProperty('title');
  });
});
