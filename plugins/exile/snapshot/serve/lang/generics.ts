// Generic type arguments of a call, `GetComponent<Life>()` or `M<A.B, List<C>>(x)`. C# reads
// `a < b > (c)` the same way: `<` starts type arguments only when names, dots, commas and nested
// `<>` lead to a `>` that is directly followed by `(`; otherwise it stays a comparison.
import type { Token } from './lexer.js';

const isPunct = (t: Token, value: string) => t.kind === 'punct' && t.value === value;
/**
 * Tokens a type-argument list may span. Without a bound, `a<a<a<…` (each `<` scanned to the end)
 * takes quadratic time; real ones (`GetComponent<Life>`, `M<A.B, List<C>>`) are a few tokens.
 */
const MAX_TYPE_ARG_TOKENS = 64;

/** Type arguments starting at `tokens[at]` (a `<`), and the index of the `(` after them. */
export function scanTypeArgs(tokens: Token[], at: number): { args: string[]; next: number } | undefined {
  if (!isPunct(tokens[at], '<')) return undefined;
  let current = '';
  let nested = 0;
  let j = at + 1;
  for (; j < tokens.length && j - at <= MAX_TYPE_ARG_TOKENS; j++) {
    const t = tokens[j];
    if (t.kind === 'ident') current += t.value;
    else if (isPunct(t, '.')) current += '.';
    else if (isPunct(t, '<')) {
      nested++;
      current += '<';
    } else if (isPunct(t, ',')) current += nested > 0 ? ', ' : '\u0000';
    else if (isPunct(t, '>')) {
      if (nested === 0) break;
      nested--;
      current += '>';
    } else return undefined;
  }
  if (j >= tokens.length - 1 || j - at > MAX_TYPE_ARG_TOKENS || !isPunct(tokens[j + 1], '(')) return undefined;
  const args = current.split('\u0000');
  if (args.some((a) => !/^[A-Za-z_][\w.]*(<.+>)?$/.test(a) || a.endsWith('.'))) return undefined;
  return { args, next: j + 1 };
}
