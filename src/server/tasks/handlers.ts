// `tasks/get`, `tasks/update` and `tasks/cancel` on a 2026-era server instance (`tasks/result` and
// `tasks/list` are gone in SEP-2663: the era gate answers them -32601). A client that did not
// declare the extension in its request is refused with -32021, as SEP-2575 asks.
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { isRequestError } from '../../backend/errors.js';
import type { ClientCapabilities } from '../../backend/types.js';
import { TASKS_EXTENSION, type TaskStore } from './store.js';

export function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

export function tasksRequired(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `${what} needs the ${TASKS_EXTENSION} extension, which this request's client capabilities do not declare`,
  );
}

function requireTasks(ctx: ServerContext, method: string): void {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (!declaresTasks(envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)) throw tasksRequired(method);
}

function unknownTask(id: string): ProtocolError {
  const shown = id.length > 100 ? `${id.slice(0, 100)}…` : id;
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown task ${JSON.stringify(shown)} (it may have expired)`, {
    taskId: shown,
  });
}

const taskParams = z.looseObject({ taskId: z.string() });

/** A mounted server's refusal about a task it runs (a RequestError) is the client's JSON-RPC error. */
async function relayed<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isRequestError(error)) throw new ProtocolError(error.code, error.message, error.data);
    throw error;
  }
}

/** `caller`: the callerKey of the client this instance serves; another caller's task is answered as unknown. */
export function installTaskHandlers(server: Server, tasks: TaskStore, caller: string): void {
  server.setRequestHandler('tasks/get', { params: taskParams }, async (params, ctx) => {
    requireTasks(ctx, 'tasks/get');
    const task = await relayed(() => tasks.get(params.taskId, caller));
    if (!task) throw unknownTask(params.taskId);
    return task;
  });
  server.setRequestHandler(
    'tasks/update',
    { params: z.looseObject({ taskId: z.string(), inputResponses: z.record(z.string(), z.unknown()).default({}) }) },
    async (params, ctx) => {
      requireTasks(ctx, 'tasks/update');
      // The SDK lifts `inputResponses` off every request's params into the context.
      const responses = ctx.mcpReq.inputResponses ?? params.inputResponses;
      if (!(await relayed(() => tasks.update(params.taskId, responses, caller)))) throw unknownTask(params.taskId);
      return {};
    },
  );
  server.setRequestHandler('tasks/cancel', { params: taskParams }, async (params, ctx) => {
    requireTasks(ctx, 'tasks/cancel');
    if (!(await relayed(() => tasks.cancel(params.taskId, caller)))) throw unknownTask(params.taskId);
    return {};
  });
}
