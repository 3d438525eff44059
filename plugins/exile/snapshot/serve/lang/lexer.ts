// Splits an expression into tokens. Numbers follow C# (suffixes f/d/m/u/l, hex 0x..), strings
// take "..." or '...' with backslash escapes (the JSON ones plus \0 \a \v \').
import { syntaxError } from './errors.js';

type TokenKind = 'ident' | 'int' | 'real' | 'string' | 'punct' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Punctuation and identifiers: their text; strings: the decoded value; numbers: the number. */
  value: string | number;
  pos: number;
  end: number;
}

// Longest first: `?.` before `?`, `<=` before `<`.
const PUNCT = [
  '?.',
  '?[',
  '??',
  '&&',
  '||',
  '==',
  '!=',
  '<>',
  '<=',
  '>=',
  '=>',
  '.',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  '<',
  '>',
  '=',
  '!',
  '+',
  '-',
  '*',
  '/',
  '%',
  '?',
  ':',
];

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  a: '\x07',
  '0': '\0',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '/': '/',
};

const isDigit = (c: string) => c >= '0' && c <= '9';
const isIdentStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isIdentPart = (c: string) => isIdentStart(c) || isDigit(c);

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const start = i;
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? '') && !endsOperand(tokens[tokens.length - 1]))) {
      const t = readNumber(src, i);
      tokens.push(t);
      i = t.end;
    } else if (isIdentStart(c)) {
      while (i < src.length && isIdentPart(src[i])) i++;
      tokens.push({ kind: 'ident', value: src.slice(start, i), pos: start, end: i });
    } else if (c === '"' || c === "'") {
      const t = readString(src, i);
      tokens.push(t);
      i = t.end;
    } else {
      let p = PUNCT.find((op) => src.startsWith(op, i));
      // `a ?.5 : 1` is a conditional with the number .5, not a null-safe member access.
      if (p === '?.' && isDigit(src[i + 2] ?? '')) p = '?';
      if (!p) throw syntaxError(`unexpected character ${quoteChar(c)}`, i);
      tokens.push({ kind: 'punct', value: p, pos: i, end: i + p.length });
      i += p.length;
    }
  }
  tokens.push({ kind: 'eof', value: '', pos: src.length, end: src.length });
  return tokens;
}

/** After an operand `.5` is a member access attempt; elsewhere it is the number 0.5. */
function endsOperand(t: Token | undefined): boolean {
  if (!t) return false;
  return t.kind !== 'punct' || t.value === ')' || t.value === ']';
}

function quoteChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${c}'`;
}

function readNumber(src: string, start: number): Token {
  let i = start;
  if (src[i] === '0' && (src[i + 1] === 'x' || src[i + 1] === 'X')) {
    i += 2;
    const from = i;
    while (i < src.length && /[0-9a-fA-F]/.test(src[i])) i++;
    if (i === from) throw syntaxError('hexadecimal number needs digits', start);
    const value = Number.parseInt(src.slice(from, i), 16);
    i = skipIntSuffix(src, i);
    return finishNumber(src, start, i, 'int', value);
  }
  while (i < src.length && isDigit(src[i])) i++;
  let real = false;
  if (src[i] === '.' && isDigit(src[i + 1] ?? '') && (i > start || src[start] === '.')) {
    real = true;
    i++;
    while (i < src.length && isDigit(src[i])) i++;
  }
  if (src[i] === 'e' || src[i] === 'E') {
    let j = i + 1;
    if (src[j] === '+' || src[j] === '-') j++;
    if (isDigit(src[j] ?? '')) {
      real = true;
      while (j < src.length && isDigit(src[j])) j++;
      i = j;
    }
  }
  const value = Number(src.slice(start, i));
  if (/[fFdDmM]/.test(src[i] ?? '')) return finishNumber(src, start, i + 1, 'real', value);
  if (!real) i = skipIntSuffix(src, i);
  return finishNumber(src, start, i, real ? 'real' : 'int', value);
}

function skipIntSuffix(src: string, i: number): number {
  const m = /^(ul|lu|u|l)/i.exec(src.slice(i, i + 2));
  return m ? i + m[0].length : i;
}

function finishNumber(src: string, start: number, end: number, kind: 'int' | 'real', value: number): Token {
  if (isIdentPart(src[end] ?? '')) throw syntaxError(`malformed number '${src.slice(start, end + 1)}'`, start);
  if (!Number.isFinite(value)) throw syntaxError(`number out of range '${src.slice(start, end)}'`, start);
  return { kind, value, pos: start, end };
}

function readString(src: string, start: number): Token {
  const quote = src[start];
  let out = '';
  let i = start + 1;
  while (i < src.length && src[i] !== quote) {
    const c = src[i];
    if (c === '\\') {
      const e = src[i + 1];
      if (e === 'u') {
        const hex = src.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw syntaxError('bad \\u escape (needs 4 hex digits)', i);
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 6;
        continue;
      }
      if (e === undefined || !(e in ESCAPES)) throw syntaxError(`unknown escape '\\${e ?? ''}' in string`, i);
      out += ESCAPES[e];
      i += 2;
      continue;
    }
    out += c;
    i++;
  }
  if (i >= src.length) throw syntaxError('unterminated string', start);
  return { kind: 'string', value: out, pos: start, end: i + 1 };
}
