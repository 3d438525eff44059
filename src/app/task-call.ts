// `mcphost call --as-task`: one tool call made as a 2026-07-28 client that follows tasks (SEP-2663),
// in-process (loopback.ts) or through `--url`. Every request declares the tasks extension; when the
// server answers with a task (a task-capable tool that outlasts a moment), `tasks/get` is polled at
// the interval the task asks for (its progress drawn as for any call), Ctrl-C sends `tasks/cancel`
// and waits, within a bound, for the server to say the task is cancelled, and the result the task
// ends with is the call's. A call the server answers at once is answered as any other.
//
// The SDK client (2.4.0) has no tasks API and rejects a task answer to tools/call, so its transport
// carries that answer in as a stand-in result (src/kit/mcp/task-results.ts: the one reach past the
// SDK's public API); `tasks/get` and `tasks/cancel` go through the client's public `request()`.
import { CLIENT_CAPABILITIES_META_KEY, SERVER_INFO_META_KEY, type Client, type Tool } from '@modelcontextprotocol/client';
import * as z from 'zod';
import { toolErrorCode } from '../backend/error-codes.js';
import type { ProgressUpdate, ToolResult } from '../backend/types.js';
import { TASK_RESULT_META_KEY } from '../kit/mcp/task-results.js';
import { errorOutcome, resultError, type CallOutcome } from '../registry/result.js';
import { TASK_PROGRESS_META_KEY, TASKS_EXTENSION } from '../server/tasks/store.js';

/** The `_meta` that declares the tasks extension on one request (SEP-2575's per-request capabilities). */
const FOLLOWS_TASKS = { [CLIENT_CAPABILITIES_META_KEY]: { extensions: { [TASKS_EXTENSION]: {} } } };

/** Polls no faster than this, whatever a server asks (and no slower than the longest below). */
const MIN_POLL_MS = 50;
const MAX_POLL_MS = 2_000;

