// Glob matching without regular expressions: `*` any run, `?` one character, case-insensitive.
// A regex built from a user's glob backtracks (`*e*e*e*e*e*e*e*e*e*e*e*e*Q` against a long name
// takes exponential time, and it runs synchronously), so the glob is split at its stars and each
// piece is placed at its leftmost fit, which is enough: a leftmost fit leaves the most room for the
// pieces after it. Time is O(name length × pattern length) whatever the glob, with the pattern
// length capped by MAX_GLOB_LENGTH.
import { ToolError } from '../../../../src/backend/index.js';

export const MAX_GLOB_LENGTH = 256;

export type GlobMatcher = (name: string) => boolean;

/** Code points, lower-cased one by one (so a character never changes the length of the text). */
function fold(text: string): string[] {
  return Array.from(text, (c) => c.toLowerCase());
}

/** Does `piece` (with `?` wildcards) fit `text` at `at`? */
function fitsAt(text: string[], piece: string[], at: number): boolean {
  if (at + piece.length > text.length) return false;
  for (let i = 0; i < piece.length; i++) if (piece[i] !== '?' && piece[i] !== text[at + i]) return false;
  return true;
}

function leftmost(text: string[], piece: string[], from: number, limit: number): number {
  for (let at = from; at + piece.length <= limit; at++) if (fitsAt(text, piece, at)) return at;
  return -1;
}

export function compileGlob(glob: string): GlobMatcher {
  if (glob.length > MAX_GLOB_LENGTH) {
    throw new ToolError(`search pattern is ${glob.length} characters long; the limit is ${MAX_GLOB_LENGTH}: use * for the rest`, {
      code: 'INVALID_TARGET',
      data: { maxLength: MAX_GLOB_LENGTH },
    });
  }
  const pieces = glob.split('*').map(fold);
  if (pieces.length === 1) {
    const only = pieces[0];
    return (name) => {
      const text = fold(name);
      return text.length === only.length && fitsAt(text, only, 0);
    };
  }
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  const middle = pieces.slice(1, -1).filter((p) => p.length > 0);
  return (name) => {
    const text = fold(name);
    if (text.length < first.length + last.length) return false;
    if (!fitsAt(text, first, 0) || !fitsAt(text, last, text.length - last.length)) return false;
    let at = first.length;
    const end = text.length - last.length;
    for (const piece of middle) {
      const found = leftmost(text, piece, at, end);
      if (found < 0) return false;
      at = found + piece.length;
    }
    return true;
  };
}
