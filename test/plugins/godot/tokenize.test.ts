import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STOPWORDS, terms, tokenize } from '../../../plugins/godot/search-index/tokenize.ts';

describe('tokenize', () => {
  it('splits class names into their words plus the whole name', () => {
    expect(tokenize('Camera3D')).toEqual(['camera', '3d', 'camera3d']);
    expect(tokenize('CharacterBody2D')).toEqual(['character', 'body', '2d', 'characterbody2d']);
    expect(tokenize('HTTPRequest')).toEqual(['http', 'request', 'httprequest']);
    expect(tokenize('Vector2i')).toEqual(['vector', '2i', 'vector2i']);
    expect(tokenize('Timer')).toEqual(['timer']);
  });

  it('splits snake_case names into their words', () => {
    expect(tokenize('get_global_position')).toEqual(['get', 'global', 'position']);
    expect(tokenize('_ready')).toEqual(['ready']);
    expect(tokenize('move_and_slide')).toEqual(['move', 'slide']);
    // "has" names a family of tests (has_node, has_method, Dictionary.has): it is not a stopword.
    expect(tokenize('has_method')).toEqual(['has', 'method']);
  });

  it('lowercases prose and drops stopwords and one-character tokens', () => {
    expect(tokenize('Move a character with the collisions, x')).toEqual(['move', 'character', 'collisions']);
    expect(tokenize('@export_range')).toEqual(['export', 'range']);
  });

  it('terms() stems, the same way for documents and queries', () => {
    expect(terms('collisions')).toEqual(terms('collision'));
    expect(terms('Emitted when pressed')).toEqual(['emit', 'press']);
    expect(terms('CharacterBody2D')).toContain('2d');
  });

  it('never yields stopwords, uppercase or one-character tokens', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        for (const t of tokenize(text)) {
          expect(t.length).toBeGreaterThanOrEqual(2);
          expect(t).toBe(t.toLowerCase());
          expect(STOPWORDS.has(t)).toBe(false);
          expect(t).toMatch(/^[a-z0-9]+$/);
        }
      }),
    );
  });
});
