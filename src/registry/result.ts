// Shapes what a handler returned into an MCP CallToolResult, and failures into error results.
import { redact } from '../lib/secrets.js';
import type { InputRequiredResult, ReadResult, ResourceContents, ToolResult } from '../backend/types.js';
import { capText, MAX_ERROR_CHARS, measure } from './limits.js';
import type { RemoteTaskHandle } from '../backend/remote-task.js';
import { toolErrorCode, type ToolErrorCode } from '../backend/error-codes.js';

export type ErrorKind =
  | 'invalid_arguments'
  | 'tool_error'
  | 'timeout'
  | 'cancelled'
  | 'unavailable'
  | 'invalid_output'
  | 'refused'
  /** The client's policy (http.clients.<name>.tools) does not allow the tool. */
  | 'policy'
  /** The client is past one of its limits (http.clients.<name>.limits). */
  | 'limit';

/** A tool call's outcome: the MCP result plus, for failures, what kind of failure it was. */
export interface CallOutcome {
  result: ToolResult;
  error?: { kind: ErrorKind; code: ToolErrorCode; message: string };
  /** The handler asked the client first (`result` then only says so, for callers that cannot ask). */
  inputRequired?: InputRequiredResult;
  /** The request itself was refused (a RequestError): the server answers a JSON-RPC error, not `result`. */
  refused?: { code: number; message: string; data?: unknown };
  /** A mounted server made the call a task of its own (see remote-task.ts). */
  remoteTask?: RemoteTaskHandle;
}

export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as ToolResult).content);
}

export function toToolResult(value: unknown): ToolResult {
  if (isToolResult(value)) return value;
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined) return { content: [] };
  const text = JSON.stringify(value, null, 2);
  // MCP's structuredContent is an object (2025 clients reject anything else): an array, number or
  // null is sent as JSON text only.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { content: [{ type: 'text', text }] };
  return { content: [{ type: 'text', text }], structuredContent: value as Record<string, unknown> };
}

/**
 * `_meta` key of an error result's `{ code, message, data }`. Errors never carry structuredContent:
 * a tool that declares an outputSchema would then break it, and SDK clients (the Inspector,
 * mcporter) reject such a result instead of showing its message.
 */
export const ERROR_META_KEY = 'mcphost/error';

/** What `call` reports for an error result a handler returned itself (an upstream's `isError`). */
export function resultError(result: ToolResult): NonNullable<CallOutcome['error']> {
  const error = (result._meta?.[ERROR_META_KEY] ?? (result.structuredContent as { error?: unknown } | undefined)?.error) as
    { code?: unknown } | undefined;
  const message =
    result.content
      .map((c) => (c.type === 'text' ? String(c.text) : ''))
      .filter(Boolean)
      .join('\n') || 'the tool returned an error';
  // The TypeScript SDK's McpServer answers arguments its schema refuses as an error result (not a
  // JSON-RPC error): "Input validation error: Invalid arguments for tool …" in 2.x (validateToolInput),
  // "MCP error -32602: …" in 1.x. A bad argument (exit 1), not a tool failure.
  const refused = /^(MCP error -32602\b|Input validation error: Invalid arguments for tool )/.test(message);
  // A code from the server (another mcphost's, say) that the table does not hold is a TOOL_ERROR here.
  const code = error?.code !== undefined ? toolErrorCode(error.code) : refused ? -32602 : 'TOOL_ERROR';
  const kind = code === 'UNAVAILABLE' ? 'unavailable' : refused ? 'invalid_arguments' : 'tool_error';
  return { kind, code, message };
}

export function errorOutcome(kind: ErrorKind, code: ToolErrorCode, fullMessage: string, data?: unknown): CallOutcome {
  // A handler's error may quote its input: the answer stays small whatever it held. One that quotes
  // a setting (a URL with a token in it) never shows a secret the config referenced.
  const message = capText(redact(fullMessage));
  const error: Record<string, unknown> = { code, message };
  if (data !== undefined) error.data = measure(data, MAX_ERROR_CHARS).bytes > MAX_ERROR_CHARS ? { omitted: 'too large' } : data;
  return {
    result: { isError: true, content: [{ type: 'text', text: message }], _meta: { [ERROR_META_KEY]: error } },
    error: { kind, code, message },
  };
}

export function toReadContents(uri: string, mimeType: string | undefined, value: ReadResult): { contents: ResourceContents[] } {
  if (typeof value === 'object' && value !== null && Array.isArray((value as { contents?: unknown }).contents)) {
    return value as { contents: ResourceContents[] };
  }
  if (typeof value === 'string') return { contents: [{ uri, mimeType: mimeType ?? 'text/plain', text: value }] };
  return { contents: [{ uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(value, null, 2) }] };
}
