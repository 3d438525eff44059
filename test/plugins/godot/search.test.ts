import { beforeAll, describe, expect, it } from 'vitest';
import type { DocIndex } from '../../../plugins/godot/search-index/doc-index.ts';
import { search, snippet } from '../../../plugins/godot/lookup/search.ts';
import { terms } from '../../../plugins/godot/search-index/tokenize.ts';
import { DOC4, fixtureIndex } from './helpers.ts';

let index: DocIndex;
beforeAll(async () => {
  index = await fixtureIndex(DOC4);
});

const names = (query: string, options: Partial<Parameters<typeof search>[2]> = {}) =>
  search(index, query, { limit: 10, ...options }).map((r) => r.name);

describe('search', () => {
  it('returns {uri, name, kind, score, snippet} with qualified member names, best first', () => {
    const results = search(index, 'start the timer', { limit: 5 });
    expect(results.length).toBe(5);
    for (const r of results) {
      expect(Object.keys(r).sort()).toEqual(expect.arrayContaining(['kind', 'name', 'score', 'uri']));
      expect(r.uri).toMatch(/^godot:\/\/(class|symbol)\//);
    }
    expect(results[0]).toMatchObject({ name: 'Timer.start', kind: 'method', uri: 'godot://symbol/Timer/method/start' });
    expect(results.map((r) => r.score)).toEqual([...results.map((r) => r.score)].sort((a, b) => b - a));
  });

  it('puts an exact class or symbol name first', () => {
    expect(names('Node2D')[0]).toBe('Node2D');
    expect(names('node2d')[0]).toBe('Node2D');
    expect(names('_ready')[0]).toBe('Node._ready');
    expect(names('Node2D.look_at')[0]).toBe('Node2D.look_at');
    expect(names('move_and_slide()')[0]).toBe('CharacterBody2D.move_and_slide');
    // Inherited: CharacterBody2D.add_child is Node.add_child.
    expect(names('CharacterBody2D.add_child')[0]).toBe('Node.add_child');
  });

  it('finds symbols by the words of their descriptions', () => {
    expect(names('move a character with collisions').slice(0, 3)).toContain('CharacterBody2D.move_and_slide');
    expect(names('play sound').slice(0, 3)).toContain('AudioStreamPlayer.play');
    expect(names('timer timeout signal')[0]).toBe('Timer.timeout');
  });

  it('filters by kind and honours the limit', () => {
    const signals = search(index, 'pressed', { kind: 'signal', limit: 3 });
    expect(signals.length).toBeGreaterThan(0);
    expect(signals.length).toBeLessThanOrEqual(3);
    expect(signals.every((r) => r.kind === 'signal')).toBe(true);
    expect(search(index, 'timer', { kind: 'class', limit: 10 }).every((r) => r.kind === 'class')).toBe(true);
    expect(search(index, 'node', { limit: 2 }).length).toBe(2);
  });

  it('returns nothing for words the reference does not use', () => {
    expect(search(index, 'zzyzx qwertyuiop', { limit: 10 })).toEqual([]);
  });

  it('highlights the query terms in snippets', () => {
    const timer = search(index, 'countdown timer', { kind: 'class', limit: 1 })[0];
    expect(timer.name).toBe('Timer');
    expect(timer.snippet).toMatch(/\*\*countdown\*\* \*\*timer\*\*/i);
  });
});

describe('snippet', () => {
  it('bolds words sharing a stemmed term with the query and cuts before a late first hit', () => {
    const q = new Set(terms('collisions'));
    expect(snippet('Returns the last collision.', q)).toBe('Returns the last **collision**.');
    const long = `${'word '.repeat(40)}collision here`;
    const cut = snippet(long, q)!;
    expect(cut.startsWith('…')).toBe(true);
    expect(cut).toContain('**collision** here');
    expect(snippet('', q)).toBeUndefined();
  });
});
