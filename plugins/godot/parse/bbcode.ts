// Godot's doc BBCode → Markdown (for clients) and → plain text (for the search index).
// Code blocks keep their content byte for byte (only the XML indentation is removed);
// cross-references ([method X], [member X], [ClassName] …) become godot:// links.
import type { SymbolKind } from '../model.js';
import { classUri, symbolUri } from '../uri.js';

export interface MarkdownOptions {
  /** The class the text belongs to: `[method foo]` without a class means this one. */
  className: string;
  /** Tells which `[Name]` references are classes; without it, capitalised names and int/float/bool count. */
  isClass?: (name: string) => boolean;
}

const REF_KINDS = new Map<string, SymbolKind | 'class'>([
  ['method', 'method'],
  ['member', 'property'],
  ['signal', 'signal'],
  ['constant', 'constant'],
  ['enum', 'enum'],
  ['theme_item', 'theme_item'],
  ['annotation', 'annotation'],
  ['constructor', 'class'],
  ['operator', 'class'],
]);
const STRIP_TAGS = new Set(['center', 'color', 'font', 'u', 'indent', 'ul', 'ol', 'lang', 'fgcolor', 'bgcolor']);
/** Formatting tags: no words of their own for the index. */
const FORMAT_TAGS = new Set([...STRIP_TAGS, 'b', 'i', 's', 'code', 'kbd', 'url', 'br']);
const PRIMITIVES = new Set(['int', 'float', 'bool']);
export const CODE_BLOCKS = /\[codeblocks\]([\s\S]*?)\[\/codeblocks\]|\[codeblock(?:\s+lang=(\w+))?[^\]]*\]([\s\S]*?)\[\/codeblock\]/g;
export const LANG_BLOCK = /\[(gdscript|csharp)(?:\s[^\]]*)?\]([\s\S]*?)\[\/\1\]/g;
const INLINE_CODE = /\[(code|kbd)(?:\s[^\]]*)?\]([\s\S]*?)\[\/\1\]/g;
const TAG = /\[(\/?)([@A-Za-z_][\w]*)(?:([ =])([^\]]*))?\]/g;
/** Godot's docs write links to the online manual as $DOCS_URL/…. */
export const DOCS_URL = 'https://docs.godotengine.org/en/stable';
const LB = '\u0001';
const RB = '\u0002';

/** Removes the indentation the XML adds to every line of a code block, keeping the code's own. */
export function dedent(text: string): string {
  const lines = text.replace(/^\n+|\s+$/g, '').split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[\t ]*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut)).join('\n');
}

function fence(code: string, lang: string): string {
  const body = dedent(code)
    .replace(/\[lb\]/g, '[')
    .replace(/\[rb\]/g, ']');
  const ticks = body.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${body}\n${ticks}`;
}

function inlineCode(code: string): string {
  const body = code.replace(/\[lb\]/g, '[').replace(/\[rb\]/g, ']');
  return body.includes('`') ? `\`\` ${body} \`\`` : `\`${body}\``;
}

/** Splits `Class.member` into its parts; a target without a class names a member of `current`. */
export function splitTarget(target: string, current: string): { cls: string; name: string } {
  const dot = target.indexOf('.');
  if (dot > 0) {
    const head = target.slice(0, dot);
    if (/^@?[A-Z][A-Za-z0-9_]*$/.test(head) || PRIMITIVES.has(head)) return { cls: head, name: target.slice(dot + 1) };
  }
  return { cls: current, name: target };
}

function reference(tag: string, target: string, options: MarkdownOptions): string {
  if (tag === 'param') return `\`${target}\``;
  const kind = REF_KINDS.get(tag)!;
  const { cls, name } = splitTarget(target, options.className);
  if (kind === 'class') return `[\`${target}\`](${classUri(cls)})`;
  const shown = kind === 'method' ? `${target}()` : target;
  return `[\`${shown}\`](${symbolUri(cls, kind, name)})`;
}

