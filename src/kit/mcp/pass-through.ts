// Requests to a mounted server spoken to in the 2026-07-28 revision, passed through as the client of
// the call sent them: the request carries that client's capabilities (so the server asks only what
// the client can answer, and refuses with -32021 what it cannot), an InputRequiredResult comes back
// verbatim (the server's own keys; its requestState is returned to the server as it gave it, mcphost
// sealing it on the way to the client), a task the server creates is followed there (tasks/get,
// tasks/update, tasks/cancel go to it, as the client that started it; the client knows it under an
// id of mcphost's, tasks/store.ts), and a JSON-RPC error of the server is the client's JSON-RPC
// error, not a tool error. No question is fulfilled by mcphost, so none can reach another client:
// each answer goes back on the request that asked. (Log messages name no call: asks.ts routes them.)
import {
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  type Progress,
  type StandardSchemaV1,
  type Tool,
} from '@modelcontextprotocol/client';
import { RequestError } from '../../backend/errors.js';
import type { CallContext, ClientCapabilities, TraceContext } from '../../backend/types.js';
import { remoteTask, type RemoteTaskHandle } from '../../backend/remote-task.js';
import type { UpstreamClient } from './client.js';
import { TASK_RESULT_META_KEY } from './task-results.js';

/** Accepts any object: the server's answer is handed on as it is (the client of the call validates it). */
const anyResult: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'mcphost',
    validate: (value) =>
      typeof value === 'object' && value !== null
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: 'not an object' }] },
  },
};

/** The `_meta` a passed-through request carries: the caller's capabilities and trace; every log level (ctx.log filters). */
function envelope(capabilities: ClientCapabilities, trace?: TraceContext): Record<string, unknown> {
  return { ...trace, [CLIENT_CAPABILITIES_META_KEY]: capabilities, [LOG_LEVEL_META_KEY]: 'debug' };
}

/** The answers of a retry, as the server asked for them (its keys, its requestState). */
function retryParams(ctx: CallContext): Record<string, unknown> {
  if (!ctx.input) return {};
  return {
    ...(Object.keys(ctx.input.responses).length > 0 && { inputResponses: ctx.input.responses }),
    ...(typeof ctx.input.state === 'string' && { requestState: ctx.input.state }),
  };
}

/**
 * Sends `method` to a 2026-era server for the client of `ctx`. The server's refusal (a JSON-RPC
 * error) is thrown as a RequestError carrying its code, message and data.
 */
export async function passThrough(
  upstream: UpstreamClient,
  method: 'tools/call' | 'prompts/get' | 'resources/read',
  params: Record<string, unknown>,
  ctx: CallContext,
  timeout: number,
  tool?: Tool,
): Promise<unknown> {
  const capabilities = ctx.client.capabilities;
  const request = { method, params: { ...params, ...retryParams(ctx), _meta: envelope(capabilities, ctx.trace) } };
  const options = {
    signal: ctx.signal,
    timeout,
    allowInputRequired: true,
    onprogress: (p: Progress) => ctx.progress({ progress: p.progress, total: p.total, message: p.message }),
  };
  const outcome = await upstream.request(
    (c) =>
      refusalOf(() =>
        tool
          ? // callTool mirrors the arguments the tool marks (`x-mcp-header`) into Mcp-Param-* headers (SEP-2243),
            // as the server checks; the listed definition is handed over without its output schema, which the
            // client of the call checks (an input-required or task answer has no structured content).
            (c.callTool(
              { ...request.params, name: tool.name },
              { ...options, toolDefinition: { ...tool, outputSchema: undefined } },
            ) as Promise<Record<string, unknown>>)
          : c.request(request, anyResult, options),
      ),
    ctx.signal,
  );
  const answer = unwrap(upstream.label, outcome);
  const task = (answer._meta as Record<string, unknown> | undefined)?.[TASK_RESULT_META_KEY];
  if (task === undefined) return answer;
  return remoteTask(followTask(upstream, task as Record<string, unknown>, capabilities, timeout));
}

/**
 * Runs a request, returning the server's JSON-RPC error instead of throwing it: inside
 * UpstreamClient.request a thrown ProtocolError would become a tool error.
 */
async function refusalOf<T>(send: () => Promise<T>): Promise<{ value: T } | { refused: ProtocolError }> {
  try {
    return { value: await send() };
  } catch (error) {
    if (error instanceof ProtocolError) return { refused: error };
    throw error;
  }
}

function unwrap<T>(label: string, outcome: { value: T } | { refused: ProtocolError }): T {
  if ('value' in outcome) return outcome.value;
  const { code, message, data } = outcome.refused;
  throw new RequestError(code, message, { data, cause: new Error(`${label} refused the request`) });
}

/** A task the server created: every request about it goes to the server, as the client that started it. */
function followTask(
  upstream: UpstreamClient,
  created: Record<string, unknown>,
  capabilities: ClientCapabilities,
  timeout: number,
): RemoteTaskHandle {
  const taskId = String(created.taskId);
  const send = async (method: 'tasks/get' | 'tasks/update' | 'tasks/cancel', extra: Record<string, unknown> = {}) =>
    unwrap(
      upstream.label,
      await upstream.request((c) =>
        refusalOf(() => c.request({ method, params: { taskId, ...extra, _meta: envelope(capabilities) } }, anyResult, { timeout })),
      ),
    );
  return {
    created,
    get: () => send('tasks/get'),
    update: async (inputResponses) => void (await send('tasks/update', { inputResponses })),
    cancel: async () => void (await send('tasks/cancel')),
  };
}
