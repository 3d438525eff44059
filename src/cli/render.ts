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

/** The first line of a description, whole: the table wraps it on a terminal and keeps it whole when piped. */
export function firstLine(text: string | undefined, max = Infinity): string {
  const line = (text ?? '').split('\n')[0].trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
