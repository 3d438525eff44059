// Helpers for handlers that want to choose their own text rendering next to structured data.
import type { ToolResult } from './types.js';

/** Structured data plus a human/model-readable text rendering of it. */
export function structured(data: Record<string, unknown>, text?: string): ToolResult {
  return { content: [{ type: 'text', text: text ?? JSON.stringify(data, null, 2) }], structuredContent: data };
}

export function text(value: string): ToolResult {
  return { content: [{ type: 'text', text: value }] };
}
