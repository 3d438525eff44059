// The response the SDK server would send for a tools/call the fast path ran (tool-call.ts): what
// ../tool-calls.ts's handler answers, then what Server._wrapHandler (server/src/server/server.ts)
// and Protocol._onrequest (core-internal/src/shared/protocol.ts) make of it — the result checked by
// the era codec's CallToolResult schema (a result it would return unchanged goes out as it is:
// result-shape.ts), its refusal worded as the SDK words it, and a thrown error's code through the
// codec's encodeErrorCode.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { unchangedBySdkSchema } from '../../kit/mcp/sdk-bypass/result-shape.js';
import type { WireCodec } from '../../kit/mcp/sdk-bypass/sdk-private.js';
import type { CallOutcome } from '../../registry/result.js';

/** A JSON-RPC error response as the SDK writes one (the code through its codec). */
function errorResponse(codec: WireCodec, id: string | number, code: number, message: string, data?: unknown): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: codec.encodeErrorCode(code), message, ...(data !== undefined && { data }) },
  } as JSONRPCMessage;
}

/** The SDK's error response for a handler that threw. */
export function thrown(codec: WireCodec, id: string | number, error: unknown): JSONRPCMessage {
  const { code, message, data } = (error ?? {}) as { code?: unknown; message?: string; data?: unknown };
  return errorResponse(
    codec,
    id,
    typeof code === 'number' && Number.isSafeInteger(code) ? code : -32603,
    message ?? 'Internal error',
    data,
  );
}

/** The response the SDK would send for `outcome`. */
export function answer(codec: WireCodec, id: string | number, outcome: CallOutcome): JSONRPCMessage {
  const failed = (code: number, message: string, data?: unknown) => errorResponse(codec, id, code, message, data);
  // A relayed 2025-era call has neither (relaysPlainly); said as the SDK would say an unexpected one.
  if (outcome.refused) return failed(outcome.refused.code, outcome.refused.message, outcome.refused.data);
  if (outcome.inputRequired || outcome.remoteTask) return failed(-32603, 'Internal error');
  const result: unknown = outcome.result;
  if (unchangedBySdkSchema(result)) return { result, jsonrpc: '2.0', id } as JSONRPCMessage;
  const checked = codec.validateResult('tools/call', result);
  if (!checked.ok) {
    return checked.reason === 'not-in-era'
      ? failed(-32603, 'No wire schema for tools/call in the resolved era')
      : failed(-32602, `Invalid tools/call result: ${checked.message}`);
  }
  return { result: checked.value, jsonrpc: '2.0', id } as JSONRPCMessage;
}
