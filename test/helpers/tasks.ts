// Following SEP-2663 tasks with the official SDK client. The client (2.4.0) declares the tasks
// extension and sends `tasks/get` and `tasks/cancel` as plain requests, but it does not know a
// tools/call answered with a task: it rejects `resultType: 'task'` as an unsupported result type.
// So the CreateTaskResult is read off the client's own transport as it arrives (the SDK still
// sends the call, decodes everything else, and gets the rejection it would give a user).
//
// A call knows its task by its own request id, never by what was sent after it began: with several
// calls of one client in flight the sends interleave (each call() may begin before any is sent), so
// "the first task among the calls since mine" hands one call another's task. The id is caught as
// the request goes out, in the async context of the call() that made it (AsyncLocalStorage follows
// the SDK's awaits down to transport.send).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallToolResult, Client, JSONRPCMessage } from '@modelcontextprotocol/client';
import * as z from 'zod';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** The capabilities of a client that follows tasks. */
export const FOLLOWS_TASKS = { extensions: { [TASKS_EXTENSION]: {} } };

export interface TaskState {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  ttlMs?: number;
  pollIntervalMs?: number;
  result?: CallToolResult;
  error?: { code: number; message: string };
}

const taskState = z.looseObject({
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  ttlMs: z.number().optional(),
  pollIntervalMs: z.number().optional(),
  result: z.looseObject({ content: z.array(z.looseObject({ type: z.string() })) }).optional(),
  error: z.object({ code: z.number(), message: z.string() }).optional(),
});

export type CallAnswer = { task: TaskState; result?: undefined } | { result: CallToolResult; task?: undefined };

export class TaskFollower {
  private readonly created = new Map<string | number, TaskState>();
  /** The call() a tools/call request goes out for: its id is written into that call's slot. */
  private readonly sending = new AsyncLocalStorage<{ id?: string | number }>();

  constructor(private readonly client: Client) {
    const transport = client.transport;
    if (!transport?.onmessage) throw new Error('connect the client first');
    const receive = transport.onmessage.bind(transport);
    const send = transport.send.bind(transport);
    transport.onmessage = (message: JSONRPCMessage, extra) => {
      if ('id' in message && 'result' in message && (message.result as { resultType?: unknown }).resultType === 'task')
        this.created.set(message.id, taskState.parse(message.result) as TaskState);
      receive(message, extra);
    };
    transport.send = (message: JSONRPCMessage, options) => {
      const slot = this.sending.getStore();
      if (slot && 'method' in message && message.method === 'tools/call' && 'id' in message) slot.id = message.id;
      return send(message, options);
    };
  }

  /** Calls a tool: its result when answered at once, else the task it became. */
  async call(name: string, args: Record<string, unknown>): Promise<CallAnswer> {
    const slot: { id?: string | number } = {};
    try {
      return { result: (await this.sending.run(slot, () => this.client.callTool({ name, arguments: args }))) as CallToolResult };
    } catch (error) {
      const task = slot.id === undefined ? undefined : this.created.get(slot.id);
      if (task) {
        this.created.delete(slot.id!);
        return { task };
      }
      throw error;
    }
  }

  async get(taskId: string): Promise<TaskState> {
    return (await this.client.request({ method: 'tasks/get', params: { taskId } }, taskState)) as TaskState;
  }

  async cancel(taskId: string): Promise<void> {
    await this.client.request({ method: 'tasks/cancel', params: { taskId } }, z.looseObject({}));
  }

  /** Polls `tasks/get` (at the interval the task asks for) until `done` holds; every state seen is kept. */
  async poll(taskId: string, done: (t: TaskState) => boolean, seen: TaskState[] = []): Promise<TaskState> {
    for (;;) {
      const state = await this.get(taskId);
      seen.push(state);
      if (done(state)) return state;
      await new Promise((resolve) => setTimeout(resolve, Math.min(state.pollIntervalMs ?? 100, 100)));
    }
  }
}

export const finished = (t: TaskState) => t.status === 'completed' || t.status === 'failed' || t.status === 'cancelled';
