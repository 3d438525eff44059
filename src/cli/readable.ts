// `call`'s result for a person at a terminal: a JSON text becomes an indented outline of `key: value`
// lines, Markdown's inline markers (**bold**, `code`) become terminal styles instead of literal
// asterisks and backticks, and every line is word-wrapped to the width. Programs get none of this:
// piped output stays the tool's text as it is, and --json the raw MCP result.
import type { ToolResult } from '../backend/types.js';
import { renderContent } from './render.js';
import type { Colors } from './style.js';

const INDENT = '  ';

export async function readableResult(result: ToolResult, width: number | undefined, c: Colors): Promise<string> {
  const blocks =
    result.content.length === 0 && result.structuredContent !== undefined
      ? [outline(result.structuredContent, '', c)]
      : result.content.map((block) => {
          const text = renderContent(block);
          const json = block.type === 'text' ? parseJson(text) : undefined;
          return json === undefined ? inline(text, c) : outline(json, '', c);
        });
  const text = blocks.join('\n');
  return width ? await wrapIndented(text, width) : text;
}

/** Only a whole object or array counts: a tool's plain sentence that happens to be `42` stays a sentence. */
function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

function inline(text: string, c: Colors): string {
  return text
    .replace(/\*\*(?=\S)([^*\n]+?)\*\*/g, (_, inner: string) => c.bold(inner))
    .replace(/`([^`\n]+)`/g, (_, inner: string) => c.cyan(inner));
}

function scalar(value: unknown, c: Colors): string {
  if (typeof value === 'string') return inline(value, c);
  if (value === null) return c.dim('none');
  return String(value);
}

const isPlain = (value: unknown) => value === null || typeof value !== 'object';

function outline(value: unknown, indent: string, c: Colors): string {
  if (isPlain(value)) return indent + scalar(value, c);
  if (Array.isArray(value)) {
    if (value.length === 0) return `${indent}${c.dim('(none)')}`;
    // Records one after another, a blank line between; a list of plain values one per line.
    if (value.every(isPlain)) return value.map((v) => `${indent}- ${scalar(v, c)}`).join('\n');
    return value.map((v) => outline(v, indent, c)).join('\n\n');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return `${indent}${c.dim('(empty)')}`;
  return entries
    .map(([key, v]) => {
      const label = `${indent}${c.bold(key)}:`;
      if (isPlain(v)) return `${label} ${scalar(v, c)}`;
      if (Array.isArray(v) && v.length > 0 && v.every(isPlain) && v.join(', ').length <= 60)
        return `${label} ${v.map((x) => scalar(x, c)).join(', ')}`;
      return `${label}\n${outline(v, indent + INDENT, c)}`;
    })
    .join('\n');
}

// eslint-disable-next-line no-control-regex -- the SGR escapes picocolors writes
const COLOUR_ESCAPE = /\x1b\[[0-9;]*m/g;

/**
 * A line wrap-ansi would give back as it is: printable ASCII (and colour escapes), no wider than the
 * room, with no space at either end of what shows (wrap-ansi's `trim` would drop it). Checked
 * against wrap-ansi on 100,000 random lines of words, spaces and escapes.
 */
function fits(line: string, room: number): boolean {
  const shown = line.replace(COLOUR_ESCAPE, '');
  return shown.length <= room && /^[\x20-\x7e]*$/.test(shown) && shown === shown.trim();
}

/**
 * Wraps each line between words, continuing under its own indentation (and after its `key: `).
 * wrap-ansi (and the string-width it measures with, ~30 ms to load) is loaded only when a line is
 * too long, or not plain enough to tell: most answers fit a terminal as they are.
 */
async function wrapIndented(text: string, width: number): Promise<string> {
  const lines = text.split('\n').map((line) => {
    const indent = /^ */.exec(line)![0].length;
    return { indent, body: line.slice(indent), room: Math.max(width - indent - 2, 20) };
  });
  if (lines.every((l) => fits(l.body, l.room))) return text;
  const { default: wrapAnsi } = await import('wrap-ansi');
  return lines
    .map(({ indent, body, room }) => {
      const [first, ...rest] = wrapAnsi(body, room, { hard: true, trim: true }).split('\n');
      return [' '.repeat(indent) + first, ...rest.map((l) => ' '.repeat(indent + 2) + l)].join('\n');
    })
    .join('\n');
}
