// Text renderings for people; `--json` output bypasses these.
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import type { ContentBlock, ToolResult } from '../backend/types.js';

export function renderContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return String((block as { text: string }).text);
    case 'image':
    case 'audio': {
      const b = block as { mimeType: string; data: string };
      return `[${block.type} ${b.mimeType}, ${Math.floor((b.data.length * 3) / 4)} bytes]`;
    }
    case 'resource_link': {
      const b = block as { uri: string; name: string };
      return `[resource ${b.name}: ${b.uri}]`;
    }
    case 'resource': {
      const r = (block as { resource: { uri: string; text?: string; blob?: string } }).resource;
      return r.text ?? `[resource ${r.uri}, ${r.blob?.length ?? 0} base64 chars]`;
    }
    default:
      return JSON.stringify(block);
  }
}

export function renderResult(result: ToolResult): string {
  if (result.content.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent, null, 2);
  return result.content.map(renderContent).join('\n');
}

/**
 * The width tables are wrapped to: the terminal's, or none when stdout is a pipe or a file. A
 * terminal that reports no size (a pseudo-terminal nobody sized) falls back to COLUMNS.
 */
export function terminalWidth(
  stream: { isTTY?: boolean; columns?: number } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  if (!stream.isTTY) return undefined;
  const fromEnv = Number(env.COLUMNS);
  return stream.columns || (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : undefined);
}

/** Below this many columns a wrapped last column is unreadable: it goes on its own lines instead. */
const MIN_LAST_COLUMN = 32;
const STACK_INDENT = 4;

/**
 * Left-aligned columns. Without a width (piped) every row is one whole line (a multi-line last cell
 * continues under its column). With a width (a terminal) the last column is word-wrapped into the
 * room the others leave, or, when that is under MIN_LAST_COLUMN, moved under its row, indented —
 * as gh and docker do at 80 columns. Widths count what the terminal shows (string-width: colour
 * escapes are zero, CJK and emoji two).
 */
export function columns(rows: string[][], options: { gap?: number; width?: number } = {}): string {
  if (rows.length === 0) return '';
  const gap = options.gap ?? 2;
  const leading = Math.max(...rows.map((r) => r.length)) - 1;
  const widths = Array.from({ length: leading }, (_, i) => Math.max(...rows.map((r) => (i < r.length - 1 ? stringWidth(r[i]) : 0))));
  const lead = widths.reduce((sum, w) => sum + w + gap, 0);
  return rows
    .map((r) => {
      const head = r
        .slice(0, -1)
        .map((cell, i) => cell + ' '.repeat(Math.max(widths[i] + gap - stringWidth(cell), 0)))
        .join('');
      const last = r[r.length - 1] ?? '';
      const width = options.width;
      if (!width) return (head + last.split('\n').join(`\n${' '.repeat(lead)}`)).trimEnd();
      const room = width - lead;
      if (room >= MIN_LAST_COLUMN || last === '') return (head + wrap(last, room).join(`\n${' '.repeat(lead)}`)).trimEnd();
      const under = wrap(last, width - STACK_INDENT).map((line) => ' '.repeat(STACK_INDENT) + line);
      return [head.trimEnd(), ...under].join('\n');
    })
    .join('\n');
}

/** Word-wrapped lines of a cell (its own line breaks kept); a word longer than the room is broken. */
function wrap(text: string, room: number): string[] {
  return text.split('\n').flatMap((paragraph) => wrapAnsi(paragraph, Math.max(room, 1), { hard: true, trim: true }).split('\n'));
}

/** The first line of a description, whole: the table wraps it on a terminal and keeps it whole when piped. */
export function firstLine(text: string | undefined, max = Infinity): string {
  const line = (text ?? '').split('\n')[0].trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
