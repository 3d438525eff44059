// Helpers for handlers that want to choose their own text rendering next to structured data.
import type { InputRequest, InputRequiredResult, ToolResult } from './types.js';

/** Structured data plus a human/model-readable text rendering of it. */
export function structured(data: Record<string, unknown>, text?: string): ToolResult {
  return { content: [{ type: 'text', text: text ?? JSON.stringify(data, null, 2) }], structuredContent: data };
}

export function text(value: string): ToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/**
 * What a handler returns to ask the client first (see InputRequiredResult): `requests` keyed by a
 * name the handler picks, `state` what it needs back next round.
 */
export function inputRequired(requests: Record<string, InputRequest> | undefined, state?: unknown): InputRequiredResult {
  return {
    resultType: 'input_required',
    ...(requests && Object.keys(requests).length > 0 && { inputRequests: requests }),
    ...(state !== undefined && { requestState: state }),
  };
}

export function isInputRequired(value: unknown): value is InputRequiredResult {
  return typeof value === 'object' && value !== null && (value as InputRequiredResult).resultType === 'input_required';
}