function inline(text: string, options: MarkdownOptions): string {
  const isClass = options.isClass ?? ((n: string) => /^@?[A-Z]/.test(n) || PRIMITIVES.has(n));
  return text.replace(TAG, (whole, close: string, tag: string, sep: string | undefined, arg: string | undefined) => {
    if (tag === 'lb') return LB;
    if (tag === 'rb') return RB;
    if (tag === 'br') return '  \n';
    if (tag === 'b') return '**';
    if (tag === 'i') return '*';
    if (tag === 's') return '~~';
    if (tag === 'url') return close ? `\u0003${'/'}` : `\u0003${arg ?? ''}\u0004`;
    if (STRIP_TAGS.has(tag)) return '';
    if (!close && sep === ' ' && arg !== undefined && (REF_KINDS.has(tag) || tag === 'param')) return reference(tag, arg.trim(), options);
    if (!close && sep === undefined && isClass(tag)) return `[\`${tag}\`](${classUri(tag)})`;
    return whole;
  });
}

function urls(text: string): string {
  // \u0003<target>\u0004<label>\u0003/  →  [label](target) or <label> when the tag had no target.
  // Control characters are the point: they are sentinels no doc text contains.
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u0003([^\u0004]*)\u0004([\s\S]*?)\u0003\//g, (_w, target: string, label: string) =>
    target ? `[${label || target}](${target.replace('$DOCS_URL', DOCS_URL)})` : `<${label.replace('$DOCS_URL', DOCS_URL)}>`,
  );
}

function prose(text: string, options: MarkdownOptions): string {
  const codes: string[] = [];
  const withCodes = text.replace(INLINE_CODE, (_w, _tag: string, code: string) => {
    codes.push(inlineCode(code));
    return `\u0005${codes.length - 1}\u0005`;
  });
  const paragraphs = withCodes
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const converted = urls(inline(paragraphs.join('\n\n'), options));
  return (
    converted
      // eslint-disable-next-line no-control-regex -- \u0005 marks a stashed inline code span
      .replace(/\u0005(\d+)\u0005/g, (_w, i: string) => codes[Number(i)])
      .replace(new RegExp(LB, 'g'), '[')
      .replace(new RegExp(RB, 'g'), ']')
  );
}

/** Godot BBCode → Markdown. */
export function toMarkdown(bbcode: string, options: MarkdownOptions): string {
  if (!bbcode) return '';
  const parts: string[] = [];
  let last = 0;
  for (const m of bbcode.matchAll(CODE_BLOCKS)) {
    parts.push(prose(bbcode.slice(last, m.index), options));
    if (m[1] !== undefined) {
      const blocks = [...m[1].matchAll(LANG_BLOCK)].map((b) => fence(b[2], b[1]));
      parts.push(blocks.length ? blocks.join('\n\n') : fence(m[1], ''));
    } else {
      parts.push(fence(m[3], m[2] === 'text' ? 'text' : (m[2] ?? 'gdscript')));
    }
    last = m.index + m[0].length;
  }
  parts.push(prose(bbcode.slice(last), options));
  return parts.filter((p) => p !== '').join('\n\n');
}

/** Kinds of cross-reference counted for popularity (the target as written: `Node.add_child`, `Timer`). */
const COUNTED = new Set(['method', 'member', 'signal', 'constant', 'theme_item', 'annotation']);

/**
 * Godot BBCode → plain words for indexing: code blocks dropped, references kept as their names.
 * `onRef` hears every member reference (`[method X]` …) and class reference (`[ClassName]`) on the way.
 */
export function toPlain(bbcode: string, onRef?: (target: string, isClass: boolean) => void): string {
  if (!bbcode) return '';
  return bbcode
    .replace(CODE_BLOCKS, ' ')
    .replace(TAG, (_w, close: string, tag: string, sep: string | undefined, arg: string | undefined) => {
      if (sep === ' ' && arg !== undefined && (REF_KINDS.has(tag) || tag === 'param')) {
        if (onRef && COUNTED.has(tag)) onRef(arg, false);
        return arg;
      }
      if (tag === 'lb') return '[';
      if (tag === 'rb') return ']';
      if (tag === 'br') return ' ';
      if (FORMAT_TAGS.has(tag)) return '';
      if (onRef && !close && sep === undefined && /^@?[A-Z]/.test(tag)) onRef(tag, true);
      return tag;
    })
    .replace(/\s+/g, ' ')
    .trim();
}
