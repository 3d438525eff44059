// Finds the engine API a GDScript snippet uses, for godot_check_api. A lexical scan, not a parser:
// it sees `extends Class`, typed declarations (`var x: Class`, `var x := Class.new()`, parameters),
// `Class.member`, `typed_var.member`, casts and annotations, and bare calls in a script that
// extends a known class. Strings, comments and `$Node/paths` are blanked out first.

export interface ApiRef {
  /** The reference as written (`Input.is_action_pressed(…)`, `CharacterBody2D`). */
  text: string;
  /** Class named or inferred (absent for bare calls: those are looked up in the base class and globals). */
  cls?: string;
  member?: string;
  /** Number of arguments when the reference is a call. */
  args?: number;
  line?: number;
  /** How the class of a variable was known (`var body: CharacterBody2D`). */
  via?: string;
}

const KEYWORDS = new Set(
  (
    'if elif else for while match when break continue pass return class class_name extends is in as self signal func static const enum var ' +
    'breakpoint preload await not and or super true false null void PI TAU INF NAN assert'
  ).split(' '),
);

/** Blanks strings, comments and node paths, keeping offsets and line numbers. */
export function blankNonCode(code: string): string {
  let out = '';
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    if (c === '#') {
      while (i < code.length && code[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else if (c === '"' || c === "'") {
      const triple = code.startsWith(c.repeat(3), i);
      const end = triple ? c.repeat(3) : c;
      out += end;
      i += end.length;
      while (i < code.length && !code.startsWith(end, i) && (triple || code[i] !== '\n')) {
        if (code[i] === '\\') {
          out += ' ';
          i++;
        }
        out += code[i] === '\n' ? '\n' : ' ';
        i++;
      }
      out += code.startsWith(end, i) ? end : '';
      i += code.startsWith(end, i) ? end.length : 0;
    } else if ((c === '$' || c === '%') && /[A-Za-z_"/]/.test(code[i + 1] ?? '')) {
      // $Player/Sprite or %Unique: a node, not a class.
      out += c;
      i++;
      while (i < code.length && /[A-Za-z0-9_/]/.test(code[i])) {
        out += '_';
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Number of top-level arguments in the call whose `(` is at `open`, or undefined if unbalanced. */
export function countArgs(code: string, open: number): number | undefined {
  return argCounts(code.slice(open)).get(0);
}

/**
 * For every `(` of the code: how many top-level arguments its call has (absent when it is never
 * closed). One pass with a stack, so a script full of unclosed or nested brackets costs linear time.
 */
function argCounts(code: string): Map<number, number> {
  const counts = new Map<number, number>();
  const stack: Array<{ at: number; paren: boolean; commas: number; content: boolean }> = [];
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 40 || c === 91 || c === 123) {
      // ( [ {
      if (top) top.content = true;
      stack.push({ at: i, paren: c === 40, commas: 0, content: false });
    } else if (c === 41 || c === 93 || c === 125) {
      // ) ] }
      const frame = stack.pop();
      if (frame?.paren) counts.set(frame.at, frame.content ? frame.commas + 1 : 0);
    } else if (top) {
      if (c === 44) top.commas++;
      else if (c !== 32 && c !== 9 && c !== 10 && c !== 13) top.content = true;
    }
  }
  return counts;
}

/** Line number (1-based) of any offset, by binary search over the line starts. */
function lineIndex(code: string): (offset: number) => number {
  const starts = [0];
  for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

export interface Scan {
  refs: ApiRef[];
  /** The class the script extends, when it says. */
  base?: string;
}

export function scanGdscript(source: string): Scan {
  const code = blankNonCode(source);
  const lineAt = lineIndex(code);
  const args = argCounts(code);
  const refs: ApiRef[] = [];
  const locals = new Set<string>();
  const types = new Map<string, { cls: string; via: string }>();
  const add = (ref: ApiRef, at: number) => refs.push({ ...ref, line: lineAt(at) });
  const isClassLike = (name: string) => /^[A-Z@]/.test(name) || ['int', 'float', 'bool'].includes(name);

  for (const m of code.matchAll(/\b(?:func|signal|var|const|class_name|class|enum)\s+([A-Za-z_]\w*)/g)) locals.add(m[1]);
  for (const m of code.matchAll(/\bfunc\s+\w+\s*\(([^)]*)\)/g))
    for (const p of m[1].matchAll(/([A-Za-z_]\w*)\s*(?::|=|,|$)/g)) locals.add(p[1]);
  const base = /^\s*extends\s+([A-Za-z_]\w*)/m.exec(code)?.[1];
  if (base) add({ text: `extends ${base}`, cls: base }, code.search(/\bextends\b/));

  // Typed names: `var x: T`, `x: T` in parameters, `var x := T.new()`, `var x = T(…)`.
  for (const m of code.matchAll(/\b([A-Za-z_]\w*)\s*:\s*([A-Za-z_]\w*)(?:\[([A-Za-z_]\w*)\])?/g)) {
    if (KEYWORDS.has(m[1]) || m[2] === 'void') continue;
    types.set(m[1], { cls: m[2], via: `${m[1]}: ${m[2]}` });
    if (isClassLike(m[2]) && !locals.has(m[2])) add({ text: m[2], cls: m[2] }, m.index + m[0].indexOf(m[2]));
    if (m[3] && isClassLike(m[3]) && !locals.has(m[3])) add({ text: m[3], cls: m[3] }, m.index);
  }
  for (const m of code.matchAll(/\bvar\s+([A-Za-z_]\w*)\s*:?=\s*([A-Z]\w*)\s*(?:\.\s*new\s*)?\(/g)) {
    if (!types.has(m[1])) types.set(m[1], { cls: m[2], via: `var ${m[1]} = ${m[2]}` });
  }
  for (const m of code.matchAll(/(?:->|\bas|\bis)\s+([A-Za-z_]\w*)/g)) {
    if (isClassLike(m[1]) && !locals.has(m[1]) && m[1] !== 'void') add({ text: m[1], cls: m[1] }, m.index);
  }
  // Annotations: `@export`, `@onready`, `@export_range(…)`.
  for (const m of code.matchAll(/(^|\s)@([A-Za-z_]\w*)/g))
    add({ text: `@${m[2]}`, cls: '@GDScript', member: `@${m[2]}` }, m.index + m[1].length);

  // `Head.member` and `Head.member(…)`, where Head starts a chain.
  for (const m of code.matchAll(/(?<![\w.$%])([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)(\s*\()?/g)) {
    const [whole, head, member, call] = m;
    const count = call ? args.get(m.index + whole.length - 1) : undefined;
    const text = `${head}.${member}${call ? '(…)' : ''}`;
    if (head === 'self' || head === 'super') {
      if (head === 'self' && base && !locals.has(member)) add({ text, cls: base, member, args: count }, m.index);
      continue;
    }
    const typed = types.get(head);
    if (typed) {
      if (isClassLike(typed.cls)) add({ text, cls: typed.cls, member, args: count, via: typed.via }, m.index);
    } else if (isClassLike(head) && !locals.has(head)) {
      if (member === 'new') add({ text: `${head}.new()`, cls: head }, m.index);
      else add({ text, cls: head, member, args: count }, m.index);
    }
  }
  // Bare calls: `add_child(x)`, `print(…)`, `Vector2(…)`.
  for (const m of code.matchAll(/(?<![\w.$%@])([A-Za-z_]\w*)\s*\(/g)) {
    const name = m[1];
    const prev = code.slice(Math.max(0, m.index - 12), m.index);
    if (KEYWORDS.has(name) || locals.has(name) || /\b(?:func|signal)\s+$/.test(prev)) continue;
    const count = args.get(m.index + m[0].length - 1);
    if (isClassLike(name)) add({ text: `${name}(…)`, cls: name }, m.index);
    else add({ text: `${name}(…)`, member: name, args: count }, m.index);
  }
  refs.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { refs, base };
}
