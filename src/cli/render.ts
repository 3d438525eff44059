// Text renderings for people; `--json` output bypasses these.
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

/** The width tables are cut to: the terminal's, or none when stdout is a pipe or a file. */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout): number | undefined {
  return stream.isTTY && stream.columns ? stream.columns : undefined;
}

/** Left-aligned columns; the last column is not padded, and is cut with … to fit `width`. */
export function columns(rows: string[][], options: { gap?: number; width?: number } = {}): string {
  if (rows.length === 0) return '';
  const gap = options.gap ?? 2;
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      fit(
        r
          .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] + gap)))
          .join('')
          .trimEnd(),
        options.width,
      ),
    )
    .join('\n');
}

/** Cuts each line of a row to the width (a multi-line cell keeps its line breaks). */
function fit(row: string, width: number | undefined): string {
  if (!width) return row;
  return row
    .split('\n')
    .map((line) => (line.length > width ? `${line.slice(0, width - 1)}…` : line))
    .join('\n');
}

export function firstLine(text: string | undefined, max = 100): string {
  const line = (text ?? '').split('\n')[0].trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
