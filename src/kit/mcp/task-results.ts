// A 2026-era server may answer tools/call with a task (SEP-2663's CreateTaskResult, `resultType:
// 'task'`). The SDK client (2.4.0) knows only `complete` and `input_required`: its 2026-07-28 codec
// rejects any other resultType with UNSUPPORTED_RESULT_TYPE before the caller sees the result, and
// that error does not carry it. So the upstream transport hands such a result to the client as a
// complete, empty CallToolResult whose `_meta` holds the server's CreateTaskResult, untouched;
// pass-through.ts takes it out again. Nothing else is changed, and only mcphost's own client reads it.
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/client';

/** Where the server's CreateTaskResult travels inside the stand-in result. */
export const TASK_RESULT_META_KEY = 'mcphost/createTaskResult';

function carried(message: JSONRPCMessage): JSONRPCMessage {
  const result = (message as { result?: Record<string, unknown> }).result;
  if (typeof result !== 'object' || result === null || result.resultType !== 'task') return message;
  return { ...message, result: { resultType: 'complete', content: [], _meta: { [TASK_RESULT_META_KEY]: result } } } as JSONRPCMessage;
}

/** Makes `transport` hand task results to its client as described above; call before connecting. */
export function carryTaskResults(transport: Transport): void {
  let handler: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => handler && ((message: JSONRPCMessage, extra?: MessageExtraInfo) => handler!(carried(message), extra)),
    set: (next: Transport['onmessage']) => {
      handler = next;
    },
  });
}