const taskState = z.looseObject({
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  pollIntervalMs: z.number().optional(),
  result: z.looseObject({ content: z.array(z.looseObject({ type: z.string() })) }).optional(),
  error: z.looseObject({ code: z.union([z.number(), z.string()]), message: z.string() }).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
type TaskState = z.infer<typeof taskState>;

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export interface TaskCallOptions {
  /** Ctrl-C: cancels the task. */
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  /** `--timeout`: the tool's deadline on the server (`mcphost/timeoutMs`). */
  timeoutMs?: number;
  /** How long a cancel waits for the server to confirm it. */
  cancelWaitMs: number;
  /** The task the call became (for a log line). */
  onTask?: (taskId: string) => void;
  /** The listed definition: its `x-mcp-header` arguments are mirrored into headers; its output schema is not checked here. */
  tool?: Tool;
}

/** A cancelled call's outcome, as a direct call's Ctrl-C reports it. */
const cancelled = (name: string, reason: unknown, note: string) =>
  errorOutcome('cancelled', 'CANCELLED', `tool ${name} was cancelled: ${String(reason)} (${note})`);

/** A result as a plain call prints it: without the server's identity, which the 2026 era stamps on every answer. */
function outcomeOf(answer: ToolResult): CallOutcome {
  const { [SERVER_INFO_META_KEY]: _server, ...meta } = answer._meta ?? {};
  const { _meta: _all, ...rest } = answer;
  const result: ToolResult = Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
  return result.isError ? { result, error: resultError(result) } : { result };
}

export async function callAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: TaskCallOptions,
): Promise<CallOutcome> {
  const { signal } = options;
  const answer = (await client.callTool(
    { name, arguments: args, _meta: { ...FOLLOWS_TASKS, ...(options.timeoutMs && { 'mcphost/timeoutMs': options.timeoutMs }) } },
    {
      signal,
      // The server's tool deadline applies; the client waits for the answer (a task answers within a moment).
      timeout: options.timeoutMs ? options.timeoutMs + 5_000 : 2 ** 31 - 1,
      resetTimeoutOnProgress: !options.timeoutMs,
      onprogress: options.onProgress && ((p) => options.onProgress!({ progress: p.progress, total: p.total, message: p.message })),
      // The stand-in for a task has no structured content: the output schema is the server's to check.
      ...(options.tool && { toolDefinition: { ...options.tool, outputSchema: undefined } }),
    },
  )) as ToolResult;
  const created = answer._meta?.[TASK_RESULT_META_KEY] as TaskState | undefined;
  if (created === undefined) return outcomeOf(answer);

  const taskId = String(created.taskId);
  options.onTask?.(taskId);
  const get = () => client.request({ method: 'tasks/get', params: { taskId, _meta: FOLLOWS_TASKS } }, taskState);
  let state: TaskState = created;
  for (;;) {
    if (signal?.aborted) return cancel(client, name, taskId, signal.reason, options.cancelWaitMs);
    if (TERMINAL.has(state.status)) break;
    if (state.status === 'input_required') {
      // A shell has nobody to answer the tool's question: the task is stopped rather than left waiting.
      await cancel(client, name, taskId, 'it asked for input', options.cancelWaitMs);
      const asked = Object.values((state as { inputRequests?: Record<string, { method?: string }> }).inputRequests ?? {});
      return errorOutcome(
        'tool_error',
        'INPUT_REQUIRED',
        `tool ${name} asked for input (${asked.map((r) => r.method ?? '?').join(', ') || 'a question'}) that mcphost call cannot answer; its task ${taskId} was cancelled — call it from a client that answers questions`,
      );
    }
    const progress = state._meta?.[TASK_PROGRESS_META_KEY] as { progress?: unknown; total?: unknown } | undefined;
    if (typeof progress?.progress === 'number')
      options.onProgress?.({
        progress: progress.progress,
        ...(typeof progress.total === 'number' && { total: progress.total }),
        ...(state.statusMessage !== undefined && { message: state.statusMessage }),
      });
    await pause(Math.min(Math.max(state.pollIntervalMs ?? 500, MIN_POLL_MS), MAX_POLL_MS), signal);
    if (signal?.aborted) continue;
    state = await get();
  }
  if (state.status === 'completed') return outcomeOf((state.result ?? { content: [] }) as ToolResult);
  if (state.status === 'failed')
    return errorOutcome('tool_error', toolErrorCode(state.error?.code, 'TASK_FAILED'), state.error?.message ?? `task ${taskId} failed`);
  return errorOutcome('cancelled', 'CANCELLED', `tool ${name} was cancelled: its task ${taskId} was cancelled on the server`);
}

/** `tasks/cancel`, then `tasks/get` until the server says cancelled (or done), within `waitMs`. */
async function cancel(client: Client, name: string, taskId: string, reason: unknown, waitMs: number): Promise<CallOutcome> {
  const until = Date.now() + waitMs;
  const left = () => Math.max(1, until - Date.now());
  try {
    await client.request({ method: 'tasks/cancel', params: { taskId, _meta: FOLLOWS_TASKS } }, z.looseObject({}), { timeout: left() });
    for (;;) {
      const state = await client.request({ method: 'tasks/get', params: { taskId, _meta: FOLLOWS_TASKS } }, taskState, {
        timeout: left(),
      });
      if (state.status === 'cancelled') return cancelled(name, reason, `task ${taskId} cancelled on the server`);
      // It ended before the cancel reached it: what it ended with is the answer.
      if (state.status === 'completed') return outcomeOf((state.result ?? { content: [] }) as ToolResult);
      if (state.status === 'failed')
        return errorOutcome('tool_error', toolErrorCode(state.error?.code, 'TASK_FAILED'), state.error?.message ?? '');
      if (Date.now() >= until) break;
      await pause(MIN_POLL_MS);
    }
  } catch (error) {
    return cancelled(name, reason, `tasks/cancel for task ${taskId} got no confirmation: ${(error as Error)?.message ?? String(error)}`);
  }
  return cancelled(name, reason, `the server did not confirm cancelling task ${taskId} within ${waitMs} ms`);
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
