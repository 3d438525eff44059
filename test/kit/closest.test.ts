// The one "did you mean" (src/kit/closest.ts), used by every hint: tool, plugin, flag, command,
// Godot class and member names.
import { describe, expect, it } from 'vitest';
import { closest, distance } from '../../src/kit/index.js';

describe('closest', () => {
  it('ranks prefixes first, then small edit distances, ignoring case', () => {
    expect(closest('Time', ['Timer', 'Tim', 'Node', 'TimerNode'], 5)).toEqual(['Tim', 'Timer', 'TimerNode']);
    expect(closest('POB', ['pob'])).toEqual(['pob']);
    expect(closest('godto', ['godot', 'imhex', 'pob'])).toEqual(['godot']);
    expect(closest('imhx', ['exile', 'godot', 'imhex', 'pob', 'unreal', 'fixture'])).toEqual(['imhex']);
    expect(closest('read_byte', ['read_bytes', 'write_bytes', 'search'])).toEqual(['read_bytes']);
  });

  it('suggests nothing for a name close to none, and at most `max`', () => {
    expect(closest('zzzzzz', ['Node', 'Timer'])).toEqual([]);
    expect(closest('foo', ['exile', 'godot', 'imhex', 'pob', 'unreal', 'fixture'])).toEqual([]);
    expect(closest('ab', ['pob', 'godot'])).toEqual([]);
    expect(closest('x'.repeat(300), ['x'])).toEqual([]);
    expect(closest('node', ['node1', 'node2', 'node3', 'node4'], 2)).toEqual(['node1', 'node2']);
  });

  it('measures Levenshtein distance', () => {
    expect(distance('kitten', 'sitting')).toBe(3);
    expect(distance('abc', 'abc')).toBe(0);
  });
});
