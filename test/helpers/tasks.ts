// Following SEP-2663 tasks with the official SDK client. The client (2.4.0) declares the tasks
// extension and sends `tasks/get` and `tasks/cancel` as plain requests, but it does not know a
// tools/call answered with a task: it rejects `resultType: 'task'` as an unsupported result type.
// So the CreateTaskResult is read off the client's own transport as it arrives (the SDK still
// sends the call, decodes everything else, and gets the rejection it would give a user).
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
  private calls: Array<string | number> = [];

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
      if ('method' in message && message.method === 'tools/call' && 'id' in message) this.calls.push(message.id);
      return send(message, options);
    };
  }

  /** Calls a tool: its result when answered at once, else the task it became. */
  async call(name: string, args: Record<string, unknown>): Promise<CallAnswer> {
    const before = this.calls.length;
    try {
      return { result: (await this.client.callTool({ name, arguments: args })) as CallToolResult };
    } catch (error) {
      const task = this.calls
        .slice(before)
        .map((id) => this.created.get(id))
        .find((t) => t !== undefined);
      if (task) return { task };
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
