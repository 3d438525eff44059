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

/** Left-aligned columns; the last column is not padded. */
export function columns(rows: string[][], gap = 2): string {
  if (rows.length === 0) return '';
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] + gap)))
        .join('')
        .trimEnd(),
    )
    .join('\n');
}

export function firstLine(text: string | undefined, max = 100): string {
  const line = (text ?? '').split('\n')[0].trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
