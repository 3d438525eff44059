// A named client past its limits gets its tools/call refused before any MCP work: HTTP 429 with
// Retry-After, and the same JSON-RPC -32029 error (the limit, `retryAfter` seconds) the registry
// answers a call it refuses later (discover mode's inner call, a batch). Nothing is taken from a
// bucket here: the call that passes is admitted, and counted, where it runs (registry/dispatch.ts).
import type { ServerResponse } from 'node:http';
import type { LimitRefusal } from '../registry/caller-limits.js';
import type { ClientAccess } from '../registry/access.js';
import { CALL_TOOL } from '../discover/meta-tools.js';

interface CallMessage {
  method?: unknown;
  params?: { name?: unknown; arguments?: { name?: unknown }; requestState?: unknown };
}

/** The tool a single tools/call would be refused for now, with why; undefined when it may go on. */
export function limitedCall(body: unknown, access: ClientAccess | undefined): { tool: string; refusal: LimitRefusal } | undefined {
  if (!access?.limits.any || Array.isArray(body)) return undefined;
  const m = body as CallMessage | undefined;
  // A retry carrying requestState goes on with a call already admitted (a paused call holds its slot).
  if (m?.method !== 'tools/call' || typeof m.params?.name !== 'string' || m.params.requestState !== undefined) return undefined;
  const inner = m.params.arguments?.name;
  const tool = m.params.name === CALL_TOOL && typeof inner === 'string' ? inner : m.params.name;
  const refusal = access.limits.peek(tool);
  return refusal && { tool, refusal };
}

export function tooManyRequests(
  res: ServerResponse,
  error: { code: number; message: string; data?: unknown },
  id: string | number | null,
): void {
  const retryAfter = (error.data as { retryAfter?: number } | undefined)?.retryAfter ?? 1;
  res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(retryAfter) });
  res.end(JSON.stringify({ jsonrpc: '2.0', error, id }));
}
