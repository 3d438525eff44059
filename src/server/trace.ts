// W3C trace context in a request's `_meta` (the MCP spec reserves `traceparent` and `tracestate`
// there): read from a tools/call and handed on to mounted servers, so one trace spans the client,
// mcphost and the server behind it. Only a well-formed value is passed on (W3C Trace Context §3.2:
// version 00, a non-zero trace id and parent id, 2 hex flag digits).
import type { TraceContext } from '../backend/types.js';

const TRACEPARENT = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;
// tracestate: at most 32 list members, 512 characters as the spec advises propagating.
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

export function traceOf(meta: unknown): TraceContext | undefined {
  if (!meta || typeof meta !== 'object') return undefined;
  const { traceparent, tracestate } = meta as Record<string, unknown>;
  if (typeof traceparent !== 'string' || !TRACEPARENT.test(traceparent)) return undefined;
  return typeof tracestate === 'string' && TRACESTATE.test(tracestate) ? { traceparent, tracestate } : { traceparent };
}
