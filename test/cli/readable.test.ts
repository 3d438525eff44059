// `call`'s outline for a terminal wraps its lines with wrap-ansi, which it loads only when a line
// does not fit as it is (src/cli/readable.ts): the shortcut must give exactly what wrap-ansi gives.
import pc from 'picocolors';
import wrapAnsi from 'wrap-ansi';
import { describe, expect, it } from 'vitest';
import { readableResult } from '../../src/cli/readable.js';

const plain = pc.createColors(false);
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

/** What readable.ts did before its shortcut: every line through wrap-ansi, continued under its indent. */
function wrappedByWrapAnsi(t: string, width: number): string {
  return t
    .split('\n')
    .map((line) => {
      const indent = /^ */.exec(line)![0].length;
      const [first, ...rest] = wrapAnsi(line.slice(indent), Math.max(width - indent - 2, 20), { hard: true, trim: true }).split('\n');
      return [' '.repeat(indent) + first, ...rest.map((l) => ' '.repeat(indent + 2) + l)].join('\n');
    })
    .join('\n');
}

describe('the outline on a terminal', () => {
  it('wraps a long line between words under its indentation', async () => {
    const long = `  snippet: ${'word '.repeat(40).trim()}`;
    const shown = await readableResult(text(long), 40, plain);
    expect(shown.split('\n').length).toBeGreaterThan(4);
    for (const line of shown.split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    expect(shown).toBe(wrappedByWrapAnsi(long, 40));
  });

  it('gives what wrap-ansi gives, on 5,000 random texts of words, spaces, tabs, colour escapes and wide characters', async () => {
    const parts = [
      'a',
      'word',
      'longerword',
      ' ',
      '  ',
      'key:',
      '\t',
      'é',
      '漢字',
      '\u001b[1m',
      '\u001b[22m',
      '\u001b[36m',
      '\u001b[39m',
      '-',
    ];
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 5000; i++) {
      const lines = Array.from(
        { length: 1 + next(4) },
        () => ' '.repeat(next(3) * 2) + Array.from({ length: next(14) }, () => parts[next(parts.length)]).join(''),
      );
      const t = lines.join('\n').replace(/^[[{]/, 'x');
      const width = 24 + next(40);
      expect(await readableResult(text(t), width, plain), JSON.stringify({ t, width })).toBe(wrappedByWrapAnsi(t, width));
    }
  });
});
